import { SyncState, type PoolSyncStatus, type SyncStatus } from './types.js'

const STATE_RANK: Record<SyncState, number> = { offline: 0, connected: 1, syncing: 2, synced: 3 }

/**
 * `mem.sync.status()`: the pools' statuses, sorted, under the least advanced state of any; a pool is
 * not `synced` while a pass runs (`busy`). No pool open is `offline`.
 */
export function aggregateStatus(pools: readonly PoolSyncStatus[], busy: boolean): SyncStatus {
  const sorted = [...pools].sort((a, b) => (a.pool < b.pool ? -1 : 1))
  const adjusted = sorted.map((p) => (busy && p.state === SyncState.SYNCED ? { ...p, state: SyncState.SYNCING } : p))
  let state: SyncState = adjusted.length ? SyncState.SYNCED : SyncState.OFFLINE
  for (const p of adjusted) if (STATE_RANK[p.state] < STATE_RANK[state]) state = p.state
  return {
    state,
    pending: adjusted.reduce((s, p) => ({ outgoing: s.outgoing + p.pending.outgoing, incoming: s.incoming + p.pending.incoming }), { outgoing: 0, incoming: 0 }),
    pools: adjusted,
  }
}

/**
 * `mem.sync.subscribe()`: each subscriber hears a status when it differs from the last one told to
 * it. Per subscriber, not one "last told" for all: a subscriber that joined while the status was
 * passing through another (a pass ran, `syncing`) was told that one, and must hear the status come
 * back even when the others never heard it leave (issue 31: the sync bench waited forever for a
 * `synced` that every earlier subscriber had already been told).
 */
export class StatusFeed {
  /** Each subscriber, and the status last told to it (as JSON). */
  readonly #subscribers = new Map<(status: SyncStatus) => void, string>()
  readonly #current: () => SyncStatus

  constructor(current: () => SyncStatus) {
    this.#current = current
  }

  /** Adds a subscriber and tells it the status now. */
  add(callback: (status: SyncStatus) => void): () => void {
    const status = this.#current()
    this.#subscribers.set(callback, JSON.stringify(status))
    this.#tell(callback, status)
    return () => void this.#subscribers.delete(callback)
  }

  clear(): void {
    this.#subscribers.clear()
  }

  /** Tells every subscriber the status, if it differs from the last one told to it. */
  notify(): void {
    if (this.#subscribers.size === 0) return
    const status = this.#current()
    const text = JSON.stringify(status)
    for (const [cb, told] of [...this.#subscribers]) {
      if (told === text || !this.#subscribers.has(cb)) continue
      this.#subscribers.set(cb, text)
      this.#tell(cb, status)
    }
  }

  #tell(cb: (status: SyncStatus) => void, status: SyncStatus): void {
    try {
      // Across the worker boundary the callback is a proxy returning a promise; a page that went away rejects it.
      const r = cb(status) as unknown
      if (r instanceof Promise) r.catch(() => this.#subscribers.delete(cb))
    } catch {
      // A subscriber's failure is its own.
    }
  }
}
