import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { StoredRecord } from '../storage/schema.js'
import type { Analysis, ConflictDetector, ConflictVerdict } from './conflict/detector.js'
import { judgedReason } from '../conflict-judge/reason.js'
import type { JudgeStage } from '../conflict-judge/stage.js'
import type { JudgeMark } from '../conflict-judge/types.js'
import { MAX_ID, MAX_NOTE, assertFactor, assertMaxItems, assertName, assertObservation, assertRole, assertUnit } from './input.js'
import { Kind, pairKey, type ObservationBody } from './records.js'
import { byAttentionThenRecency, visibleTo } from './roles.js'
import type {
  AddObservationInput, AgentRole, ContextOptions, Observation, ObservationId, SharedWorkingMemory, WorkingConflict,
  WorkingMemoryConfig,
} from './types.js'
import { conflictIndex, hlcToIso, toObservation } from './view.js'
import type { TaskState } from './state.js'
import type { Writer } from './writer.js'

const notFound = (id: string, what = 'observation'): MemweaveError =>
  new MemweaveError(ErrorCode.NOT_FOUND, `${what} ${JSON.stringify(id)} is not in this task's working memory`, { id })

/** A pair the detector scored below its threshold, kept for the second-stage judge (issue 27). */
export interface WorkingCandidate {
  readonly a: string
  readonly b: string
  readonly reason: string
  readonly confidence: number
  readonly similarity: number
}

/**
 * What a task handle needs from the working store (store.ts implements it). Declared here, as
 * writer.ts declares `WriterHost`, so that the store imports the handle and not the reverse.
 */
export interface TaskHost {
  readonly detector: ConflictDetector
  /** The second-stage conflict judge of the Memory (the `conflictJudge` option), or null. */
  readonly judge: JudgeStage | null
  ready(): Promise<void>
  state(task: string): TaskState | undefined
  analysis(id: string): Analysis | undefined
  rememberAnalysis(id: string, analysis: Analysis): void
  pooledRecord(pool: string, body: ObservationBody): Promise<StoredRecord>
  takeArrivals(task: string): string[]
  /** Keeps a sub-threshold pair for the judge (its `minCandidateConfidence`); a no-op without one. */
  candidate(task: string, older: string, newer: string, verdict: ConflictVerdict): void
  /** The sub-threshold pairs kept for `task`, by pair key. */
  candidates(task: string): Map<string, WorkingCandidate>
  mutate<R>(run: (w: Writer) => Promise<R> | R): Promise<R>
}

/**
 * One task's pool, as an agent sees it. Decisions that depend on the pool's current contents
 * (conflict checks, eviction, whether a boost target is still there) are taken inside the write
 * transaction, after it caught up with other handles; validation happens before, at the API edge.
 */
export class TaskHandle implements SharedWorkingMemory {
  readonly taskId: string
  readonly config: Required<WorkingMemoryConfig>
  readonly #store: TaskHost
  #iterations = 0

  constructor(store: TaskHost, taskId: string, config: Required<WorkingMemoryConfig>) {
    this.#store = store
    this.taskId = taskId
    this.config = config
  }

  get #state() {
    return this.#store.state(this.taskId)!
  }

  #view(id: string): Observation {
    return toObservation(this.#state, id, this.#index())!
  }

  /** Who conflicts with whom: recorded conflicts, less the detector's that the judge has cleared (no judge call here). */
  #index(): Map<string, ObservationId[]> {
    const judge = this.#store.judge
    if (!judge) return conflictIndex(this.#state)
    const text = (id: string): string => this.#state.observations.get(id)?.body.content ?? ''
    return conflictIndex(this.#state, (a, b) => {
      const v = judge.known(text(a), text(b))
      return v !== undefined && v.label !== 'contradiction'
    })
  }

  /**
   * Stores an observation, checks it for conflicts against the live observations of other agents
   * with the same belief type, and evicts what capacity requires (possibly the newcomer itself:
   * its `evicted` field says so).
   *
   * @throws MemweaveError INVALID_ARGUMENT for a bad field; CLOSED after close().
   * @example
   * const obs = await wm.addObservation({ content: 'Meeting at 3pm', sourceAgentId: 'a', isBeliefCandidate: true, beliefType: 'FACT' })
   */
  async addObservation(input: AddObservationInput): Promise<Observation> {
    const c = assertObservation(input)
    const { taskId: task, config: cfg } = this
    const store = this.#store
    const analysis = cfg.detectConflicts ? (await store.detector.analyze([c.content]))[0]! : null
    const body = { task, content: c.content, agent: c.agent, attention: c.attention, confidence: c.confidence, candidate: c.candidate, beliefType: c.beliefType }
    // A shared task's observation is signed into its pool before the transaction (crypto is async).
    const made = cfg.pool === null ? null : await store.pooledRecord(cfg.pool, body)
    const { id, unchecked } = await store.mutate(async (w) => {
      const state = w.state(task)
      const rec = made ? await w.putMade(made) : await w.put(Kind.OBSERVATION, body)
      const unchecked: string[] = []
      if (analysis) {
        store.rememberAnalysis(rec.id, analysis)
        await w.putVector(rec.id, analysis)
        const peers = state.live().filter((o) => o.id !== rec.id && o.body.agent !== c.agent && o.body.beliefType === c.beliefType)
        await w.loadVectors(peers.map((p) => p.id), task)
        for (const p of peers) {
          const pa = store.analysis(p.id)
          if (!pa) unchecked.push(p.id)
          else await this.#check(w, p.id, rec.id, this.#store.detector.compare(pa, analysis, cfg.conflictThreshold))
        }
      }
      await w.enforceCapacity(task, cfg)
      return { id: rec.id, unchecked }
    })
    // Observations whose stored vector another embedder made (another tab configured differently)
    // are analyzed here, outside the transaction, and checked in a second one before add resolves.
    if (unchecked.length) await this.#recheck(id, unchecked)
    return this.#view(id)
  }

  async #check(w: Writer, older: string, newer: string, v: ConflictVerdict): Promise<void> {
    if (!v.conflict) return this.#store.candidate(this.taskId, older, newer, v)
    if (w.state(this.taskId).conflicts.has(pairKey(older, newer))) return
    await w.put(Kind.CONFLICT, {
      task: this.taskId, a: older, b: newer, reason: v.reason, by: 'detector', similarity: Math.round(v.similarity * 1e6) / 1e6,
    })
  }

  /**
   * Brings this handle up to date: catches up with storage, and runs the conflict detector on the
   * observations that arrived from other replicas of a shared task, so a contradiction written on
   * two devices while they were apart is flagged on both once they meet.
   */
  async #ready(): Promise<void> {
    await this.#store.ready()
    const arrived = this.#store.takeArrivals(this.taskId)
    if (arrived.length === 0 || !this.config.detectConflicts) return
    const store = this.#store
    const live = arrived.filter((id) => this.#state.isLive(id))
    const bodies = live.map((id) => this.#state.observations.get(id)!.body)
    const missing = live.filter((id) => !store.analysis(id))
    const fresh = await store.detector.analyze(missing.map((id) => this.#state.observations.get(id)!.body.content))
    missing.forEach((id, i) => store.rememberAnalysis(id, fresh[i]!))
    const analyses = live.map((id) => store.analysis(id)!)
    const unchecked = new Map<string, string[]>()
    await store.mutate(async (w) => {
      const state = w.state(this.taskId)
      for (const [i, id] of live.entries()) {
        if (!state.isLive(id)) continue
        const body = bodies[i]!
        const peers = state.live().filter((o) => o.id !== id && o.body.agent !== body.agent && o.body.beliefType === body.beliefType)
        await w.loadVectors(peers.map((p) => p.id), this.taskId)
        for (const p of peers) {
          const pa = store.analysis(p.id)
          if (pa) await this.#check(w, p.id, id, store.detector.compare(pa, analyses[i]!, this.config.conflictThreshold))
          else unchecked.set(id, [...(unchecked.get(id) ?? []), p.id])
        }
      }
    })
    for (const [id, peers] of unchecked) await this.#recheck(id, peers)
  }

  async #recheck(id: string, peers: readonly string[]): Promise<void> {
    await this.#store.ready()
    const store = this.#store
    await store.mutate(async (w) => {
      const state = w.state(this.taskId)
      const mine = store.analysis(id)
      if (!mine || !state.isLive(id)) return
      for (const p of peers) {
        const pa = store.analysis(p)
        if (pa && state.isLive(p)) await this.#check(w, p, id, store.detector.compare(pa, mine, this.config.conflictThreshold))
      }
    })
  }

  /**
   * The observations `role` may see (roles.ts), by attention then recency, at most `maxItems`;
   * records that `agentId` received them (accessedBy, accessCount).
   *
   * @throws MemweaveError INVALID_ARGUMENT for an unknown role or a bad maxItems.
   * @example
   * const context = await wm.getContextForAgent('critic-1', AgentRole.CRITIC, { maxItems: 5 })
   */
  async getContextForAgent(agentId: string, role: AgentRole, options?: ContextOptions | number | null): Promise<Observation[]> {
    const agent = assertName('agentId', agentId)
    const r = assertRole(role)
    const max = assertMaxItems(typeof options === 'object' && options !== null ? options.maxItems : options)
    await this.#ready()
    let picked = this.#live().filter((o) => visibleTo(r, o)).sort(byAttentionThenRecency)
    if (max !== null) picked = picked.slice(0, max)
    if (picked.length === 0) return []
    const task = this.taskId
    await this.#store.mutate(async (w) => {
      const state = w.state(task)
      const targets = picked.map((o) => o.id).filter((id) => state.isLive(id))
      if (targets.length) await w.put(Kind.ACCESS, { task, agent, targets })
    })
    const index = this.#index()
    return picked.map((o) => toObservation(this.#state, o.id, index)!)
  }

  #live(): Observation[] {
    const index = this.#index()
    return this.#state.live().map((o) => toObservation(this.#state, o.id, index)!)
  }

  /**
   * Marks two observations as conflicting, with a reason (FR-001.3); idempotent per pair.
   *
   * @throws MemweaveError NOT_FOUND for an id not in this task; INVALID_ARGUMENT for a == b or an empty reason.
   */
  async flagConflict(a: ObservationId | string, b: ObservationId | string, reason: string, options: { agentId?: string } = {}): Promise<void> {
    const [ia, ib] = [assertName('a', a, MAX_ID), assertName('b', b, MAX_ID)]
    if (ia === ib) throw invalidArgument('b', 'an observation cannot conflict with itself')
    const why = assertName('reason', reason, MAX_NOTE)
    const by = options.agentId === undefined ? 'unknown' : assertName('agentId', options.agentId)
    await this.#store.ready()
    for (const id of [ia, ib]) if (!this.#state.observations.has(id)) throw notFound(id)
    await this.#store.mutate(async (w) => {
      if (!w.state(this.taskId).conflicts.has(pairKey(ia, ib))) {
        await w.put(Kind.CONFLICT, { task: this.taskId, a: ia, b: ib, reason: why, by, similarity: null })
      }
    })
  }

  /**
   * Conflicts as (a, b, reason) plus context. By default the open ones: unresolved, both
   * observations still in the pool. `includeResolved` lists every conflict ever recorded.
   */
  async getConflicts(options: { includeResolved?: boolean; waitForJudge?: boolean } = {}): Promise<WorkingConflict[]> {
    await this.#ready()
    const state = this.#state
    const sorted = (options.includeResolved ? [...state.conflicts.values()] : state.openConflicts()).sort((x, y) => (x.hlc < y.hlc ? -1 : x.hlc > y.hlc ? 1 : 0))
    // The detector's flags go to the judge (an agent's own flagConflict does not); the later observation is the write it counts against.
    const judge = this.#store.judge
    const asked = judge ? sorted.filter((c) => c.body.by === 'detector') : []
    // With `minCandidateConfidence`, the pairs the detector scored below its threshold go too,
    // after the flags (they take a write's share of judge calls first), surest first.
    const band = judge ? this.#band() : []
    const text = (id: string): string => state.observations.get(id)?.body.content ?? ''
    const candidates = [...asked.map((c) => ({ a: text(c.body.a), b: text(c.body.b), writer: c.body.b })), ...band.map((c) => ({ a: text(c.a), b: text(c.b), writer: c.b }))]
    let marks: JudgeMark[] = judge && candidates.length ? await judge.review(candidates) : []
    if (judge && candidates.length && options.waitForJudge) {
      await judge.idle()
      marks = judge.marks(candidates)
    }
    if (band.length && (await this.#settleBand(band, marks.slice(asked.length)))) return this.getConflicts(options)
    const markOf = new Map(asked.map((c, i) => [c, marks[i]!] as const))
    const index = this.#index()
    const out: WorkingConflict[] = []
    for (const c of sorted) {
      const mark = markOf.get(c)
      const reason = mark ? judgedReason(c.body.reason, mark) : c.body.reason
      if (reason === null) continue
      const res = state.resolutions.get(pairKey(c.body.a, c.body.b))
      out.push({
          a: toObservation(state, c.body.a, index)!,
          b: toObservation(state, c.body.b, index)!,
          reason,
          flaggedBy: c.body.by,
          similarity: c.body.similarity,
          at: hlcToIso(c.hlc),
          resolution: res
            ? { keep: res.body.keep as ObservationId | null, note: res.body.note, by: res.body.by, at: hlcToIso(res.hlc) }
            : null,
          ...(mark ? { judge: mark } : {}),
        })
    }
    return out
  }

  /** The live, unrecorded sub-threshold pairs of this task, surest first. */
  #band(): WorkingCandidate[] {
    const state = this.#state
    return [...this.#store.candidates(this.taskId).values()]
      .filter((c) => state.isLive(c.a) && state.isLive(c.b) && !state.conflicts.has(pairKey(c.a, c.b)))
      .sort((x, y) => y.confidence - x.confidence)
  }

  /**
   * Settles the sub-threshold pairs the judge has answered: one it calls a contradiction is
   * recorded as the detector's conflict (so it is listed, in `conflictsWith`, resolvable, and kept
   * across a reload), one it clears is dropped. Returns whether it recorded any.
   */
  async #settleBand(band: readonly WorkingCandidate[], marks: readonly JudgeMark[]): Promise<boolean> {
    const kept = this.#store.candidates(this.taskId)
    const confirmed = band.filter((c, i) => marks[i]?.status === 'judged' && marks[i]!.label === 'contradiction')
    band.forEach((c, i) => {
      if (marks[i]?.status === 'judged') kept.delete(pairKey(c.a, c.b))
    })
    if (confirmed.length === 0) return false
    await this.#store.mutate(async (w) => {
      const state = w.state(this.taskId)
      for (const c of confirmed) {
        if (!state.isLive(c.a) || !state.isLive(c.b) || state.conflicts.has(pairKey(c.a, c.b))) continue
        await w.put(Kind.CONFLICT, { task: this.taskId, a: c.a, b: c.b, reason: c.reason, by: 'detector', similarity: Math.round(c.similarity * 1e6) / 1e6 })
      }
    })
    return true
  }

  /**
   * Reconciles a conflict (FR-001.6): with `keep`, the other observation stops being a belief
   * candidate; without it, both are released (e.g. a false alarm).
   *
   * @throws MemweaveError NOT_FOUND when the pair has no recorded conflict; INVALID_ARGUMENT when `keep` is neither of them.
   */
  async resolveConflict(
    a: ObservationId | string,
    b: ObservationId | string,
    options: { keep?: ObservationId | string | null; note?: string; agentId?: string } = {},
  ): Promise<void> {
    const [ia, ib] = [assertName('a', a, MAX_ID), assertName('b', b, MAX_ID)]
    const keep = options.keep ?? null
    if (keep !== null && keep !== ia && keep !== ib) throw invalidArgument('keep', 'must be one of the two observations, or null')
    const note = options.note === undefined ? null : assertName('note', options.note, MAX_NOTE)
    const by = options.agentId === undefined ? null : assertName('agentId', options.agentId)
    await this.#store.ready()
    if (!this.#state.conflicts.has(pairKey(ia, ib))) throw notFound(pairKey(ia, ib), 'conflict')
    await this.#store.mutate(async (w) => {
      if (!w.state(this.taskId).resolutions.has(pairKey(ia, ib))) await w.put(Kind.RESOLVE, { task: this.taskId, a: ia, b: ib, keep, note, by })
    })
  }

  /** Live belief candidates without an open conflict that did not lose a reconciliation (FR-001.6). */
  async getBeliefCandidates(): Promise<Observation[]> {
    await this.#ready()
    const rejected = this.#state.rejected()
    return this.#live().filter((o) => o.isBeliefCandidate && o.conflictsWith.length === 0 && !rejected.has(o.id)).sort(byAttentionThenRecency)
  }

  /**
   * Multiplies every observation's attention by `factor` (default config.attentionDecayFactor).
   * @throws MemweaveError INVALID_ARGUMENT unless 0 < factor <= 1.
   */
  async applyAttentionDecay(factor: number = this.config.attentionDecayFactor): Promise<void> {
    const f = assertFactor('factor', factor)
    await this.#store.mutate((w) => w.put(Kind.ATTENTION, { task: this.taskId, op: 'decay', factor: f }))
  }

  /**
   * Adds `boost` to one observation's attention, capped at 1 (FR-001.4).
   * @throws MemweaveError NOT_FOUND when the observation is not (or no longer) in the pool; INVALID_ARGUMENT unless 0 <= boost <= 1.
   */
  async boostAttention(id: ObservationId | string, boost = 0.2): Promise<void> {
    const target = assertName('id', id, MAX_ID)
    const amount = assertUnit('boost', boost)
    const done = await this.#store.mutate(async (w) => {
      // Decided in the transaction: another tab may have evicted it meanwhile. Never throw in here.
      if (!w.state(this.taskId).isLive(target)) return false
      await w.put(Kind.ATTENTION, { task: this.taskId, op: 'boost', target, amount })
      return true
    })
    if (!done) throw notFound(target)
  }

  async endIteration(): Promise<boolean> {
    this.#iterations++
    if (this.#iterations % this.config.syncIntervalIterations !== 0) return false
    await this.applyAttentionDecay()
    return true
  }

  async observations(): Promise<Observation[]> {
    await this.#ready()
    return this.#live().sort(byAttentionThenRecency)
  }

  async get(id: ObservationId | string): Promise<Observation | null> {
    if (typeof id !== 'string') return null
    await this.#ready()
    return toObservation(this.#state, id, this.#index())
  }

  async evicted(): Promise<Observation[]> {
    await this.#store.ready()
    const state = this.#state
    const index = this.#index()
    return [...state.evictions.values()]
      .sort((x, y) => (x.hlc < y.hlc ? -1 : x.hlc > y.hlc ? 1 : 0))
      .map((e) => toObservation(state, e.body.target, index))
      .filter((o): o is Observation => o !== null)
  }
}
