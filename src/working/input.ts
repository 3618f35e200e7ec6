import { invalidArgument } from '../core/errors.js'
import { AgentRole, type AddObservationInput, type WorkingMemoryConfig } from './types.js'

/** An observation's content at most. */
export const MAX_CONTENT = 64 * 1024
/** A task, agent or other name at most (`assertName`'s default). */
export const MAX_NAME = 256
/** An observation id as the API takes it (`a`, `b`, `keep`) at most. */
export const MAX_ID = 64
/** A flag's reason or a resolution's note, as a caller gives them, at most. */
export const MAX_NOTE = 2000
/** A belief type at most. */
export const MAX_BELIEF_TYPE = 64
/**
 * A conflict's reason at most: a caller's is capped at MAX_NOTE, the detector's quotes the two
 * observations' differing values, each at most MAX_CONTENT.
 */
export const MAX_REASON = 2 * MAX_CONTENT + MAX_NOTE

export const DEFAULT_CONFIG: Required<WorkingMemoryConfig> = {
  maxItemsPerAgent: 7,
  maxTotalItems: 50,
  attentionDecayFactor: 0.9,
  conflictThreshold: 0.7,
  syncIntervalIterations: 3,
  detectConflicts: true,
  pool: null,
}

export function assertName(field: string, value: unknown, max = MAX_NAME): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidArgument(field, 'must be a non-empty string')
  if (value.length > max) throw invalidArgument(field, `must be at most ${max} characters`)
  return value
}

export function assertUnit(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) throw invalidArgument(field, 'must be a number in [0, 1]')
  return value
}

function assertCount(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalidArgument(field, 'must be a positive integer')
  return value
}

export function assertFactor(field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1) throw invalidArgument(field, 'must be a number in (0, 1]')
  return value
}

export function resolveConfig(config: unknown): Required<WorkingMemoryConfig> {
  if (config === undefined || config === null) return DEFAULT_CONFIG
  if (typeof config !== 'object') throw invalidArgument('config', 'must be an object')
  const c = { ...DEFAULT_CONFIG, ...(config as WorkingMemoryConfig) }
  assertCount('maxItemsPerAgent', c.maxItemsPerAgent)
  assertCount('maxTotalItems', c.maxTotalItems)
  assertFactor('attentionDecayFactor', c.attentionDecayFactor)
  assertUnit('conflictThreshold', c.conflictThreshold)
  assertCount('syncIntervalIterations', c.syncIntervalIterations)
  if (typeof c.detectConflicts !== 'boolean') throw invalidArgument('detectConflicts', 'must be a boolean')
  if (c.pool !== null && typeof c.pool !== 'string') throw invalidArgument('pool', 'must be a pool id or null')
  return Object.freeze(c)
}

/** An observation as the API checked it: its record's body (ObservationBody) but the task, which the call names. */
export interface CheckedObservation {
  readonly content: string
  readonly agent: string
  /** Initial attention weight. */
  readonly attention: number
  readonly confidence: number
  readonly candidate: boolean
  readonly beliefType: string | null
}

export function assertObservation(input: unknown): CheckedObservation {
  if (typeof input !== 'object' || input === null) throw invalidArgument('observation', 'must be an object')
  const o = input as AddObservationInput
  const content = assertName('content', o.content, MAX_CONTENT)
  const agent = assertName('sourceAgentId', o.sourceAgentId)
  const attention = o.attentionWeight === undefined ? 0.5 : assertUnit('attentionWeight', o.attentionWeight)
  const confidence = o.confidence === undefined ? 1 : assertUnit('confidence', o.confidence)
  if (o.isBeliefCandidate !== undefined && typeof o.isBeliefCandidate !== 'boolean') throw invalidArgument('isBeliefCandidate', 'must be a boolean')
  // Belief types compare case-insensitively ("fact" is FACT).
  const beliefType = o.beliefType === undefined || o.beliefType === null ? null : assertName('beliefType', o.beliefType, MAX_BELIEF_TYPE).trim().toUpperCase()
  return { content, agent, attention, confidence, candidate: o.isBeliefCandidate ?? false, beliefType }
}

export function assertRole(role: unknown): AgentRole {
  if (typeof role !== 'string' || !(role in AgentRole)) {
    throw invalidArgument('role', `must be one of ${Object.keys(AgentRole).join(', ')}`)
  }
  return role as AgentRole
}

export function assertMaxItems(value: unknown): number | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalidArgument('maxItems', 'must be a non-negative integer')
  return value
}
