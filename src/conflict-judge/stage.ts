import { invalidArgument } from '../core/errors.js'
import type { ConflictJudge, ConflictJudgeOptions, JudgeMark, JudgeVerdict } from './types.js'
import { isVerdict, isVerdictRow, verdictKey, VERDICT_ROW_VERSION, type VerdictRow, type VerdictStorage } from './verdict-rows.js'

/** A pair the model-free stage proposes. `writer` names the write it came from (the newer side), for the per-write bound. */
export interface Candidate {
  readonly a: string
  readonly b: string
  readonly writer: string
}

interface Job {
  readonly key: string
  readonly a: string
  readonly b: string
}

/**
 * The second stage of conflict detection: asks a judge about the pairs the model-free detector
 * flagged, in the background, and remembers its verdicts (in memory and in storage). A read never
 * waits for the judge unless it asks to (`idle()`); until a verdict arrives the model-free verdict
 * stands, marked `pending`. A judge that throws, answers badly or does not answer within
 * `timeoutMs` leaves the pair pending: it is asked again at a later read, `retries` times at most,
 * then left `unjudged` for this session. Never more than `maxPairsPerWrite` pairs per write and
 * `concurrency` calls at once. One stage serves facts and working memory of one Memory.
 */
export class JudgeStage {
  readonly id: string
  /** `minCandidateConfidence`, or undefined: the listing threshold. */
  readonly candidateFloor: number | undefined
  readonly #judge: ConflictJudge
  readonly #storage: VerdictStorage
  readonly #maxPerWrite: number
  readonly #concurrency: number
  readonly #batchSize: number
  readonly #timeoutMs: number
  readonly #retries: number
  readonly #now: () => number
  /** Verdicts by pair key (this session's and those read from storage). */
  readonly #known = new Map<string, JudgeVerdict>()
  /** Keys looked up in storage already (found or not): read once per session. */
  readonly #looked = new Set<string>()
  /** Pairs asked per write (in this session or, as far as stored verdicts tell, before it). */
  readonly #perWrite = new Map<string, number>()
  /** Writes whose candidates this session has reviewed. */
  readonly #seen = new Set<string>()
  /** Keys queued, in flight or waiting for a retry. */
  readonly #open = new Set<string>()
  readonly #queue: Job[] = []
  /** Failed pairs waiting for the next read to ask again. */
  readonly #retry = new Map<string, Job>()
  readonly #attempts = new Map<string, number>()
  readonly #gaveUp = new Set<string>()
  readonly #overBound = new Set<string>()
  readonly #inFlight = new Set<AbortController>()
  #running = 0
  #waiters: Array<() => void> = []
  #closed = false

  constructor(options: ConflictJudgeOptions, storage: VerdictStorage, now: () => number = Date.now) {
    const judge = options?.judge
    if (typeof judge !== 'object' || judge === null || typeof judge.judge !== 'function') throw invalidArgument('conflictJudge.judge', 'must be a ConflictJudge (an object with id and judge())')
    if (typeof judge.id !== 'string' || judge.id === '') throw invalidArgument('conflictJudge.judge.id', 'must name the model')
    this.id = judge.id
    this.#judge = judge
    this.#storage = storage
    this.#maxPerWrite = count(options.maxPairsPerWrite ?? 3, 'maxPairsPerWrite', 0)
    this.#concurrency = count(options.concurrency ?? 2, 'concurrency', 1)
    this.#batchSize = count(options.batchSize ?? 8, 'batchSize', 1)
    this.#timeoutMs = count(options.timeoutMs ?? 20_000, 'timeoutMs', 1)
    this.#retries = count(options.retries ?? 2, 'retries', 0)
    const floor = options.minCandidateConfidence
    if (floor !== undefined && (typeof floor !== 'number' || !(floor >= 0.2 && floor <= 1))) {
      throw invalidArgument('conflictJudge.minCandidateConfidence', `must be a number from 0.2 to 1, got ${String(floor)}`)
    }
    this.candidateFloor = floor
    this.#now = now
  }

  /**
   * Where each candidate stands: reads the stored verdicts it has not looked up yet (one read),
   * queues the pairs nobody asked about (within the per-write bound), asks again those whose last
   * call failed, and starts the judge in the background. Never throws and never waits for the judge.
   */
  async review(candidates: readonly Candidate[]): Promise<JudgeMark[]> {
    const keys = candidates.map((c) => verdictKey(this.id, c.a, c.b))
    await this.#lookUp(keys)
    if (this.#closed) return keys.map(() => ({ id: this.id, status: 'unjudged', why: 'failed' }))
    for (const job of this.#retry.values()) this.#queue.push(job)
    this.#retry.clear()
    // A write first seen in this session (after a reload) has spent its budget on the verdicts stored for it.
    candidates.forEach((c, i) => {
      if (this.#known.has(keys[i]!) && !this.#seen.has(c.writer)) this.#perWrite.set(c.writer, (this.#perWrite.get(c.writer) ?? 0) + 1)
    })
    for (const c of candidates) this.#seen.add(c.writer)
    const marks = candidates.map((c, i) => this.#mark(keys[i]!, c))
    this.#pump()
    return marks
  }

  /** The verdict already known for two texts (no storage read, no judge call), or undefined. */
  known(a: string, b: string): JudgeVerdict | undefined {
    return this.#known.get(verdictKey(this.id, a, b))
  }

  /** Resolves once no pair is queued or in flight (failed pairs waiting for a retry do not count). */
  idle(): Promise<void> {
    if (this.#running === 0 && this.#queue.length === 0) return Promise.resolve()
    return new Promise((resolve) => this.#waiters.push(resolve))
  }

  /**
   * Where each candidate stands now, asking nothing and reading nothing (after `idle()`: what the
   * judge answered). A candidate never reviewed reads `pending`.
   */
  marks(candidates: readonly Candidate[]): JudgeMark[] {
    return candidates.map((c) => {
      const key = verdictKey(this.id, c.a, c.b)
      const v = this.#known.get(key)
      if (v) return { id: this.id, status: 'judged', label: v.label, confidence: v.confidence }
      if (this.#gaveUp.has(key)) return { id: this.id, status: 'unjudged', why: 'failed' }
      if (this.#overBound.has(key)) return { id: this.id, status: 'unjudged', why: 'bound' }
      return { id: this.id, status: 'pending' }
    })
  }

  /** Forgets the verdicts of these pairs (a hard delete of one side) and returns their row keys, for the caller's transaction to delete. */
  drop(pairs: ReadonlyArray<readonly [string, string]>): string[] {
    const keys = pairs.map(([a, b]) => verdictKey(this.id, a, b))
    for (const k of keys) {
      this.#known.delete(k)
      this.#looked.delete(k)
    }
    return keys
  }

  /** Stops asking: in-flight calls are aborted and their answers dropped. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true
    this.#queue.length = 0
    for (const c of this.#inFlight) c.abort()
    await this.idle()
  }

  async #lookUp(keys: readonly string[]): Promise<void> {
    const missing = [...new Set(keys)].filter((k) => !this.#known.has(k) && !this.#looked.has(k) && !this.#open.has(k))
    if (missing.length === 0) return
    const rows = await this.#storage.get(missing).catch(() => [] as Array<VerdictRow | undefined>)
    missing.forEach((k, i) => {
      this.#looked.add(k)
      const row = rows[i]
      if (isVerdictRow(row, this.id)) this.#known.set(k, { label: row.label, confidence: row.confidence })
    })
  }

  #mark(key: string, c: Candidate): JudgeMark {
    const v = this.#known.get(key)
    if (v) return { id: this.id, status: 'judged', label: v.label, confidence: v.confidence }
    if (this.#open.has(key)) return { id: this.id, status: 'pending' }
    if (this.#gaveUp.has(key)) return { id: this.id, status: 'unjudged', why: 'failed' }
    if (this.#overBound.has(key)) return { id: this.id, status: 'unjudged', why: 'bound' }
    const asked = this.#perWrite.get(c.writer) ?? 0
    if (asked >= this.#maxPerWrite) {
      this.#overBound.add(key)
      return { id: this.id, status: 'unjudged', why: 'bound' }
    }
    this.#perWrite.set(c.writer, asked + 1)
    this.#open.add(key)
    this.#queue.push({ key, a: c.a, b: c.b })
    return { id: this.id, status: 'pending' }
  }

  #pump(): void {
    while (!this.#closed && this.#running < this.#concurrency && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, this.#batchSize)
      this.#running++
      void this.#ask(batch).finally(() => {
        this.#running--
        this.#pump()
        if (this.#running === 0 && this.#queue.length === 0) for (const w of this.#waiters.splice(0)) w()
      })
    }
  }

  async #ask(batch: readonly Job[]): Promise<void> {
    const controller = new AbortController()
    this.#inFlight.add(controller)
    let timer: ReturnType<typeof setTimeout> | undefined
    let verdicts: readonly unknown[] | null = null
    try {
      const timedOut = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), this.#timeoutMs)))
      const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Error('closed'))))
      const asked = Promise.resolve().then(() => this.#judge.judge(batch.map((j) => [j.a, j.b] as const), { signal: controller.signal }))
      const out = await Promise.race([asked, timedOut, aborted])
      if (Array.isArray(out) && out.length === batch.length) verdicts = out
    } catch {
      // A failing or slow judge: the pairs stay pending and are asked again at a later read.
    } finally {
      clearTimeout(timer)
      this.#inFlight.delete(controller)
    }
    if (this.#closed) return
    const rows: VerdictRow[] = []
    batch.forEach((job, i) => {
      const v = verdicts?.[i]
      if (isVerdict(v)) {
        const verdict = { label: v.label, confidence: v.confidence }
        this.#known.set(job.key, verdict)
        this.#open.delete(job.key)
        rows.push({ key: job.key, v: VERDICT_ROW_VERSION, judge: this.id, ...verdict, at: this.#now() })
        return
      }
      const attempts = (this.#attempts.get(job.key) ?? 0) + 1
      this.#attempts.set(job.key, attempts)
      if (attempts > this.#retries) {
        this.#open.delete(job.key)
        this.#gaveUp.add(job.key)
      } else this.#retry.set(job.key, job)
    })
    if (rows.length > 0) await this.#storage.put(rows).catch(() => undefined)
  }
}

function count(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw invalidArgument(`conflictJudge.${field}`, `must be an integer >= ${min}`)
  return value
}
