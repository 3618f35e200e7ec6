import type { Embedder } from '../core/embedder.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { LogAttachment } from '../records/attach.js'
import { logFor, type RecordLog } from '../records/log.js'
import type { Delivery, Deriver } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import type { StoredRecord } from '../storage/schema.js'
import { ConflictDetector, type Analysis, type ConflictVerdict } from './conflict/detector.js'
import type { JudgeStage } from '../conflict-judge/stage.js'
import { TaskHandle, type TaskHost, type WorkingCandidate } from './handle.js'
import { assertName, resolveConfig } from './input.js'
import { Kind, WORKING_KINDS, pairKey, type ObservationBody } from './records.js'
import { TaskState } from './state.js'
import type { SharedWorkingMemory, WorkingMemory, WorkingMemoryConfig } from './types.js'
import { Writer, type VectorRow, type WriterHost } from './writer.js'

/** Sub-threshold pairs kept per task for the judge, at most (`candidate`). */
const MAX_CANDIDATES = 1000

export interface WorkingStoreOptions {
  readonly identity?: Identity | null
  /** Embeds observation topics for conflict detection. Default `hashEmbedder()`. */
  readonly embedder?: Embedder | null
  /** The second-stage conflict judge of the Memory (the `conflictJudge` option). Default none. */
  readonly judge?: JudgeStage | null
  /** Wall clock in ms, injected by tests (a store built alone on a storage port). */
  readonly now?: () => number
}

/**
 * FR-001 shared working memory on the Memory's record log: `mem.working`.
 *
 * Storage. Everything is an immutable, content-addressed record (kinds in records.ts) carrying its
 * task in `body.task`, and a task's state is derived from its records (state.ts) by this store's
 * deriver, so another handle on the same database (another tab, another Memory) catches up through
 * the log, and a reload rebuilds the same state. Topic vectors for conflict detection are kept in
 * `vectors`, keyed by observation id.
 *
 * Mutable state. Attention and access are the only things that change (DESIGN.md). They are
 * small immutable records too: a decay, a boost, one context read. That keeps concurrent writers
 * free of lost updates (two tabs decaying and boosting at once both count, in HLC order) and
 * keeps state a pure function of the record set. So that a long task does not accumulate
 * thousands of them, once a task holds 256 such records they are folded into one checkpoint
 * record (attention and access of every live observation) and deleted in the same transaction.
 *
 * Concurrency (FR-001.7). Every mutation runs in the record log's batch for its tick: one storage
 * transaction that first catches up with the log, then decides (conflict checks, evictions)
 * against the fresh state, then writes. Storage transactions are serialized by the database, so
 * that transaction is the "global lock" of the spec for every tab at once, and no per-observation
 * lock is needed because no record is ever updated in place. Stamps are issued inside the
 * transaction after catching up, so commit order and HLC order agree.
 */
export class WorkingStore implements WorkingMemory, WriterHost, TaskHost {
  readonly detector: ConflictDetector
  readonly judge: JudgeStage | null
  readonly author: string | null
  readonly #log: RecordLog
  readonly #ownsLog: boolean
  /** The tasks opened here: their state is kept, record by record. */
  readonly #tasks = new Map<string, TaskState>()
  /**
   * Records of tasks not opened here, by task, in arrival order. The log delivers a module's kinds
   * once (at register) and then only what is new, so a task opened later is derived from these: no
   * read at all, where reading it back would scan every working record (records have no task index)
   * in a transaction of its own, racing the log's catch-up. The cost is holding them in memory.
   */
  readonly #unopened = new Map<string, Map<string, StoredRecord>>()
  readonly #analyses = new Map<string, Analysis>()
  /** Task -> pair key -> a sub-threshold pair for the judge (`candidate`). */
  readonly #candidates = new Map<string, Map<string, WorkingCandidate>>()
  /** Task -> observations that arrived from other replicas (a shared task), not yet run through the conflict detector here. */
  readonly #arrivals = new Map<string, Set<string>>()
  readonly #attachment: LogAttachment
  #closed = false

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: WorkingStoreOptions = {}) {
    const { log, owned } = logFor(source, { identity: options.identity ?? null, now: options.now })
    this.#log = log
    this.#ownsLog = owned
    this.#attachment = new LogAttachment(log, this.#deriver)
    this.author = log.identity?.did ?? null
    this.detector = new ConflictDetector(options.embedder ? { embedder: options.embedder } : {})
    this.judge = options.judge ?? null
  }

  async open(taskId: string, config?: WorkingMemoryConfig): Promise<SharedWorkingMemory> {
    const task = assertName('taskId', taskId)
    const cfg = resolveConfig(config)
    this.#assertOpen()
    await this.#register()
    if (!this.#tasks.has(task)) await this.#openTask(task)
    await this.ready()
    return new TaskHandle(this, task, cfg)
  }

  /** Derives a task from the records kept for it, and reads the stored topic vectors of its live observations. */
  async #openTask(task: string): Promise<void> {
    const state = new TaskState(task)
    for (const r of this.#unopened.get(task)?.values() ?? []) state.apply(r)
    this.#unopened.delete(task)
    this.#tasks.set(task, state)
    const missing = state.live().filter((o) => !this.#analyses.has(o.id)).map((o) => o.id)
    if (missing.length) await this.mutate((w) => w.loadVectors(missing, task))
  }

  // ---- what the store derives from the record log ----

  readonly #deriver: Deriver = {
    name: 'working',
    kinds: WORKING_KINDS,
    reset: () => {
      for (const s of this.#tasks.values()) s.clear()
      this.#unopened.clear()
    },
    receive: (records, delivery) => this.#receive(records, delivery),
    removed: (ids) => {
      for (const id of ids) {
        for (const s of this.#tasks.values()) s.forget(id)
        this.#analyses.delete(id)
      }
      for (const kept of this.#unopened.values()) for (const id of ids) kept.delete(id)
    },
    settle: () => this.#analyzeMissing(),
  }

  async #receive(records: readonly StoredRecord[], { tx, local, reload }: Delivery): Promise<void> {
    for (const r of records) {
      // A throw here would fail every module's batch: a body without a task is passed over.
      const task = (r.body as { task?: unknown } | null)?.task
      if (typeof task !== 'string') continue
      const state = this.#tasks.get(task)
      if (!state) {
        let kept = this.#unopened.get(task)
        if (!kept) this.#unopened.set(task, (kept = new Map()))
        kept.set(r.id, r)
        continue
      }
      state.apply(r)
      // Another replica's observation of a shared task: its detector compared it with what that replica
      // held, not with what this one holds; the handles here compare it again (TaskHandle). Own
      // observations carry this store's author, whichever module appended them.
      if (!reload && r.kind === Kind.OBSERVATION && r.pool !== undefined && r.author !== this.author) {
        let set = this.#arrivals.get(task)
        if (!set) this.#arrivals.set(task, (set = new Set()))
        set.add(r.id)
      }
    }
    // The writer keeps the analyses of its own observations; others' stored vectors are read with their records.
    if (local) return
    const missing = this.#unanalyzed()
    if (missing.length === 0) return
    const rows = await tx.getMany<VectorRow>('vectors', missing.map(([id]) => id))
    rows.forEach((row, i) => {
      const [id, text] = missing[i]!
      if (row && row.embedder === this.vectorId) this.remember(id, text, row.vec)
    })
  }

  /** Registers with the log once (every working record is delivered then); later calls cost a resolved promise. */
  #register(): Promise<void> {
    return this.#attachment.register()
  }

  #assertOpen(): void {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
  }

  /** Caught up with every handle's commits, and every live observation of an open task analyzed. */
  async ready(): Promise<void> {
    this.#assertOpen()
    await this.#attachment.ready()
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

  /**
   * Keeps a pair the detector scored below its threshold but at or above the judge's
   * `minCandidateConfidence`, for the judge to be asked at the next `getConflicts` (issue 27, as
   * facts do). Only with a judge that has the floor; this session only (the pairs of writes before a
   * reload are not kept; a pair the judge confirmed was recorded as a conflict and stays).
   */
  candidate(task: string, older: string, newer: string, v: ConflictVerdict): void {
    const floor = this.judge?.candidateFloor
    if (floor === undefined || v.conflict || v.confidence < floor) return
    let pairs = this.#candidates.get(task)
    if (!pairs) this.#candidates.set(task, (pairs = new Map()))
    // Bounded like the detector's caches: the oldest candidates go first.
    if (pairs.size >= MAX_CANDIDATES) pairs.delete(pairs.keys().next().value!)
    pairs.set(pairKey(older, newer), { a: older, b: newer, reason: v.reason, confidence: v.confidence, similarity: v.similarity })
  }

  /** The candidates of `task` kept by `candidate` (live and not, settled or not: the caller filters). */
  candidates(task: string): Map<string, WorkingCandidate> {
    return this.#candidates.get(task) ?? new Map()
  }

  /** Observations of `task` that arrived from other replicas since the last call. */
  takeArrivals(task: string): string[] {
    const set = this.#arrivals.get(task)
    if (!set) return []
    this.#arrivals.delete(task)
    return [...set]
  }

  // ---- WriterHost, TaskHost ----

  seal(kind: string, body: unknown): StoredRecord {
    return this.#log.seal(kind, body)
  }

  get vectorId(): string {
    return this.detector.vectorId
  }

  /**
   * A signed observation record for a task shared through `pool`, made outside any transaction
   * (signing awaits crypto), stamped after the grant that allows it.
   * @throws MemweaveError CAPABILITY_NOT_SUPPORTED without pools; what the pool gate throws; PERMISSION_DENIED without an identity.
   */
  async pooledRecord(pool: string, body: ObservationBody): Promise<StoredRecord> {
    return this.#log.sealPooled(Kind.OBSERVATION, body, await this.#log.grant(pool))
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

  // ---- writes ----

  /** Runs `run` in the log's next batch, after it caught up. Tracked by the log, so flush() and close() wait for it. */
  mutate<R>(run: (w: Writer) => Promise<R> | R): Promise<R> {
    if (this.#closed) return Promise.reject(new MemweaveError(ErrorCode.CLOSED, 'this memory is closed'))
    return this.#log.write(async (lw) => {
      const w = new Writer(lw, this)
      const out = await run(w)
      await w.finish()
      return out
    })
  }

  /** Resolves once every write called before it has committed (or failed). */
  flush(): Promise<void> {
    return this.#log.flush()
  }

  /** Idempotent; pending writes are committed first, then (for a store built alone) the log and its storage close. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    if (this.#ownsLog) await this.#log.close()
    else await this.#log.flush()
  }
}
