import type { Lifecycle, PoolPolicies } from './types.js'

/**
 * LCS-004 §8 importance and §10 lifecycle, as pure functions of a memory, its reads and the clock.
 *
 * `score = access_count*10 + confidence*5 + recency_weight + source_authority + user_rating`,
 * capped at 10000 (and floored at 0). The spec leaves four terms open; memweave defines them so
 * that each can move the score, none saturates the cap alone, and all are deterministic:
 * - `confidence*5` takes confidence in percent (0..100), so it adds 0..500. (In basis points, as
 *   the on-chain struct stores it, any confidence above 0.2 would hit the cap by itself; as 0..1
 *   it would add at most 5 and mean nothing.)
 * - `recency_weight(timestamp)` = 1000 * 2^(-age / recencyHalfLife): 1000 when new, 500 after one
 *   half-life (30 days by default).
 * - `source_authority(creating_agent)` = 1000 for the pool owner and `trustedAgents`, 500 for an
 *   agent that can still write the pool, 250 for one that can still read it, 0 for a former member.
 * - `user_rating(user_feedback)` = 1000 * the mean rating given with `rate()`, each in [-1, 1]
 *   (so -1000..1000; 0 when unrated).
 */
export interface ImportanceInput {
  readonly accessCount: number
  readonly confidence: number
  readonly createdAt: number
  /** 0, 250, 500 or 1000: see `authority`. */
  readonly authority: number
  /** Mean rating in [-1, 1], or null. */
  readonly rating: number | null
}

export const IMPORTANCE_CAP = 10_000

export function authority(role: { owner: boolean; trusted: boolean; write: boolean; read: boolean }): number {
  if (role.owner || role.trusted) return 1000
  if (role.write) return 500
  if (role.read) return 250
  return 0
}

export function importance(m: ImportanceInput, now: number, policies: Pick<PoolPolicies, 'recencyHalfLife'>): number {
  const age = Math.max(0, now - m.createdAt) / 1000
  const recency = 1000 * 2 ** (-age / policies.recencyHalfLife)
  const score = m.accessCount * 10 + m.confidence * 100 * 5 + recency + m.authority + (m.rating ?? 0) * 1000
  return Math.min(IMPORTANCE_CAP, Math.max(0, Math.round(score)))
}

/**
 * §10: Created -> Active -> Stale -> Archived -> Forgotten.
 * - created: never read since it was written;
 * - active: read, and read or written within `staleAfter`;
 * - stale ("reduced priority"): no read or write for `staleAfter` (its recency term has decayed too);
 * - archived ("compressed storage"): no activity for `archiveAfter`, or superseded (kept only as
 *   provenance). Archived memories leave default queries; a permanent memory is never archived by age;
 * - forgotten: hard-deleted (forget, cascade, TTL expiry, pruning, ephemeral use), known by its tombstone only.
 * A read moves a stale or archived-by-age memory back to active (the spec's "updated access").
 */
export function lifecycle(
  m: { createdAt: number; lastAccessed: number | null; accessCount: number; permanent: boolean; superseded: boolean },
  now: number,
  policies: Pick<PoolPolicies, 'staleAfter' | 'archiveAfter'>,
): Exclude<Lifecycle, 'forgotten'> {
  if (m.superseded) return 'archived'
  const idle = (now - Math.max(m.createdAt, m.lastAccessed ?? 0)) / 1000
  if (idle >= policies.archiveAfter && !m.permanent) return 'archived'
  if (idle >= policies.staleAfter) return 'stale'
  return m.accessCount === 0 ? 'created' : 'active'
}
