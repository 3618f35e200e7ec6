import { invalidArgument } from '../core/errors.js'
import type { LogChange } from '../records/types.js'
import type { RecordLog } from '../records/log.js'
import { defer } from '../storage/batcher.js'
import { POOL_KINDS } from './records.js'
import type { PoolSnapshot } from './types.js'

interface Watch {
  readonly read: () => Promise<PoolSnapshot>
  readonly callback: (snapshot: PoolSnapshot) => void
  last: string
}

const POOL_KIND_SET: ReadonlySet<string> = new Set(POOL_KINDS)

/**
 * Live views of pools (`mem.pools.subscribe`): after each commit or catch-up that holds pool
 * records (a write, a share, a read record, a sync), every view is read again, at most once per
 * tick, and called back when what it shows changed. Changes of other modules' records (facts,
 * artifacts) do not wake them.
 */
export class LivePoolViews {
  readonly #log: RecordLog
  readonly #watches = new Set<Watch>()
  #unlisten: (() => void) | null = null
  #unfollow: (() => void) | null = null
  #scheduled = false
  #running: Promise<void> = Promise.resolve()

  constructor(log: RecordLog) {
    this.#log = log
  }

  /** Reads the view now (a bad pool id or a pool it may not read throws here, nothing registered) and delivers it. */
  async add(read: () => Promise<PoolSnapshot>, callback: (snapshot: PoolSnapshot) => void): Promise<() => void> {
    if (typeof callback !== 'function') throw invalidArgument('callback', 'must be a function')
    const first = await read()
    const watch: Watch = { read, callback, last: JSON.stringify(first) }
    this.#watches.add(watch)
    this.#unlisten ??= this.#log.onAppend((change) => this.#changed(change))
    // Other handles' commits (another tab) reach this log's listeners through its catch-up.
    this.#unfollow ??= this.#log.follow()
    callback(first)
    return () => {
      this.#watches.delete(watch)
      if (this.#watches.size > 0) return
      this.#unlisten?.()
      this.#unfollow?.()
      this.#unlisten = this.#unfollow = null
    }
  }

  #changed(change: LogChange): void {
    if (this.#scheduled || this.#watches.size === 0) return
    if (!change.reload && change.removed.length === 0 && !change.records.some((r) => POOL_KIND_SET.has(r.kind))) return
    this.#scheduled = true
    defer(() => {
      this.#scheduled = false
      this.#running = this.#running.then(() => this.#evaluate())
    })
  }

  async #evaluate(): Promise<void> {
    for (const watch of [...this.#watches]) {
      if (!this.#watches.has(watch)) continue
      let snapshot: PoolSnapshot
      try {
        snapshot = await watch.read()
      } catch {
        continue // a closed store, or access lost meanwhile: the next change reads again
      }
      const sig = JSON.stringify(snapshot)
      if (sig === watch.last || !this.#watches.has(watch)) continue
      watch.last = sig
      try {
        watch.callback(snapshot)
      } catch (err) {
        // A throwing subscriber must not stop the others; surface it without swallowing.
        queueMicrotask(() => {
          throw err
        })
      }
    }
  }

  clear(): void {
    this.#watches.clear()
    this.#unlisten?.()
    this.#unfollow?.()
    this.#unlisten = this.#unfollow = null
  }
}
