import type {
  ExportedMemory, FactConflict, ForgottenMemory, PoolConflict, PoolInfo, PoolSyncStatus, RemoteMemory, SyncStatus,
} from '../../src/index.js'

/**
 * What the page shows, read from the memory in one go. Only calls that are not reads in LCS-004's
 * sense (info, export, conflicts, status): `query` and `get` would write a `pool-access` record on
 * every refresh and fill the pool with the demo's own polling.
 */

/** One memory as the page shows it. */
export interface MemoryRow {
  /** The pool API's id (export writes it as `0x…`, LCS-004's bytes32 style). */
  readonly id: string
  readonly type: string
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly author: string
  /** Epoch ms. */
  readonly at: number
  readonly supersedes: readonly string[]
  /** LCS-004 §10: created, active, stale, archived (superseded memories are archived). */
  readonly lifecycle: string
}

export interface PoolView {
  readonly id: string
  /** Null while a joined pool's records have not arrived yet. */
  readonly info: PoolInfo | null
  readonly name: string | null
  readonly memories: readonly MemoryRow[]
  readonly conflicts: readonly PoolConflict[]
  /** Who forgot what (tombstones), for the timeline. */
  readonly forgotten: readonly ForgottenMemory[]
  readonly sync: PoolSyncStatus | null
  /** Why the pool could not be read (e.g. access revoked). */
  readonly error: string | null
  /** This agent may not read the pool (never shared with it, or revoked). */
  readonly denied: boolean
  /** When this page joined it with a code (epoch ms), or null. */
  readonly joinedAt: number | null
}

/** A pool joined with a code: its name before its records arrive, and when it was joined. */
export interface Joined {
  readonly name: string | null
  readonly joinedAt: number | null
}

export interface Snapshot {
  readonly at: number
  readonly pools: readonly PoolView[]
  readonly factConflicts: readonly FactConflict[]
  readonly sync: SyncStatus
}

/**
 * Reads every pool this replica knows, plus `joined` ones whose records have not arrived, leaving
 * out `hidden` ones (pools this page left).
 */
export async function readSnapshot(mem: RemoteMemory, joined: ReadonlyMap<string, Joined>, hidden: ReadonlySet<string> = new Set()): Promise<Snapshot> {
  const [all, sync, factConflicts] = await Promise.all([mem.pools.list(), mem.sync.status(), mem.facts.conflicts()])
  const infos = all.filter((p) => !hidden.has(p.id))
  const known = new Set<string>(infos.map((p) => p.id))
  const pools = await Promise.all(infos.map((info) => readPool(mem, info, sync, joined.get(info.id)?.joinedAt ?? null)))
  const pending = new Map(joined)
  for (const p of sync.pools) if (!pending.has(p.pool)) pending.set(p.pool, { name: null, joinedAt: null })
  for (const [id, j] of pending) {
    if (known.has(id) || hidden.has(id)) continue
    pools.push({ id, info: null, name: j.name, memories: [], conflicts: [], forgotten: [], sync: sync.pools.find((p) => p.pool === id) ?? null, error: null, denied: false, joinedAt: j.joinedAt })
  }
  return { at: Date.now(), pools, factConflicts, sync: { ...sync, pools: sync.pools.filter((p) => !hidden.has(p.pool)) } }
}

async function readPool(mem: RemoteMemory, info: PoolInfo, sync: SyncStatus, joinedAt: number | null): Promise<PoolView> {
  const status = sync.pools.find((p) => p.pool === info.id) ?? null
  const base = { id: info.id, info, name: info.name, sync: status, joinedAt }
  if (!info.access.read) return { ...base, memories: [], conflicts: [], forgotten: [], error: null, denied: true }
  try {
    const [exported, conflicts, forgotten] = await Promise.all([mem.pools.export(info.id), mem.pools.conflicts(info.id), mem.pools.forgotten(info.id)])
    // status() is not a read either; it tells a superseded (archived) memory from a current one, which export does not.
    const lifecycles = await Promise.all(exported.memories.map((m) => mem.pools.status(unprefix(m.memory_id))))
    const memories = exported.memories.map((m, i) => row(m, lifecycles[i] ?? 'forgotten')).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
    return { ...base, memories, conflicts, forgotten, error: null, denied: false }
  } catch (err) {
    const code = (err as { code?: unknown }).code
    return { ...base, memories: [], conflicts: [], forgotten: [], error: (err as Error).message, denied: code === 'PERMISSION_DENIED' }
  }
}

const unprefix = (id: string): string => id.replace(/^0x/, '')

function row(m: ExportedMemory, lifecycle: string): MemoryRow {
  return {
    id: unprefix(m.memory_id), type: m.type, subject: m.content.subject, predicate: m.content.predicate, object: String(m.content.object),
    author: m.metadata.creating_agent, at: Date.parse(m.metadata.timestamp), supersedes: m.metadata.supersedes.map(unprefix), lifecycle,
  }
}
