import type { MemoryRow, PoolView, Snapshot } from './snapshot.js'

/**
 * The timeline: what changed between two snapshots, as lines a person can follow. Pure, so what
 * "arrived" means is decided in one place: a memory, member, pool or conflict present now and not
 * before, whoever made it; `mine` tells this agent's own doing from what came through the relay.
 */

export type TimelineKind = 'pool' | 'member' | 'memory' | 'forget' | 'conflict' | 'sync'

export interface TimelineEvent {
  readonly at: number
  readonly kind: TimelineKind
  readonly text: string
  /** Made by this agent (or nothing to attribute); false: it came from another agent. */
  readonly mine: boolean
}

const label = (p: PoolView): string => `"${p.name ?? p.id.slice(0, 8)}"`
const triple = (m: MemoryRow): string => `${m.subject} · ${m.predicate} · ${m.object}`

export function changes(prev: Snapshot | null, next: Snapshot, me: string): TimelineEvent[] {
  const at = next.at
  const out: TimelineEvent[] = []
  const add = (kind: TimelineKind, text: string, mine = true): void => void out.push({ at, kind, text, mine })
  if (prev === null) {
    const memories = next.pools.reduce((n, p) => n + p.memories.length, 0)
    add('pool', `opened: ${next.pools.length} pool(s), ${memories} memories`)
    return out
  }
  // Link changes only: every write blips synced → syncing → synced, which would drown the rest.
  const [was, is] = [prev.sync.state, next.sync.state]
  if (was !== is && (is === 'offline' || was === 'offline' || was === 'connected')) add('sync', `sync ${was} → ${is}`)
  const before = new Map(prev.pools.map((p) => [p.id, p]))
  for (const pool of next.pools) {
    const old = before.get(pool.id)
    const info = pool.info
    if (info && !old?.info) add('pool', info.owner === me ? `pool ${label(pool)} created` : `pool ${label(pool)} arrived from the relay`, info.owner === me)
    if (!old && !info) add('pool', `joining pool ${label(pool)}: waiting for its records`)
    const error = pool.sync?.error ?? null
    if (error && error !== (old?.sync?.error ?? null)) add('sync', `${label(pool)}: ${error}`)
    if (!info || !old?.info) continue
    const members = new Map(old.info.members.map((m) => [m.did, m]))
    for (const m of info.members) {
      const was = members.get(m.did)
      if (!was || was.write !== m.write) add('member', `${label(pool)}: ${m.did === me ? 'you' : m.did} can ${m.write ? 'read and write' : 'read'}`, info.owner === me)
    }
    for (const did of members.keys()) if (!info.members.some((m) => m.did === did)) add('member', `${label(pool)}: ${did} removed`, info.owner === me)
    const memories = new Set(old.memories.map((m) => m.id))
    for (const m of pool.memories) {
      if (memories.has(m.id)) continue
      const mine = m.author === me
      add('memory', `${label(pool)}: ${triple(m)} ${mine ? 'written here' : `arrived from ${m.author}`}`, mine)
    }
    const now = new Set(pool.memories.map((m) => m.id))
    // Who forgot it, from the tombstone (only the author, the owner, or a condition every replica checks: docs/pools.md).
    const by = new Map(pool.forgotten.map((f) => [f.memory as string, f]))
    for (const m of old.memories) {
      if (now.has(m.id)) continue
      const f = by.get(m.id)
      const who = f ? ` by ${f.by === me ? 'you' : f.by}${f.reason === 'forget' ? '' : ` (${f.reason})`}` : ''
      add('forget', `${label(pool)}: ${triple(m)} forgotten${who}`, f ? f.by === me : true)
    }
    const conflicts = new Set(old.conflicts.map((c) => c.id))
    for (const c of pool.conflicts) if (!conflicts.has(c.id)) add('conflict', `${label(pool)}: conflict flagged on ${c.subject} · ${c.predicate}`)
    for (const c of old.conflicts) if (!pool.conflicts.some((x) => x.id === c.id)) add('conflict', `${label(pool)}: conflict on ${c.subject} · ${c.predicate} settled`)
  }
  return out
}
