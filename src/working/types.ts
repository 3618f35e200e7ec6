import type { JudgeMark } from '../conflict-judge/types.js'
/** An observation's id: the content id (BLAKE2b-128, hex) of its record. Compare with `===`; never parse it. */
export type ObservationId = string & { readonly __brand: 'ObservationId' }

/** Roles that read the pool differently (FR-001.5). */
export const AgentRole = {
  /** Sees every observation. */
  RESEARCHER: 'RESEARCHER',
  /** Sees belief candidates only. */
  CRITIC: 'CRITIC',
  /** Sees typed SKILL and FACT observations only; untyped observations are not shown. */
  EXECUTOR: 'EXECUTOR',
} as const
export type AgentRole = (typeof AgentRole)[keyof typeof AgentRole]

/** Kinds of belief an observation can become. Any non-empty string is accepted; these are the common ones. */
export const BeliefType = {
  FACT: 'FACT',
  SKILL: 'SKILL',
  PREFERENCE: 'PREFERENCE',
  INSTRUCTION: 'INSTRUCTION',
  INSIGHT: 'INSIGHT',
} as const
export type BeliefType = (typeof BeliefType)[keyof typeof BeliefType]

/** Why an observation left the pool. */
export type EvictionReason = 'agent-limit' | 'global-limit'

export interface Eviction {
  readonly reason: EvictionReason
  /** ISO-8601 time of the eviction. */
  readonly at: string
  /** Its attention weight when it was evicted. */
  readonly attentionWeight: number
}

/** One observation as the pool holds it now (FR-001.1's SharedObservation). */
export interface Observation {
  readonly id: ObservationId
  readonly taskId: string
  readonly content: string
  readonly sourceAgentId: string
  /** ISO-8601 time it was stored. */
  readonly timestamp: string
  /** Hybrid-logical-clock stamp: a total order of the pool's records, sortable as text. */
  readonly sequence: string
  /** Current attention, 0..1: the initial weight after every decay and boost since. */
  readonly attentionWeight: number
  readonly confidence: number
  readonly isBeliefCandidate: boolean
  readonly beliefType: string | null
  /** Observations it is in unresolved conflict with. */
  readonly conflictsWith: readonly ObservationId[]
  /** Agents that received it from getContextForAgent, sorted. */
  readonly accessedBy: readonly string[]
  readonly accessCount: number
  /** Set once capacity pushed it out; evicted observations stay in `evicted()`. */
  readonly evicted: Eviction | null
}

export interface AddObservationInput {
  readonly content: string
  readonly sourceAgentId: string
  /** 0..1, default 0.5. */
  readonly attentionWeight?: number
  /** 0..1, default 1. */
  readonly confidence?: number
  readonly isBeliefCandidate?: boolean
  /** FACT, SKILL, PREFERENCE, ... or null (untyped). */
  readonly beliefType?: BeliefType | (string & {}) | null
}

/** A pair of observations flagged as incompatible (FR-001.3), as the tuple (a, b, reason) plus context. */
export interface WorkingConflict {
  readonly a: Observation
  readonly b: Observation
  readonly reason: string
  /** `'detector'` for automatic detection, else the agent id that flagged it (or `'unknown'`). */
  readonly flaggedBy: string
  /** Topic similarity when the detector found it. */
  readonly similarity: number | null
  readonly at: string
  /** Set once reconciled with resolveConflict(). */
  readonly resolution: ConflictResolution | null
  /**
   * Only with a second-stage judge, on the detector's flags: what the judge said, or that the
   * detector's verdict stands for now (`pending`, `unjudged`); pairs it cleared are not listed.
   */
  readonly judge?: JudgeMark
}

export interface ConflictResolution {
  /** The observation that won, or null when both stand (e.g. a false alarm). */
  readonly keep: ObservationId | null
  readonly note: string | null
  readonly by: string | null
  readonly at: string
}

export interface WorkingMemoryConfig {
  /** Miller's 7: items one agent may hold. Default 7. */
  readonly maxItemsPerAgent?: number
  /** Items the whole pool may hold. Default 50. */
  readonly maxTotalItems?: number
  /** Factor applyAttentionDecay() multiplies by. Default 0.9. */
  readonly attentionDecayFactor?: number
  /** Topic similarity at which two observations are compared for conflict. Default 0.7. */
  readonly conflictThreshold?: number
  /** endIteration() decays attention every this many calls. Default 3. */
  readonly syncIntervalIterations?: number
  /** Run the conflict detector on every add. Default true. */
  readonly detectConflicts?: boolean
  /**
   * Share the task's observations through this pool (mem.sync): each is a signed record in the pool
   * and reaches every replica of it. Attention, access, capacity and eviction stay each replica's
   * own. Needs write access; an encrypted pool refuses (CAPABILITY_NOT_SUPPORTED). Default null.
   */
  readonly pool?: string | null
}

export interface ContextOptions {
  /** At most this many observations; default all that the role may see. */
  readonly maxItems?: number | null
}

/**
 * A task's shared working memory (FR-001): several agents add observations, read role-filtered
 * context, flag and reconcile conflicts, and manage attention. Every method is async and safe to
 * call concurrently, from one handle, several handles, or several tabs on one database.
 */
export interface SharedWorkingMemory {
  readonly taskId: string
  /** The configuration in force for this handle, defaults filled in. */
  readonly config: Required<WorkingMemoryConfig>
  addObservation(input: AddObservationInput): Promise<Observation>
  getContextForAgent(agentId: string, role: AgentRole, options?: ContextOptions | number | null): Promise<Observation[]>
  flagConflict(a: ObservationId | string, b: ObservationId | string, reason: string, options?: { agentId?: string }): Promise<void>
  /** `waitForJudge`: with a second-stage judge, wait for its answers before listing (see facts.conflicts). */
  getConflicts(options?: { includeResolved?: boolean; waitForJudge?: boolean }): Promise<WorkingConflict[]>
  resolveConflict(
    a: ObservationId | string,
    b: ObservationId | string,
    options?: { keep?: ObservationId | string | null; note?: string; agentId?: string },
  ): Promise<void>
  getBeliefCandidates(): Promise<Observation[]>
  applyAttentionDecay(factor?: number): Promise<void>
  boostAttention(id: ObservationId | string, boost?: number): Promise<void>
  /** Counts one agent-loop iteration; every `syncIntervalIterations`-th call applies decay. Resolves true when it decayed. */
  endIteration(): Promise<boolean>
  /** The live observations, by attention then recency. */
  observations(): Promise<Observation[]>
  get(id: ObservationId | string): Promise<Observation | null>
  /** The audit view: evicted observations with the reason, oldest eviction first. */
  evicted(): Promise<Observation[]>
}

/** `mem.working`: opens task pools on the memory's storage. */
export interface WorkingMemory {
  /**
   * Opens (or creates) the pool of one task and loads it.
   * @throws MemweaveError INVALID_ARGUMENT for an empty task id or a bad config; CLOSED after close().
   */
  open(taskId: string, config?: WorkingMemoryConfig): Promise<SharedWorkingMemory>
}
