import type { EvictionReason } from './types.js'

/**
 * Working memory's record kinds in the shared `records` table. Every record carries its task in
 * `body.task`; the record log delivers these kinds, and only these, to working memory's deriver.
 */
export const Kind = {
  OBSERVATION: 'observation',
  /** A decay of every observation, or a boost of one. */
  ATTENTION: 'attention',
  /** One getContextForAgent() call: which agent received which observations. */
  ACCESS: 'wm-access',
  CONFLICT: 'wm-conflict',
  RESOLVE: 'wm-resolve',
  EVICT: 'wm-evict',
  /** Attention and access folded up to its stamp; the records it folds are deleted with it. */
  CHECKPOINT: 'wm-checkpoint',
} as const
export type Kind = (typeof Kind)[keyof typeof Kind]

export const WORKING_KINDS: readonly Kind[] = Object.values(Kind)
const KIND_SET: ReadonlySet<string> = new Set(WORKING_KINDS)
export const isWorkingKind = (kind: string): kind is Kind => KIND_SET.has(kind)

export interface ObservationBody {
  readonly task: string
  readonly content: string
  readonly agent: string
  /** Initial attention weight. */
  readonly attention: number
  readonly confidence: number
  readonly candidate: boolean
  readonly beliefType: string | null
}

export type AttentionBody =
  | { readonly task: string; readonly op: 'decay'; readonly factor: number }
  | { readonly task: string; readonly op: 'boost'; readonly target: string; readonly amount: number }

export interface AccessBody {
  readonly task: string
  readonly agent: string
  readonly targets: readonly string[]
}

export interface ConflictBody {
  readonly task: string
  readonly a: string
  readonly b: string
  readonly reason: string
  /** `'detector'` or the flagging agent. */
  readonly by: string
  readonly similarity: number | null
}

export interface ResolveBody {
  readonly task: string
  readonly a: string
  readonly b: string
  readonly keep: string | null
  readonly note: string | null
  readonly by: string | null
}

export interface EvictBody {
  readonly task: string
  readonly target: string
  readonly reason: EvictionReason
  /** Attention and access at eviction, so the audit view needs nothing else. */
  readonly weight: number
  readonly accessCount: number
  readonly accessedBy: readonly string[]
}

export interface CheckpointBody {
  readonly task: string
  /** Observation id -> attention weight at the checkpoint. */
  readonly weights: Readonly<Record<string, number>>
  /** Observation id -> [access count, agents]. */
  readonly access: Readonly<Record<string, readonly [number, readonly string[]]>>
}

export interface BodyOf {
  observation: ObservationBody
  attention: AttentionBody
  'wm-access': AccessBody
  'wm-conflict': ConflictBody
  'wm-resolve': ResolveBody
  'wm-evict': EvictBody
  'wm-checkpoint': CheckpointBody
}

/** The unordered pair key of two observations. */
export const pairKey = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`)

const isObj = (b: unknown): b is Record<string, unknown> => typeof b === 'object' && b !== null && !Array.isArray(b)
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/**
 * The working-memory kinds that replicate when a task is shared through a pool: observations
 * (immutable content and attribution) and the conflicts flagged and resolved between them.
 * Attention, access, eviction and checkpoints are each replica's own mutable state (FR-001: "attention
 * and access are the only mutable state"), so they never leave it.
 */
export const REPLICATED_WORKING_KINDS: readonly Kind[] = [Kind.OBSERVATION, Kind.CONFLICT, Kind.RESOLVE]

/** Whether a body read from another replica has the shape its kind promises. */
export function isWorkingBody(kind: string, b: unknown): boolean {
  if (!isObj(b) || typeof b['task'] !== 'string') return false
  switch (kind) {
    case Kind.OBSERVATION:
      return typeof b['content'] === 'string' && typeof b['agent'] === 'string' && isNum(b['attention']) && isNum(b['confidence']) &&
        typeof b['candidate'] === 'boolean' && (b['beliefType'] === null || typeof b['beliefType'] === 'string')
    case Kind.CONFLICT:
      return typeof b['a'] === 'string' && typeof b['b'] === 'string' && typeof b['reason'] === 'string' && typeof b['by'] === 'string' &&
        (b['similarity'] === null || isNum(b['similarity']))
    case Kind.RESOLVE:
      return typeof b['a'] === 'string' && typeof b['b'] === 'string' && (b['keep'] === null || typeof b['keep'] === 'string') &&
        (b['note'] === null || typeof b['note'] === 'string') && (b['by'] === null || typeof b['by'] === 'string')
    default:
      return false
  }
}
