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

/** `mem.sync.subscribe()`: each subscriber hears a status when it differs from the last one told. */
export class StatusFeed {
  readonly #subscribers = new Set<(status: SyncStatus) => void>()
  readonly #current: () => SyncStatus
  #lastStatus = ''

  constructor(current: () => SyncStatus) {
    this.#current = current
  }

  /** Adds a subscriber and tells it the status now. */
  add(callback: (status: SyncStatus) => void): () => void {
    this.#subscribers.add(callback)
    callback(this.#current())
    return () => void this.#subscribers.delete(callback)
  }

  clear(): void {
    this.#subscribers.clear()
  }

  /** Tells every subscriber the status, if it changed. */
  notify(): void {
    if (this.#subscribers.size === 0) return
    const status = this.#current()
    const text = JSON.stringify(status)
    if (text === this.#lastStatus) return
    this.#lastStatus = text
    for (const cb of [...this.#subscribers]) {
      try {
        // Across the worker boundary the callback is a proxy returning a promise; a page that went away rejects it.
        const r = cb(status) as unknown
        if (r instanceof Promise) r.catch(() => this.#subscribers.delete(cb))
      } catch {
        // A subscriber's failure is its own.
      }
    }
  }
}
