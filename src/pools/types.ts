import type { AgentDid } from '../core/identity.js'
import type { FactRef } from '../facts/types.js'

/**
 * Public types of LCS-004 memory pools. Units, everywhere in this module: confidences are 0..1
 * (kept to basis-point precision), importance is 0..10000 (LCS-004 §8's cap), durations (`ttl`,
 * `duration`, policy ages) are seconds as in LCS-004's examples, instants are epoch milliseconds.
 */

/** A pool id: 32 hex digits (BLAKE2b-128 of owner, nonce and tenant). Made by `parsePoolId`. */
export type PoolId = string & { readonly __brand: 'PoolId' }
/** A memory id: 32 hex digits, the content id of the memory's record. Made by `parseMemoryId`. */
export type MemoryId = string & { readonly __brand: 'MemoryId' }

/** LCS-004 §1 `MemoryType`. */
export const MemoryType = {
  PREFERENCE: 'PREFERENCE',
  CONTEXT: 'CONTEXT',
  KNOWLEDGE: 'KNOWLEDGE',
  PROCEDURE: 'PROCEDURE',
  RELATIONSHIP: 'RELATIONSHIP',
  TEMPORAL: 'TEMPORAL',
} as const
export type MemoryType = (typeof MemoryType)[keyof typeof MemoryType]

/** LCS-004 §7 privacy layers. A memory may carry several (e.g. AUTHORIZED + NO_TRAINING). */
export const PrivacyLevel = {
  /** Any agent can read it, member of the pool or not. Not allowed in an encrypted pool. */
  PUBLIC: 'PUBLIC',
  /** Only the pool's readers (the default). */
  AUTHORIZED: 'AUTHORIZED',
  /** Sealed with AES-256-GCM under the pool key; a property of the pool, chosen at creation. */
  ENCRYPTED: 'ENCRYPTED',
  /** Deleted after its first read by another agent, or when its author's session ends. */
  EPHEMERAL: 'EPHEMERAL',
  /** Must not be used for model training; carried through every export and view. */
  NO_TRAINING: 'NO_TRAINING',
} as const
export type PrivacyLevel = (typeof PrivacyLevel)[keyof typeof PrivacyLevel]

/** LCS-004 §4.4 merge strategies (0 = average, 1 = maximum, 2 = recent). */
export const MergeStrategy = {
  AVERAGE: 'average',
  MAXIMUM: 'maximum',
  RECENT: 'recent',
} as const
export type MergeStrategy = (typeof MergeStrategy)[keyof typeof MergeStrategy]

/** LCS-004 §10 lifecycle. */
export const Lifecycle = {
  CREATED: 'created',
  ACTIVE: 'active',
  STALE: 'stale',
  ARCHIVED: 'archived',
  FORGOTTEN: 'forgotten',
} as const
export type Lifecycle = (typeof Lifecycle)[keyof typeof Lifecycle]

/** LCS-004 §3 `content`. */
export interface MemoryContent {
  readonly subject: string
  readonly predicate: string
  readonly object: string | number | boolean
  readonly context?: string | null
}

export interface MemoryPrivacy {
  readonly visibility: 'PUBLIC' | 'AUTHORIZED'
  readonly encrypted: boolean
  readonly ephemeral: boolean
  readonly noTraining: boolean
}

/** A memory as the pool API returns it. */
export interface PoolMemory {
  readonly id: MemoryId
  readonly pool: PoolId
  readonly tenantId: string | null
  readonly type: MemoryType
  readonly content: MemoryContent
  /** 0..1. */
  readonly confidence: number
  /** Where it came from, e.g. `'direct_statement'`, `'inference'`, `'merge'`, `'import'`. */
  readonly source: string
  /** LCS-004 §3 `supporting_evidence`: ids of memories this one rests on. */
  readonly evidence: readonly MemoryId[]
  /** The creating agent (LCS-004 `creatingAgent`), who signed the record. */
  readonly author: AgentDid
  /** Epoch ms. */
  readonly createdAt: number
  /** Seconds, or null for no TTL. */
  readonly ttl: number | null
  /** Epoch ms at which the memory expires, or null. */
  readonly expiresAt: number | null
  readonly permanent: boolean
  readonly privacy: MemoryPrivacy
  readonly accessCount: number
  /** Epoch ms of the last read, or null. */
  readonly lastAccessed: number | null
  /** LCS-004 §8, 0..10000, at the time of the call. */
  readonly importance: number
  readonly lifecycle: Exclude<Lifecycle, 'forgotten'>
  /** False once superseded (by an update, a merge or a conflict resolution). */
  readonly current: boolean
  /** Memories this one replaces (an update's predecessor, a merge's sources). */
  readonly supersedes: readonly MemoryId[]
  /** Current memories that replace this one. */
  readonly supersededBy: readonly MemoryId[]
  /** Set on a merge result: how and from what it was made. */
  readonly merged: { readonly strategy: MergeStrategy; readonly from: readonly MemoryId[] } | null
  /** Mean user rating in [-1, 1], or null when unrated. */
  readonly rating: number | null
  /** Current memories of the pool this one contradicts (see `conflicts()`). */
  readonly conflictsWith: readonly MemoryId[]
  /** The fact that shows this memory in `mem.facts`, when it has one. */
  readonly factRef: FactRef | null
}

export interface PoolPolicies {
  /**
   * Who may forget (hard-delete) a memory: `'author'` (default): its author and the owner;
   * `'writers'`: any writer. Expiry and EPHEMERAL consumption count for anyone whatever this says,
   * where every replica can check them (docs/pools.md, "Forget").
   */
  readonly forgetBy: 'author' | 'writers'
  /** Cap on stored memories (superseded ones count); null for none. */
  readonly maxSize: number | null
  /** When the pool exceeds maxSize, the least important memories are pruned down to this fraction of it. */
  readonly pruningThreshold: number
  /** Merge near-duplicates on write (sources kept as provenance of the merge). */
  readonly autoMerge: boolean
  /** A write equal to a current memory returns that memory instead of storing a copy. */
  readonly deduplication: boolean
  /** Strategy autoMerge uses. */
  readonly mergeStrategy: MergeStrategy
  /** Token similarity (0..1) of object and context above which two memories are near-duplicates. */
  readonly similarity: number
  /** Predicates that may hold several objects at once: never a conflict. */
  readonly multiValuedPredicates: readonly string[]
  /** Sources that LCS-004 §6's "source authority" rule prefers. */
  readonly trustedSources: readonly string[]
  /** Agents whose memories get full source authority in importance (the owner always has it). */
  readonly trustedAgents: readonly string[]
  /**
   * Identities that act for people in this pool, besides the owner: only they may write the
   * human-owned SMALL documents (intent, constraints) of a project shared through the pool.
   */
  readonly humans: readonly string[]
  /** §6 "recency preferred": seconds apart beyond which the newer memory is suggested. */
  readonly conflictRecency: number
  /** Seconds without a read after which a memory is stale. */
  readonly staleAfter: number
  /** Seconds without a read after which a memory is archived. */
  readonly archiveAfter: number
  /** Half-life in seconds of the recency term of importance. */
  readonly recencyHalfLife: number
  /** TTL in seconds given to an EPHEMERAL memory written without one (bounds residue after a crash). */
  readonly ephemeralTtl: number
  /** Memory types that are also facts in `mem.facts` (unencrypted, non-ephemeral memories only). */
  readonly factTypes: readonly MemoryType[]
}

export interface PoolMember {
  readonly did: AgentDid
  readonly read: boolean
  readonly write: boolean
  readonly owner: boolean
  /** Epoch ms at which the grant lapses, or null. */
  readonly expiresAt: number | null
}

export interface PoolInfo {
  readonly id: PoolId
  readonly owner: AgentDid
  readonly tenantId: string | null
  readonly name: string | null
  readonly encrypted: boolean
  /** Pool-wide NO_TRAINING: every memory carries the flag. */
  readonly noTraining: boolean
  readonly createdAt: number
  /**
   * The pool-create record's nonce (32 hex digits; the id is `derivePoolId(owner, nonce, tenantId)`).
   * Public like the record itself; the owner passes it as `createPoolToken`'s `ownerProof` so a relay
   * pins the pool to its real owner (docs/relay.md, "Owners").
   */
  readonly nonce: string
  readonly policies: PoolPolicies
  /** Members with a live grant (the owner first). */
  readonly members: readonly PoolMember[]
  /** The calling identity's rights. */
  readonly access: Rights
  /** Stored memories (live, including superseded ones). */
  readonly size: number
  /** Current memories. */
  readonly current: number
  /**
   * Memories sealed under a key this identity does not hold (not yet wrapped for it, or an identity
   * that cannot do key agreement, such as a non-extractable WebCrypto key): invisible to its reads.
   */
  readonly sealed: number
  /**
   * Current memories that have no fact in `mem.facts` because the fact store refused it, with its
   * reason (docs/pools.md, "Fact view"). Empty unless the facts store's caps refuse what the pool's
   * accept; such a memory stays in the pool and stops nothing else. Empty for a non-reader.
   */
  readonly factsRefused: ReadonlyArray<{ readonly memoryId: MemoryId; readonly reason: string }>
}

export interface Rights {
  readonly read: boolean
  readonly write: boolean
  readonly owner: boolean
}

export interface CreatePoolOptions {
  readonly name?: string | null
  /** The pool's tenant; its fact views live in this tenant. */
  readonly tenantId?: string | null
  /** `'ENCRYPTED'` seals every memory; `'NO_TRAINING'` flags every memory; `'PUBLIC'` makes PUBLIC the default visibility. */
  readonly privacy?: PrivacyLevel | readonly PrivacyLevel[]
  readonly policies?: Partial<PoolPolicies>
}

export interface WriteMemoryInput {
  readonly type: MemoryType
  readonly content: MemoryContent
  /** 0..1, default 1. */
  readonly confidence?: number
  /** Default `'direct_statement'`. */
  readonly source?: string
  readonly evidence?: readonly string[]
  /** Seconds to live; absent or null for none. */
  readonly ttl?: number | null
  /** Never expires and is never pruned or archived. */
  readonly permanent?: boolean
  readonly privacy?: PrivacyLevel | readonly PrivacyLevel[]
}

export type UpdateMemoryInput = Partial<WriteMemoryInput>

export interface QueryOptions {
  readonly type?: MemoryType | readonly MemoryType[]
  /** 0..1. */
  readonly minConfidence?: number
  readonly limit?: number
  readonly subject?: string
  readonly predicate?: string
  /** Include archived memories (default false). */
  readonly includeArchived?: boolean
  /** Include superseded memories (default false). */
  readonly includeSuperseded?: boolean
  /** Leave out NO_TRAINING memories (for a training pipeline). */
  readonly forTraining?: boolean
  /** Default `'importance'` (highest first). */
  readonly orderBy?: 'importance' | 'recent' | 'confidence'
  /** Only PUBLIC memories; the one way an agent without read access may query a pool. */
  readonly publicOnly?: boolean
}

export interface ForgetOptions {
  /** Also forget memories that rest on this one (supporting evidence or merge sources), transitively. */
  readonly cascade?: boolean
}

export interface ShareOptions {
  /** Grant write access too (default read only). */
  readonly write?: boolean
  /** Seconds until the grant lapses (LCS-004 §9 example `duration`). */
  readonly duration?: number | null
}

export type ConflictRule = 'recency' | 'confidence' | 'source-authority' | 'merge'

/** Two current memories that contradict each other, with LCS-004 §6's order as a suggestion. */
export interface PoolConflict {
  /** Stable id of the pair. */
  readonly id: string
  readonly pool: PoolId
  readonly kind: 'contradiction' | 'competing-update'
  readonly memories: readonly [MemoryId, MemoryId]
  readonly subject: string
  readonly predicate: string
  readonly context: string | null
  readonly suggestion: {
    /** Null when the suggestion is to merge. */
    readonly winner: MemoryId | null
    readonly rule: ConflictRule
    readonly reason: string
    /** Set when rule is `'merge'`. */
    readonly strategy?: MergeStrategy
  }
}

/**
 * Every current memory caught in one conflict: a slot (subject, predicate, context) holding values
 * that contradict, or two or more memories replacing the same one. A slot with k values is one
 * group, not k²/2 pairs: what `conflictGroups()` lists and `resolve()` settles in one step.
 */
export interface PoolConflictGroup {
  /** Stable id of the group's members (a group of two has its pair's id). */
  readonly id: string
  readonly pool: PoolId
  readonly kind: 'contradiction' | 'competing-update'
  /** Every member, sorted (a slot group: every current memory of the slot). */
  readonly memories: readonly MemoryId[]
  readonly subject: string
  readonly predicate: string
  readonly context: string | null
  /**
   * LCS-004 §6 over the group: the member that the pairwise rule prefers to every other one (its
   * rule the last one in §6's order it needed), else a merge of all.
   */
  readonly suggestion: PoolConflict['suggestion']
}

/** One page of a pool's conflict groups, and how many there are. */
export interface ConflictGroupPage {
  /** Conflict groups in the pool now. */
  readonly total: number
  /** At most `limit` of them from `offset`, contradictions first, then by first member. */
  readonly groups: readonly PoolConflictGroup[]
}

/** Which part of a conflict listing to return. */
export interface ConflictListOptions {
  /** At most this many (1..10,000; default 1,000). */
  readonly limit?: number
  /** Skip this many first (default 0; groups only). */
  readonly offset?: number
}

export type ConflictDecision =
  | { readonly winner: string }
  | { readonly strategy: MergeStrategy }
  | 'suggested'

/** One hard delete in a pool (`mem.pools.forgotten`): which memory, by whom, why, when. */
export interface ForgottenMemory {
  readonly memory: MemoryId
  /** The signer of the tombstone that forgot it (the earliest one that may, docs/pools.md "Trust model"). */
  readonly by: AgentDid
  /** `forget`, `cascade`, `ephemeral` (a read consumed it), `session-end`, `expired` or `pruned`. */
  readonly reason: 'forget' | 'cascade' | 'ephemeral' | 'session-end' | 'expired' | 'pruned'
  /** Epoch ms of the tombstone (its author's clock). */
  readonly at: number
}

/** What a live pool view (`mem.pools.subscribe`) delivers: the pool's header and its memories as `query()` lists them. */
export interface PoolSnapshot {
  readonly info: PoolInfo
  readonly memories: readonly PoolMemory[]
}

/** The pool API (`mem.pools`). Every operation acts as the memory's identity. */
export interface Pools {
  create(options?: CreatePoolOptions): Promise<PoolInfo>
  info(poolId: string): Promise<PoolInfo>
  list(): Promise<PoolInfo[]>
  access(poolId: string, agentDid?: string): Promise<Rights>
  share(poolId: string, agentDid: string, options?: ShareOptions): Promise<void>
  revoke(poolId: string, agentDid: string): Promise<void>
  configure(poolId: string, policies: Partial<PoolPolicies>): Promise<PoolInfo>
  write(poolId: string, input: WriteMemoryInput): Promise<PoolMemory>
  update(memoryId: string, changes: UpdateMemoryInput): Promise<PoolMemory>
  get(memoryId: string): Promise<PoolMemory | null>
  status(memoryId: string): Promise<Lifecycle | null>
  query(poolId: string, options?: QueryOptions): Promise<PoolMemory[]>
  /** A live view of a pool (header and memories), not counted as reads; see PoolStore.subscribe. Returns the unsubscribe function. */
  subscribe(poolId: string, options: QueryOptions, callback: (snapshot: PoolSnapshot) => void): Promise<() => void>
  merge(memoryIds: readonly string[], strategy?: MergeStrategy): Promise<PoolMemory>
  forget(memoryId: string, options?: ForgetOptions): Promise<MemoryId[]>
  forgotten(poolId: string): Promise<ForgottenMemory[]>
  rate(memoryId: string, rating: number): Promise<void>
  conflicts(poolId: string, options?: ConflictListOptions): Promise<PoolConflict[]>
  conflictGroups(poolId: string, options?: ConflictListOptions): Promise<ConflictGroupPage>
  resolve(conflictId: string, decision?: ConflictDecision): Promise<PoolMemory>
  sweep(poolId: string): Promise<MemoryId[]>
  export(poolId: string): Promise<PoolExport>
  import(data: unknown, options?: ImportOptions): Promise<ImportResult>
  flush(): Promise<void>
}

/** LCS-004 §3 content format of one memory, as export writes it. */
export interface ExportedMemory {
  readonly version: '1.0.0'
  readonly memory_id: string
  readonly type: MemoryType
  readonly content: { subject: string; predicate: string; object: string | number | boolean; context?: string }
  readonly metadata: {
    readonly confidence: number
    readonly source: string
    readonly supporting_evidence: readonly string[]
    readonly creating_agent: string
    readonly timestamp: string
    readonly ttl: number | null
    readonly permanent: boolean
    readonly access_count: number
    readonly last_accessed: string | null
    readonly importance: number
    readonly supersedes: readonly string[]
    readonly merged_from: { strategy: MergeStrategy; memory_ids: readonly string[] } | null
  }
  readonly privacy: {
    readonly encryption: 'aes-256-gcm' | 'none'
    readonly visibility: 'public' | 'authorized_agents_only'
    readonly no_training: boolean
  }
}

/** A pool in LCS-004's JSON content format: the pool's header and its memories. */
export interface PoolExport {
  readonly version: '1.0.0'
  readonly format: 'lcs-004-pool'
  readonly pool: {
    readonly pool_id: string
    readonly owner: string
    readonly tenant: string | null
    readonly name: string | null
    readonly encryption: 'aes-256-gcm' | 'none'
    readonly no_training: boolean
    readonly exported_at: string
    readonly exported_by: string
    readonly policies: Record<string, unknown>
  }
  readonly memories: readonly ExportedMemory[]
}

export interface ImportOptions {
  /** Import into this existing pool (needs write access); default: a new pool owned by the caller. */
  readonly poolId?: string
  /** For a new pool. */
  readonly tenantId?: string | null
}

export interface ImportResult {
  readonly pool: PoolInfo
  /** Exported memory id (as written in the file) -> id in the pool. */
  readonly ids: ReadonlyMap<string, MemoryId>
}
