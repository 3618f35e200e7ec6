import { invalidArgument } from '../core/errors.js'
import { MAX_BELIEF_TYPE, MAX_CONTENT, MAX_ID, MAX_NOTE, MAX_REASON, assertName, assertUnit, type CheckedObservation } from './input.js'
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

/** An observation as the API checked it, in its task. */
export interface ObservationBody extends CheckedObservation {
  readonly task: string
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

/**
 * Why a body read from another replica is not one this module's API could have written (input.ts:
 * the same asserts and caps a caller's input meets), or null when it is. Never throws.
 */
export function workingBodyProblem(kind: string, b: unknown): string | null {
  try {
    checkWorkingBody(kind, b)
    return null
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
}

/** Whether a body read from another replica has the shape its kind promises, within the API's caps. */
export function isWorkingBody(kind: string, b: unknown): boolean {
  return workingBodyProblem(kind, b) === null
}

function only(b: Record<string, unknown>, keys: readonly string[]): void {
  for (const k of keys) if (!(k in b)) throw invalidArgument(`body.${k}`, 'is required')
  for (const k in b) if (Object.hasOwn(b, k) && !keys.includes(k)) throw invalidArgument(`body.${k}`, 'is not a field of this record')
}

function unitNumber(field: string, v: unknown): void {
  if (!isNum(v)) throw invalidArgument(field, 'must be a finite number')
  assertUnit(field, v)
}

function checkWorkingBody(kind: string, b: unknown): void {
  if (!isObj(b)) throw invalidArgument('body', 'must be an object')
  switch (kind) {
    case Kind.OBSERVATION:
      only(b, ['task', 'content', 'agent', 'attention', 'confidence', 'candidate', 'beliefType'])
      assertName('body.task', b['task'])
      assertName('body.content', b['content'], MAX_CONTENT)
      assertName('body.agent', b['agent'])
      unitNumber('body.attention', b['attention'])
      unitNumber('body.confidence', b['confidence'])
      if (typeof b['candidate'] !== 'boolean') throw invalidArgument('body.candidate', 'must be a boolean')
      if (b['beliefType'] !== null) assertName('body.beliefType', b['beliefType'], MAX_BELIEF_TYPE)
      return
    case Kind.CONFLICT:
      only(b, ['task', 'a', 'b', 'reason', 'by', 'similarity'])
      assertName('body.task', b['task'])
      assertName('body.a', b['a'], MAX_ID)
      assertName('body.b', b['b'], MAX_ID)
      assertName('body.reason', b['reason'], MAX_REASON)
      assertName('body.by', b['by'])
      if (b['similarity'] !== null && !isNum(b['similarity'])) throw invalidArgument('body.similarity', 'must be a finite number or null')
      return
    case Kind.RESOLVE:
      only(b, ['task', 'a', 'b', 'keep', 'note', 'by'])
      assertName('body.task', b['task'])
      assertName('body.a', b['a'], MAX_ID)
      assertName('body.b', b['b'], MAX_ID)
      if (b['keep'] !== null) assertName('body.keep', b['keep'], MAX_ID)
      if (b['note'] !== null) assertName('body.note', b['note'], MAX_NOTE)
      if (b['by'] !== null) assertName('body.by', b['by'])
      return
    default:
      throw invalidArgument('kind', `${kind} is not a replicated working-memory kind`)
  }
}
