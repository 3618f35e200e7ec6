import type { PoolConflict } from '../../src/index.js'
import type { MemoryRow, PoolView, Snapshot } from './snapshot.js'

/**
 * The timeline: what changed between two snapshots, as lines a person can follow. Pure, so what
 * "arrived" means is decided in one place: a memory, member, pool or conflict present now and not
 * before, whoever made it; `mine` tells this agent's own doing from what came through the relay.
 *
 * Who forgot a memory or settled a conflict is not in what the page reads (a tombstone's or a
 * resolution's signer is not exported): `here` holds the ids this page acted on ("you"); otherwise
 * it is the pool's one other writer when there is exactly one, else "another member".
 */

export type TimelineKind = 'pool' | 'member' | 'memory' | 'forget' | 'conflict' | 'sync'

export interface TimelineEvent {
  readonly at: number
  readonly kind: TimelineKind
  readonly text: string
  /** Made by this agent (or nothing to attribute); false: it came from another agent. */
  readonly mine: boolean
}

export interface TimelineContext {
  /** What the page calls an agent (a label, "you", a short DID). Default: the DID, "you" for `me`. */
  readonly name?: (did: string) => string
  /** Ids of memories forgotten and conflicts settled from this page. */
  readonly here?: ReadonlySet<string>
}

const label = (p: PoolView): string => `"${p.name ?? p.id.slice(0, 8)}"`
const triple = (m: MemoryRow): string => `${m.subject} · ${m.predicate} · ${m.object}`
const SYNC: Record<string, string> = { offline: 'offline', connected: 'connecting', syncing: 'syncing', synced: 'up to date' }

export function changes(prev: Snapshot | null, next: Snapshot, me: string, ctx: TimelineContext = {}): TimelineEvent[] {
  const at = next.at
  const name = ctx.name ?? ((did: string) => (did === me ? 'you' : did))
  const here = ctx.here ?? new Set<string>()
  const out: TimelineEvent[] = []
  const add = (kind: TimelineKind, text: string, mine = true): void => void out.push({ at, kind, text, mine })
  if (prev === null) {
    const memories = next.pools.reduce((n, p) => n + p.memories.filter((m) => m.lifecycle !== 'archived').length, 0)
    add('pool', next.pools.length === 0 ? 'opened: no pools yet' : `opened: ${plural(next.pools.length, 'pool')}, ${plural(memories, 'memory', 'memories')}`)
    return out
  }
  // Link changes only: every write blips synced → syncing → synced, which would drown the rest.
  const [was, is] = [prev.sync.state, next.sync.state]
  if (was !== is && (is === 'offline' || was === 'offline' || was === 'connected')) add('sync', `sync: ${SYNC[was] ?? was} → ${SYNC[is] ?? is}`)
  const before = new Map(prev.pools.map((p) => [p.id, p]))
  for (const pool of next.pools) {
    const old = before.get(pool.id)
    const info = pool.info
    if (info && !old?.info) add('pool', info.owner === me ? `pool ${label(pool)} created` : `pool ${label(pool)} arrived from the relay`, info.owner === me)
    if (!old && !info) add('pool', `joining pool ${label(pool)}: waiting for its records`)
    const error = pool.sync?.error ?? null
    if (error && error !== (old?.sync?.error ?? null)) add('sync', `${label(pool)}: ${error}`)
    if (!info && old?.info) add('member', `${label(pool)}: this agent can no longer read it`, false)
    if (!info || !old?.info) continue
    const owner = name(info.owner)
    const members = new Map(old.info.members.map((m) => [m.did, m]))
    for (const m of info.members) {
      const was = members.get(m.did)
      if (!was || was.write !== m.write) add('member', `${label(pool)}: ${name(m.did)} can ${m.write ? 'read and write' : 'read'}`, info.owner === me)
    }
    for (const did of members.keys()) if (!info.members.some((m) => m.did === did)) add('member', `${label(pool)}: ${name(did)} removed by ${owner}`, info.owner === me)
    const memories = new Set(old.memories.map((m) => m.id))
    for (const m of pool.memories) {
      if (memories.has(m.id) || m.supersedes.length > 0) continue // a merge is told with its conflict (or as an update)
      const mine = m.author === me
      add('memory', `${label(pool)}: ${triple(m)}, ${mine ? 'written by you' : `from ${name(m.author)}`}`, mine)
    }
    const now = new Set(pool.memories.map((m) => m.id))
    // Who forgot it: the tombstone's signer when it is known here (only the author, the owner, or a
    // condition every replica checks may forget: docs/pools.md), else what this page saw.
    const by = new Map((pool.forgotten ?? []).map((f) => [f.memory as string, f]))
    for (const m of old.memories) {
      if (now.has(m.id)) continue
      const f = by.get(m.id)
      const who = f ? name(f.by) : actor(m.id, pool, me, here, name)
      const why = f && f.reason !== 'forget' ? ` (${f.reason})` : ''
      add('forget', `${label(pool)}: ${who} forgot ${triple(m)}${why}`, who === 'you')
    }
    const conflicts = new Set(old.conflicts.map((c) => c.id))
    for (const c of pool.conflicts) if (!conflicts.has(c.id)) add('conflict', `${label(pool)}: conflict flagged on ${c.subject} · ${c.predicate}`)
    for (const c of old.conflicts) {
      if (pool.conflicts.some((x) => x.id === c.id)) continue
      const text = settled(c, old, pool, me, here, name)
      if (text) add('conflict', `${label(pool)}: ${text.text}`, text.mine)
    }
  }
  return out
}

/** How a conflict that left the list was settled: which value won, who chose. Null when its memories were forgotten. */
function settled(c: PoolConflict, old: PoolView, pool: PoolView, me: string, here: ReadonlySet<string>, name: (did: string) => string): { text: string; mine: boolean } | null {
  const topic = `${c.subject} · ${c.predicate}`
  const merge = pool.memories.find((m) => c.memories.every((id) => m.supersedes.includes(id)))
  if (merge) return { text: `${name(merge.author)} merged the conflict on ${topic}: "${merge.object}" kept`, mine: merge.author === me }
  const [x, y] = c.memories.map((id) => pool.memories.find((m) => m.id === id))
  if (!x || !y) return null
  const winner = x.lifecycle === 'archived' ? y : x
  const loser = winner === x ? y : x
  const who = actor(c.id, old, me, here, name)
  return { text: `conflict on ${topic} settled by ${who}: "${winner.object}" kept over "${loser.object}"`, mine: who === 'you' }
}

/** Who did something the page cannot attribute from the records it reads (see the module comment). */
function actor(id: string, pool: PoolView, me: string, here: ReadonlySet<string>, name: (did: string) => string): string {
  if (here.has(id)) return 'you'
  const others = (pool.info?.members ?? []).filter((m) => m.write && m.did !== me)
  return others.length === 1 ? name(others[0]!.did) : 'another member'
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}
