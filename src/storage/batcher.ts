/**
 * Collects the mutations issued during one tick and commits them in one storage transaction
 * (DESIGN.md "Runtime": one IndexedDB transaction per tick). A caller's promise settles only after
 * its transaction committed, so a resolved write is durable.
 */
export interface BatchOp<Ctx, R> {
  run(ctx: Ctx): Promise<R>
  resolve(value: R): void
  reject(reason: unknown): void
}

/**
 * The end of the current task: setImmediate in Node; in browsers a MessageChannel message, which
 * runs as soon as the task ends, where setTimeout(0) waits 1-4 ms (HTML clamps nested timers).
 */
let deferImpl: ((fn: () => void) => void) | undefined

export function defer(fn: () => void): void {
  // Chosen on first use, not at import time (STYLE.md rule 3).
  deferImpl ??= pickDefer()
  deferImpl(fn)
}

function pickDefer(): (fn: () => void) => void {
  if (typeof setImmediate === 'function') return (fn) => void setImmediate(fn)
  if (typeof MessageChannel === 'function') {
    const queue: Array<() => void> = []
    const channel = new MessageChannel()
    channel.port1.onmessage = () => queue.shift()?.()
    return (fn) => {
      queue.push(fn)
      channel.port2.postMessage(0)
    }
  }
  return (fn) => void setTimeout(fn, 0)
}

export class WriteBatcher<Ctx> {
  readonly #commit: (ops: ReadonlyArray<BatchOp<Ctx, unknown>>) => Promise<void>
  readonly #maxOps: number
  #queue: Array<BatchOp<Ctx, unknown>> = []
  #scheduled = false
  #inflight: Promise<void> = Promise.resolve()
  /** When the queued ops of a tick are committed: at the end of the current task by default. */
  schedule: (drain: () => void) => void = defer

  /** `commit` runs every op in one transaction and throws if the transaction failed. */
  constructor(commit: (ops: ReadonlyArray<BatchOp<Ctx, unknown>>) => Promise<void>, maxOps = 2000) {
    this.#commit = commit
    this.#maxOps = maxOps
  }

  enqueue<R>(run: (ctx: Ctx) => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ run, resolve, reject } as BatchOp<Ctx, unknown>)
      if (!this.#scheduled) {
        this.#scheduled = true
        this.schedule(() => this.#drain())
      }
    })
  }

  #drain(): void {
    this.#scheduled = false
    // Chain on the previous batch: batches commit in order, one at a time.
    this.#inflight = this.#inflight.then(async () => {
      while (this.#queue.length > 0) {
        const ops = this.#queue.splice(0, this.#maxOps)
        try {
          await this.#commit(ops)
        } catch (err) {
          for (const op of ops) op.reject(err)
        }
      }
    })
  }

  /** Resolves once every mutation issued before the call has committed (or failed). */
  async flush(): Promise<void> {
    while (this.#scheduled || this.#queue.length > 0) {
      await new Promise<void>((r) => defer(r))
    }
    await this.#inflight
  }

  /** Ops queued for the next batch. */
  get queued(): number {
    return this.#queue.length
  }

  /** The batch being committed right now, for read barriers. */
  get inflight(): Promise<void> {
    return this.#inflight
  }
}
