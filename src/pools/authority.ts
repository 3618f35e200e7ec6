import { hlcWall } from '../core/clock.js'
import type { Acl } from './acl.js'
import { poolBodyProblem } from './record-shape.js'
import { PoolKind, derivePoolId, type MemoryPayload, type PoolRecord, type TombstoneBody, type TombstoneReason } from './records.js'
import type { PoolPolicies, Rights } from './types.js'

/**
 * Who may author which pool record (docs/pools.md, "Records"), as one rule shared by the state
 * derivation (state.ts) and the sync layer's materializer (src/sync/materialize.ts), so that what a
 * replica shows and what it accepts from a Y.Doc can never disagree.
 *
 * A record is judged by its author's rights *at its own timestamp* (the `pool-acl` in force at its
 * hybrid-logical-clock time, not expired at its wall time), so the verdict depends on the record
 * set only, never on the order records arrived in.
 */
export const Verdict = {
  OK: 'ok',
  /** A `pool-create` whose pool id is not `derivePoolId(author, nonce, tenant)`: someone else tried to found it. */
  FORGED_CREATE: 'forged-create',
  /** Another tenant than the pool's. */
  WRONG_TENANT: 'wrong-tenant',
  /** ACL, policy and key records by anyone but the owner. */
  NOT_OWNER: 'not-owner',
  /** No grant at the record's timestamp (never a member, revoked, or expired). */
  NOT_MEMBER: 'not-member',
  /** A reader writing what needs write access. */
  READ_ONLY: 'read-only',
} as const
export type Verdict = (typeof Verdict)[keyof typeof Verdict]

/** What a verdict needs to know about the pool. */
export interface Authority {
  readonly owner: string
  readonly tenant: string | null
  readonly acl: Acl
}

const CONSUMING: ReadonlySet<TombstoneReason> = new Set(['ephemeral', 'session-end'])

/**
 * The author's rights at the record's own timestamp, less what a later revocation with a cutoff
 * took away from records it does not list (acl.ts `at`): a backdated record gains nothing.
 */
export function rightsAt(a: Authority, r: PoolRecord): Rights {
  return a.acl.at(r.author, r.hlc, hlcWall(r.hlc), r.id)
}

/** Whether a `pool-create` record founds its pool: the pool id is bound to its author, nonce and tenant. */
export function foundsPool(r: PoolRecord): boolean {
  const nonce = (r.body as { nonce?: unknown }).nonce
  return r.kind === PoolKind.CREATE && typeof nonce === 'string' && r.pool === derivePoolId(r.author, nonce, r.tenant)
}

/**
 * The verdict on one (signature-checked, well-formed) record of a founded pool. A reader's
 * tombstone is accepted here for the consuming reasons (`ephemeral`, `session-end`); that it forgets
 * only EPHEMERAL targets is the state's rule (state.ts), which knows the payloads.
 */
export function judgeRecord(a: Authority, r: PoolRecord): Verdict {
  if (r.kind === PoolKind.CREATE) return foundsPool(r) ? Verdict.OK : Verdict.FORGED_CREATE
  if (r.tenant !== a.tenant) return Verdict.WRONG_TENANT
  switch (r.kind) {
    case PoolKind.ACL:
    case PoolKind.POLICY:
    case PoolKind.KEY:
      return r.author === a.owner ? Verdict.OK : Verdict.NOT_OWNER
    case PoolKind.MEMORY:
    case PoolKind.RESOLVE: {
      const rights = rightsAt(a, r)
      return rights.write ? Verdict.OK : rights.read ? Verdict.READ_ONLY : Verdict.NOT_MEMBER
    }
    case PoolKind.TOMBSTONE: {
      const rights = rightsAt(a, r)
      if (rights.write) return Verdict.OK
      if (rights.read) return CONSUMING.has((r.body as { reason: TombstoneReason }).reason) ? Verdict.OK : Verdict.READ_ONLY
      return Verdict.NOT_MEMBER
    }
    case PoolKind.ACCESS:
    case PoolKind.RATING:
      return rightsAt(a, r).read ? Verdict.OK : Verdict.NOT_MEMBER
    default:
      return Verdict.NOT_MEMBER
  }
}

/**
 * Who may forget a memory (docs/pools.md, "Forget"): LCS-004 does not say, and a tombstone is a
 * hard delete on every replica, so by default only the memory's author and the pool's owner. The
 * pool policy `forgetBy: 'writers'` widens it to every writer. Beyond that, a tombstone forgets
 * another's memory only for a reason every replica can check from the record set alone, with the
 * plaintext record in hand (never a decrypted payload: a replica without the key, or the relay,
 * must reach the same verdict):
 * - `ephemeral` (a read consumed it): the memory is EPHEMERAL;
 * - `expired`: the memory has a TTL and it ended by the tombstone's time;
 * - `pruned`, `forget`, `cascade`, `session-end`: never (whether a pool was over its maxSize
 *   depends on importance, which depends on the clock and on reads).
 * `writerNow`: whether the tombstone's author could write at the tombstone's timestamp.
 */
export function mayForget(
  a: Authority & { readonly policies: PoolPolicies }, author: string, writerNow: boolean, reason: TombstoneReason, wallMs: number, target: PoolRecord,
): boolean {
  if (author === a.owner || author === target.author) return true
  if (a.policies.forgetBy === 'writers' && writerNow) return true
  const body = target.body as { payload?: MemoryPayload }
  const p = body.payload
  if (!p) return false
  if (reason === 'ephemeral') return p.ephemeral === true
  if (reason === 'expired') return !p.permanent && p.ttl !== null && p.createdAt + Math.round(p.ttl * 1000) <= wallMs
  return false
}

/** Whether a valid tombstone forgets one of its present targets (`mayForget` at the tombstone's own timestamp). */
export function tombstoneForgets(a: Authority & { readonly policies: PoolPolicies }, t: PoolRecord<TombstoneBody>, target: PoolRecord): boolean {
  return mayForget(a, t.author, rightsAt(a, t).write, t.body.reason, hlcWall(t.hlc), target)
}

/**
 * Whether a record's body has the shape its kind promises, within the API's caps (record-shape.ts
 * `poolBodyProblem`, which also says why not). The signature proves who wrote a record, not that it
 * is sane: a member could sign `{targets: 7}` or a 10 MB memory, and no derivation may take it in.
 * A record that fails this is ignored (and quarantined by the sync layer).
 */
export function isWellFormed(r: PoolRecord): boolean {
  return poolBodyProblem(r) === null
}
