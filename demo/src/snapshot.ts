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
}

export interface Snapshot {
  readonly at: number
  readonly pools: readonly PoolView[]
  readonly factConflicts: readonly FactConflict[]
  readonly sync: SyncStatus
}

/** Reads every pool this replica knows, plus `waiting` ones (joined, records not arrived) by id and name. */
export async function readSnapshot(mem: RemoteMemory, waiting: ReadonlyMap<string, string | null>): Promise<Snapshot> {
  const [infos, sync, factConflicts] = await Promise.all([mem.pools.list(), mem.sync.status(), mem.facts.conflicts()])
  const known = new Set<string>(infos.map((p) => p.id))
  const pools = await Promise.all(infos.map((info) => readPool(mem, info, sync)))
  const pending = new Map(waiting)
  for (const p of sync.pools) if (!pending.has(p.pool)) pending.set(p.pool, null)
  for (const [id, name] of pending) {
    if (known.has(id)) continue
    pools.push({ id, info: null, name, memories: [], conflicts: [], forgotten: [], sync: sync.pools.find((p) => p.pool === id) ?? null, error: null })
  }
  return { at: Date.now(), pools, factConflicts, sync }
}

async function readPool(mem: RemoteMemory, info: PoolInfo, sync: SyncStatus): Promise<PoolView> {
  const status = sync.pools.find((p) => p.pool === info.id) ?? null
  try {
    const [exported, conflicts, forgotten] = await Promise.all([mem.pools.export(info.id), mem.pools.conflicts(info.id), mem.pools.forgotten(info.id)])
    // status() is not a read either; it tells a superseded (archived) memory from a current one, which export does not.
    const lifecycles = await Promise.all(exported.memories.map((m) => mem.pools.status(unprefix(m.memory_id))))
    const memories = exported.memories.map((m, i) => row(m, lifecycles[i] ?? 'forgotten')).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
    return { id: info.id, info, name: info.name, memories, conflicts, forgotten, sync: status, error: null }
  } catch (err) {
    return { id: info.id, info, name: info.name, memories: [], conflicts: [], forgotten: [], sync: status, error: (err as Error).message }
  }
}

const unprefix = (id: string): string => id.replace(/^0x/, '')

function row(m: ExportedMemory, lifecycle: string): MemoryRow {
  return {
    id: unprefix(m.memory_id), type: m.type, subject: m.content.subject, predicate: m.content.predicate, object: String(m.content.object),
    author: m.metadata.creating_agent, at: Date.parse(m.metadata.timestamp), supersedes: m.metadata.supersedes.map(unprefix), lifecycle,
  }
}
