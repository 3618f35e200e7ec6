/**
 * Collects the mutations issued during one tick and commits them in one storage transaction
 * (DESIGN.md "Runtime": one IndexedDB transaction per tick). A caller's promise settles only after
 * its transaction committed, so a resolved write is durable.
 */
export interface BatchOp<Ctx, R> {
  run(ctx: Ctx): Promise<R>
  resolve(value: R): void
  reject(reason: unknown): void
  /** How many writes the op stands for (default 1): a batch takes ops until they add up to its maximum. */
  readonly weight?: number
}

/**
 * A kind of write that runs many at a time (`WriteBatcher.enqueueItem`): `runAll` gets the items
 * in the order they were queued and gives one result per item, in that order.
 */
export interface Joinable<Ctx, I> {
  runAll(ctx: Ctx, items: readonly I[]): Promise<readonly unknown[]>
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

  /**
   * Queues one item of a write that runs many at a time. An item queued right after another of
   * the same `join`, with nothing queued between them, joins that item's op (up to the batch's
   * maximum), so a tick's burst of such writes runs as one call rather than one per write: what
   * each write paid per op (its run, its delivery to the derived state) is paid once (issue 31,
   * fifth round). The op runs where its first item was queued; the items that joined it were
   * queued after every op before it and before every op after it, so the batch's order is kept.
   * Resolves with the item's own result, once the batch committed.
   */
  enqueueItem<I, R>(join: Joinable<Ctx, I>, item: I): Promise<R> {
    const last = this.#queue[this.#queue.length - 1]
    const op = last instanceof JoinedOp && last.join === join && last.items.length < this.#maxOps ? (last as JoinedOp<Ctx, I>) : null
    if (op) return op.add(item) as Promise<R>
    const joined = new JoinedOp<Ctx, I>(join)
    const result = joined.add(item) as Promise<R>
    this.#queue.push(joined as BatchOp<Ctx, unknown>)
    if (!this.#scheduled) {
      this.#scheduled = true
      this.schedule(() => this.#drain())
    }
    return result
  }

  /** The next batch's ops: in queue order, until their writes add up to the maximum (one op at least). */
  #take(): Array<BatchOp<Ctx, unknown>> {
    let n = 0
    let weight = 0
    for (const op of this.#queue) {
      weight += op.weight ?? 1
      if (n > 0 && weight > this.#maxOps) break
      n++
    }
    return this.#queue.splice(0, n)
  }

  #drain(): void {
    this.#scheduled = false
    // Chain on the previous batch: batches commit in order, one at a time.
    this.#inflight = this.#inflight.then(async () => {
      while (this.#queue.length > 0) {
        const ops = this.#take()
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

  /** Writes queued for the next batch (an op of joined items counts each). */
  get queued(): number {
    let n = 0
    for (const op of this.#queue) n += op.weight ?? 1
    return n
  }

  /** The batch being committed right now, for read barriers. */
  get inflight(): Promise<void> {
    return this.#inflight
  }
}

/** The op a run of joined items shares (`enqueueItem`): one run for all, each item settled with its own result. */
class JoinedOp<Ctx, I> implements BatchOp<Ctx, readonly unknown[]> {
  readonly items: I[] = []
  readonly #resolves: Array<(value: unknown) => void> = []
  readonly #rejects: Array<(reason: unknown) => void> = []

  constructor(readonly join: Joinable<Ctx, I>) {}

  get weight(): number {
    return this.items.length
  }

  add(item: I): Promise<unknown> {
    this.items.push(item)
    return new Promise((resolve, reject) => {
      this.#resolves.push(resolve)
      this.#rejects.push(reject)
    })
  }

  run(ctx: Ctx): Promise<readonly unknown[]> {
    return this.join.runAll(ctx, this.items)
  }

  resolve(results: readonly unknown[]): void {
    for (let i = 0; i < this.#resolves.length; i++) this.#resolves[i]!(results[i])
  }

  reject(reason: unknown): void {
    for (const reject of this.#rejects) reject(reason)
  }
}
