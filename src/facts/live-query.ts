import { defer } from '../storage/batcher.js'
import type { FactMemory, RetrieveOptions } from './types.js'

/** Called with the full new result of a live query. */
export type LiveQueryCallback = (memories: FactMemory[]) => void

interface Subscription {
  /** Computes the result (a retrieve, a conflicts listing). */
  readonly run: () => Promise<unknown>
  /** What a caller can observe of a result: two equal signatures, no callback. */
  readonly sign: (result: never) => string
  readonly callback: (result: never) => void
  last: string | undefined
}


/** What a caller can observe of a result: which memories, in which order, linked and flagged how. */
function signature(memories: readonly FactMemory[]): string {
  return JSON.stringify(memories.map((m) => [m.ref, m.supersededBy, m.validUntil, m.conflictsWith]))
}

/**
 * Live queries of a fact store: each subscription re-runs its retrieve() (or its conflicts()
 * listing) after any change that may affect it (a local commit, or another handle's commit heard
 * through the storage watch), at most once per tick, and calls back only when the result really changed.
 */
export class LiveQueries {
  readonly #subs = new Set<Subscription>()
  readonly #run: (query: string, options: RetrieveOptions) => Promise<FactMemory[]>
  #scheduled = false
  #running: Promise<void> = Promise.resolve()

  constructor(run: (query: string, options: RetrieveOptions) => Promise<FactMemory[]>) {
    this.#run = run
  }

  get size(): number {
    return this.#subs.size
  }

  /** Registers a query; its first result is delivered right away. Returns the unsubscribe function. */
  add(query: string, options: RetrieveOptions, callback: LiveQueryCallback): Promise<() => void> {
    return this.watch(() => this.#run(query, options), signature, callback)
  }

  /**
   * Registers any read of the store: `run` is re-run after each change, and `callback` gets its
   * result when `sign` of it differs from the last one delivered. The first result is delivered
   * right away. Returns the unsubscribe function.
   */
  async watch<T>(run: () => Promise<T>, sign: (result: T) => string, callback: (result: T) => void): Promise<() => void> {
    const sub: Subscription = { run, sign: sign as (r: never) => string, callback: callback as (r: never) => void, last: undefined }
    // The first run validates the query: a bad one throws here, before anything is registered.
    const first = await run()
    sub.last = sign(first)
    this.#subs.add(sub)
    callback(first)
    return () => void this.#subs.delete(sub)
  }

  /** Re-evaluates every subscription soon (coalesced per tick). */
  schedule(): void {
    if (this.#scheduled || this.#subs.size === 0) return
    this.#scheduled = true
    defer(() => {
      this.#scheduled = false
      this.#running = this.#running.then(() => this.#evaluate())
    })
  }

  async #evaluate(): Promise<void> {
    for (const sub of [...this.#subs]) {
      if (!this.#subs.has(sub)) continue
      let result: never
      try {
        result = (await sub.run()) as never
      } catch {
        continue // closed or failing storage: the next change retries
      }
      const sig = sub.sign(result)
      if (sig === sub.last || !this.#subs.has(sub)) continue
      sub.last = sig
      try {
        sub.callback(result)
      } catch (err) {
        // A throwing subscriber must not stop the others; surface it without swallowing.
        queueMicrotask(() => {
          throw err
        })
      }
    }
  }

  clear(): void {
    this.#subs.clear()
  }
}
