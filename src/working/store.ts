import type { Embedder } from '../core/embedder.js'
import { HybridClock, decodeHlc, encodeHlc } from '../core/clock.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import type { PoolGate } from '../records/pool-gate.js'
import { signRecord } from '../core/signed-record.js'
import { WriteBatcher, type BatchOp } from '../storage/batcher.js'
import type { ReadTx, StoragePort, WriteTx } from '../storage/port.js'
import type { LogRow, StoredRecord } from '../storage/schema.js'
import { ConflictDetector, type Analysis } from './conflict/detector.js'
import { TaskHandle } from './handle.js'
import { assertName, resolveConfig } from './input.js'
import { Kind, WORKING_KINDS, isWorkingKind, type ObservationBody } from './records.js'
import { TaskState } from './state.js'
import type { SharedWorkingMemory, WorkingMemory, WorkingMemoryConfig } from './types.js'
import { Writer, type VectorRow, type WriterHost } from './writer.js'

const TABLES = ['records', 'log', 'meta', 'vectors'] as const
/** Fold a task's attention and access records into a checkpoint once it has this many. */
const COMPACT_AT = 256
/** Keep this many log rows (as the fact store does); a handle further behind reloads. */
const LOG_KEEP = 20_000

export interface WorkingStoreOptions {
  readonly identity?: Identity | null
  /** Embeds observation topics for conflict detection. Default `hashEmbedder()`. */
  readonly embedder?: Embedder | null
  /** Wall clock in ms, injected by tests. */
  readonly now?: () => number
  /** Open and close the storage with this store (default true); a Memory's modules share one it opens itself. */
  readonly ownsStorage?: boolean
  /** The pool store's gate for tasks shared through a pool (createMemory passes it). */
  readonly pools?: PoolGate | null
}

/**
 * FR-001 shared working memory on a storage port: `mem.working`.
 *
 * Storage. Everything is an immutable, content-addressed record in the shared `records` table
 * (kinds in records.ts), each write is logged in `log`, and a task's state is derived from its
 * records (state.ts), so another handle on the same database (another tab, another Memory)
 * catches up from the log, and a reload rebuilds the same state. Topic vectors for conflict
 * detection are kept in `vectors`, keyed by observation id.
 *
 * Mutable state. Attention and access are the only things that change (DESIGN.md). They are
 * small immutable records too: a decay, a boost, one context read. That keeps concurrent writers
 * free of lost updates (two tabs decaying and boosting at once both count, in HLC order) and
 * keeps state a pure function of the record set. So that a long task does not accumulate
 * thousands of them, once a task holds 256 such records they are folded into one checkpoint
 * record (attention and access of every live observation) and deleted in the same transaction.
 *
 * Concurrency (FR-001.7). All mutations of one store are batched per tick into one storage
 * transaction; a transaction first catches up with the log, then decides (conflict checks,
 * evictions) against the fresh state, then writes. Storage transactions are serialized by the
 * database, so that transaction is the "global lock" of the spec for every tab at once, and no
 * per-observation lock is needed because no record is ever updated in place. Stamps are issued
 * inside the transaction after catching up, so commit order and HLC order agree.
 */
export class WorkingStore implements WorkingMemory, WriterHost {
  readonly detector: ConflictDetector
  readonly author: string | null
  readonly #identity: Identity | null
  readonly #pools: PoolGate | null
  readonly #storage: StoragePort
  readonly #owns: boolean
  readonly #clock: HybridClock
  readonly #tasks = new Map<string, TaskState>()
  readonly #analyses = new Map<string, Analysis>()
  /** Task -> observations that arrived from other replicas (a shared task), not yet run through the conflict detector here. */
  readonly #arrivals = new Map<string, Set<string>>()
  readonly #batcher: WriteBatcher<Writer>
  readonly #mutations = new Set<Promise<unknown>>()
  #lock: Promise<unknown> = Promise.resolve()
  #seq = 0
  #trimmedAt = 0
  #stale = true
  #opening: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  #closed = false

  constructor(storage: StoragePort, options: WorkingStoreOptions = {}) {
    this.#storage = storage
    this.#owns = options.ownsStorage ?? true
    this.author = options.identity?.did ?? null
    this.#identity = options.identity ?? null
    this.#pools = options.pools ?? null
    this.#clock = new HybridClock(options.now)
    this.detector = new ConflictDetector(options.embedder ? { embedder: options.embedder } : {})
    this.#batcher = new WriteBatcher((ops) => this.#commit(ops))
  }

  async open(taskId: string, config?: WorkingMemoryConfig): Promise<SharedWorkingMemory> {
    const task = assertName('taskId', taskId)
    const cfg = resolveConfig(config)
    await this.#open()
    if (!this.#tasks.has(task)) {
      this.#tasks.set(task, new TaskState(task))
      // A new task is loaded from the records; the next catch-up reloads all open tasks.
      this.#stale = true
    }
    await this.ready()
    return new TaskHandle(this, task, cfg)
  }

  // ---- WriterHost ----

  get vectorId(): string {
    return this.detector.vectorId
  }

  /**
   * A signed observation record for a task shared through `pool`, made outside any transaction
   * (signing awaits crypto), stamped after the grant that allows it.
   */
  async pooledRecord(pool: string, body: ObservationBody): Promise<StoredRecord> {
    if (!this.#pools) throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'shared working memory needs a Memory with pools (createMemory)', { field: 'pool' })
    const grant = await this.#pools.writable(pool)
    if (grant.after) this.#clock.observe(decodeHlc(grant.after))
    return signRecord(this.#identity!, { kind: Kind.OBSERVATION, pool: grant.pool, tenant: grant.tenant, body, author: this.#identity!.did, hlc: this.stamp() })
  }

  stamp(): string {
    return encodeHlc(this.#clock.tick())
  }

  state(task: string): TaskState | undefined {
    return this.#tasks.get(task)
  }

  analysis(id: string): Analysis | undefined {
    return this.#analyses.get(id)
  }

  remember(id: string, text: string, vector: Float32Array): void {
    this.#analyses.set(id, this.detector.withVector(text, vector))
  }

  rememberAnalysis(id: string, analysis: Analysis): void {
    this.#analyses.set(id, analysis)
  }

  // ---- lifecycle, freshness ----

  async #open(): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    if (!this.#owns) return
    this.#opening ??= this.#storage.open()
    await this.#opening
  }

  /** One store-level critical section, so a refresh never interleaves with a commit of this store. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(fn, fn)
    this.#lock = run.catch(() => undefined)
    return run
  }

  /** Opens, waits for the committing batch, catches up with other handles, and analyzes what is new. */
  async ready(): Promise<void> {
    await this.#open()
    await this.#batcher.inflight
    this.#refreshing ??= this.#exclusive(() => this.#storage.read(TABLES, (tx) => this.#refresh(tx))).finally(() => {
      this.#refreshing = undefined
    })
    await this.#refreshing
    await this.#analyzeMissing()
  }

  async #refresh(tx: ReadTx): Promise<void> {
    await this.#catchUp(tx)
    const missing = this.#unanalyzed()
    if (missing.length === 0) return
    const rows = await tx.getMany<VectorRow>('vectors', missing.map(([id]) => id))
    rows.forEach((row, i) => {
      const [id, text] = missing[i]!
      if (row && row.embedder === this.vectorId) this.remember(id, text, row.vec)
    })
  }

  /** Live observations of open tasks without an analysis in memory. */
  #unanalyzed(): Array<[string, string]> {
    const out: Array<[string, string]> = []
    for (const s of this.#tasks.values()) for (const o of s.live()) if (!this.#analyses.has(o.id)) out.push([o.id, o.body.content])
    return out
  }

  /** Vectors another embedder made (or none) are computed here, outside any transaction, and kept in memory. */
  async #analyzeMissing(): Promise<void> {
    const missing = this.#unanalyzed()
    if (missing.length === 0) return
    const analyses = await this.detector.analyze(missing.map(([, text]) => text))
    missing.forEach(([id], i) => this.#analyses.set(id, analyses[i]!))
  }

  async #catchUp(tx: ReadTx): Promise<void> {
    if (this.#stale) return this.#reload(tx)
    const last = await tx.last<LogRow>('log')
    if (!last || last.seq === this.#seq) return
    const floor = (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0
    if (this.#seq < floor) return this.#reload(tx)
    const rows = await tx.after<LogRow>('log', this.#seq)
    const records = await tx.getMany<StoredRecord>('records', rows.filter((r) => r.op === 'put').map((r) => r.ref))
    for (const r of records) if (r) this.#apply(r, true)
    for (const row of rows) {
      if (row.op !== 'del') continue
      for (const s of this.#tasks.values()) s.forget(row.ref)
      this.#analyses.delete(row.ref)
    }
    this.#seq = rows.at(-1)?.seq ?? this.#seq
  }

  async #reload(tx: ReadTx): Promise<void> {
    for (const s of this.#tasks.values()) s.clear()
    // Only this module's kinds; there is no index on the task, so every open task is loaded in one pass.
    for (const kind of WORKING_KINDS) for (const r of await tx.where<StoredRecord>('records', 'kind', kind)) this.#apply(r)
    this.#seq = (await tx.last<LogRow>('log'))?.seq ?? 0
    this.#stale = false
  }

  #apply(r: StoredRecord, caughtUp = false): void {
    if (!isWorkingKind(r.kind)) return
    const state = this.#tasks.get((r.body as { task?: string }).task ?? '')
    if (!state) return
    this.#clock.observe(decodeHlc(r.hlc))
    state.apply(r)
    // Another replica's observation of a shared task: its detector compared it with what that replica
    // held, not with what this one holds; the handles here compare it again (TaskHandle).
    if (caughtUp && r.kind === Kind.OBSERVATION && r.pool !== undefined && r.author !== this.author) {
      let set = this.#arrivals.get(state.task)
      if (!set) this.#arrivals.set(state.task, (set = new Set()))
      set.add(r.id)
    }
  }

  /** Observations of `task` that arrived from other replicas since the last call. */
  takeArrivals(task: string): string[] {
    const set = this.#arrivals.get(task)
    if (!set) return []
    this.#arrivals.delete(task)
    return [...set]
  }

  // ---- writes ----

  /** Runs `run` in the next batch's transaction, after it caught up. Tracked so flush() and close() wait for it. */
  mutate<R>(run: (w: Writer) => Promise<R> | R): Promise<R> {
    return this.#track(
      (async () => {
        await this.#open()
        return this.#batcher.enqueue(async (w) => run(w))
      })(),
    )
  }

  #track<T>(p: Promise<T>): Promise<T> {
    this.#mutations.add(p)
    const done = (): void => {
      this.#mutations.delete(p)
    }
    p.then(done, done)
    return p
  }

  async #commit(ops: ReadonlyArray<BatchOp<Writer, unknown>>): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    let results: unknown[]
    try {
      results = await this.#exclusive(() =>
        this.#storage.write(TABLES, async (tx) => {
          await this.#catchUp(tx)
          const w = new Writer(tx, this)
          const out: unknown[] = []
          for (const op of ops) out.push(await op.run(w))
          for (const task of w.touched) if (this.#tasks.get(task)!.ops.length >= COMPACT_AT) w.compact(task)
          const keys = await w.finish()
          if (keys.length) this.#seq = Math.max(this.#seq, ...keys)
          await this.#trimLog(tx)
          return out
        }),
      )
    } catch (err) {
      // State was updated optimistically inside the failed transaction: rebuild it from storage.
      this.#stale = true
      throw err
    }
    ops.forEach((op, i) => op.resolve(results[i]))
  }

  async #trimLog(tx: WriteTx): Promise<void> {
    if (this.#seq <= LOG_KEEP + 1000 || this.#seq - this.#trimmedAt < 500) return
    this.#trimmedAt = this.#seq
    const floor = (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0
    if (this.#seq - floor <= LOG_KEEP + 1000) return
    const old = await tx.after<LogRow>('log', floor, 5000)
    const keys = old.filter((r) => r.seq! <= this.#seq - LOG_KEEP).map((r) => r.seq!)
    if (keys.length === 0) return
    await tx.delete('log', keys)
    await tx.put('meta', [{ key: 'logFloor', value: keys.at(-1)! }])
  }

  /** Resolves once every mutation called before it has committed (or failed). */
  async flush(): Promise<void> {
    while (this.#mutations.size) await Promise.allSettled([...this.#mutations])
    await this.#batcher.flush()
  }

  /** Idempotent; pending writes are committed first, then (for a standalone store) storage closes. */
  async close(): Promise<void> {
    if (this.#closed) return
    try {
      await this.flush()
    } finally {
      this.#closed = true
      if (this.#owns && this.#opening) await this.#storage.close()
    }
  }
}
