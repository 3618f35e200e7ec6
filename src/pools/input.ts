import { invalidArgument } from '../core/errors.js'
import { parseAgentDid, type AgentDid } from '../core/identity.js'
import {
  MemoryType, MergeStrategy, PrivacyLevel, type MemoryContent, type MemoryId, type PoolId, type PoolPolicies, type QueryOptions,
} from './types.js'

/**
 * Validation at the API edge (STYLE.md rule 15): small labelled asserts, INVALID_ARGUMENT naming the
 * field. The same asserts and caps judge records that arrive from elsewhere (record-shape.ts): what
 * the API refuses from a caller, a replica refuses from a peer.
 */

const DAY = 24 * 3600

/** A memory's subject and predicate at most, in UTF-16 code units. */
export const MAX_KEY_CHARS = 512
/** A memory's object (as text) and context, and any other free text of the API, at most. */
export const MAX_TEXT_CHARS = 4096
/** A memory's `source` at most. */
export const MAX_SOURCE_CHARS = 256
/** A pool's name at most. */
export const MAX_POOL_NAME_CHARS = 256
const HEX32 = /^[0-9a-f]{32}$/

export const DEFAULT_POLICIES: PoolPolicies = {
  forgetBy: 'author',
  maxSize: null,
  pruningThreshold: 0.9,
  autoMerge: false,
  deduplication: true,
  mergeStrategy: 'recent',
  similarity: 0.6,
  multiValuedPredicates: [],
  trustedSources: ['direct_statement', 'user'],
  trustedAgents: [],
  humans: [],
  conflictRecency: DAY,
  staleAfter: 30 * DAY,
  archiveAfter: 90 * DAY,
  recencyHalfLife: 30 * DAY,
  ephemeralTtl: 3600,
  factTypes: ['KNOWLEDGE', 'PREFERENCE', 'RELATIONSHIP', 'TEMPORAL'],
}

const TYPES = new Set<string>(Object.values(MemoryType))
const LEVELS = new Set<string>(Object.values(PrivacyLevel))
const STRATEGIES = new Set<string>(Object.values(MergeStrategy))

function normalizeId(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalidArgument(field, 'must be a string')
  const v = value.toLowerCase().replace(/^0x/, '')
  if (!HEX32.test(v)) throw invalidArgument(field, 'must be 32 hex digits')
  return v
}

/** Parses a pool id (32 hex digits, an optional `0x`). @throws INVALID_ARGUMENT */
export function parsePoolId(value: unknown, field = 'poolId'): PoolId {
  return normalizeId(value, field) as PoolId
}

/** Parses a memory id (32 hex digits, an optional `0x`). @throws INVALID_ARGUMENT */
export function parseMemoryId(value: unknown, field = 'memoryId'): MemoryId {
  return normalizeId(value, field) as MemoryId
}

export function assertDid(value: unknown, field = 'agentDid'): AgentDid {
  if (typeof value !== 'string') throw invalidArgument(field, 'must be a did:key string')
  try {
    return parseAgentDid(value)
  } catch {
    throw invalidArgument(field, 'must be an Ed25519 did:key')
  }
}

export function assertText(value: unknown, field: string, max = MAX_TEXT_CHARS): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidArgument(field, 'must be a non-empty string')
  if (value.length > max) throw invalidArgument(field, `is longer than ${max} characters`)
  if (!value.isWellFormed()) throw invalidArgument(field, 'contains a lone UTF-16 surrogate')
  return value
}

export function assertType(value: unknown, field = 'type'): MemoryType {
  if (typeof value !== 'string' || !TYPES.has(value)) throw invalidArgument(field, `must be one of ${[...TYPES].join(', ')}`)
  return value as MemoryType
}

export function assertStrategy(value: unknown, field = 'strategy'): MergeStrategy {
  if (typeof value !== 'string' || !STRATEGIES.has(value)) throw invalidArgument(field, `must be one of ${[...STRATEGIES].join(', ')}`)
  return value as MergeStrategy
}

/** 0..1, rounded to basis points (LCS-004 keeps confidence in basis points). */
export function assertConfidence(value: unknown, field = 'confidence'): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) throw invalidArgument(field, 'must be a number in [0, 1]')
  return Math.round(value * 10_000) / 10_000
}

/** Seconds, finite and positive; null/undefined stay null. */
export function assertSeconds(value: unknown, field: string): number | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw invalidArgument(field, 'must be a positive number of seconds')
  return value
}

export function assertContent(value: unknown, field = 'content'): Required<MemoryContent> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(field, 'must be an object with subject, predicate, object')
  const c = value as Record<string, unknown>
  const subject = assertText(c['subject'], `${field}.subject`, MAX_KEY_CHARS)
  const predicate = assertText(c['predicate'], `${field}.predicate`, MAX_KEY_CHARS)
  const object = c['object']
  if (typeof object === 'string') assertText(object, `${field}.object`)
  else if (!(typeof object === 'boolean' || (typeof object === 'number' && Number.isFinite(object)))) {
    throw invalidArgument(`${field}.object`, 'must be a string, a finite number or a boolean')
  }
  const context = c['context']
  if (context !== undefined && context !== null) assertText(context, `${field}.context`)
  return {
    subject,
    predicate,
    object: object as string | number | boolean,
    context: typeof context === 'string' ? context : null,
  }
}

export interface PrivacyFlags {
  readonly public: boolean
  readonly authorized: boolean
  readonly encrypted: boolean
  readonly ephemeral: boolean
  readonly noTraining: boolean
}

export function assertPrivacy(value: unknown, field = 'privacy'): PrivacyFlags {
  const list = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]
  for (const level of list) {
    if (typeof level !== 'string' || !LEVELS.has(level)) throw invalidArgument(field, `must be one or more of ${[...LEVELS].join(', ')}`)
  }
  const has = (l: string): boolean => list.includes(l)
  if (has('PUBLIC') && has('AUTHORIZED')) throw invalidArgument(field, 'cannot be both PUBLIC and AUTHORIZED')
  return { public: has('PUBLIC'), authorized: has('AUTHORIZED'), encrypted: has('ENCRYPTED'), ephemeral: has('EPHEMERAL'), noTraining: has('NO_TRAINING') }
}

export function assertEvidence(value: unknown, field = 'evidence'): MemoryId[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw invalidArgument(field, 'must be an array of memory ids')
  return [...new Set(value.map((v, i) => parseMemoryId(v, `${field}[${i}]`)))].sort()
}

function fraction(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1) throw invalidArgument(field, 'must be a number in (0, 1]')
  return value
}

function strings(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) throw invalidArgument(field, 'must be an array of strings')
  return [...value]
}

/** Merges a partial policy object over `base`, validating every field given. */
export function mergePolicies(base: PoolPolicies, patch: unknown, field = 'policies'): PoolPolicies {
  if (patch === undefined || patch === null) return base
  if (typeof patch !== 'object' || Array.isArray(patch)) throw invalidArgument(field, 'must be an object')
  const p = patch as Record<string, unknown>
  const known = new Set(Object.keys(DEFAULT_POLICIES))
  for (const key of Object.keys(p)) if (!known.has(key)) throw invalidArgument(`${field}.${key}`, 'is not a pool policy')
  const out: Record<string, unknown> = { ...base }
  const bool = (k: string): void => {
    if (p[k] === undefined) return
    if (typeof p[k] !== 'boolean') throw invalidArgument(`${field}.${k}`, 'must be a boolean')
    out[k] = p[k]
  }
  const secs = (k: string): void => {
    if (p[k] === undefined) return
    out[k] = assertSeconds(p[k], `${field}.${k}`) ?? (base as unknown as Record<string, unknown>)[k]
  }
  if (p['maxSize'] !== undefined) {
    const m = p['maxSize']
    if (m !== null && (typeof m !== 'number' || !Number.isInteger(m) || m < 1)) throw invalidArgument(`${field}.maxSize`, 'must be a positive integer or null')
    out['maxSize'] = m
  }
  if (p['pruningThreshold'] !== undefined) out['pruningThreshold'] = fraction(p['pruningThreshold'], `${field}.pruningThreshold`)
  if (p['similarity'] !== undefined) out['similarity'] = fraction(p['similarity'], `${field}.similarity`)
  if (p['forgetBy'] !== undefined) {
    if (p['forgetBy'] !== 'author' && p['forgetBy'] !== 'writers') throw invalidArgument(`${field}.forgetBy`, "must be 'author' or 'writers'")
    out['forgetBy'] = p['forgetBy']
  }
  bool('autoMerge')
  bool('deduplication')
  if (p['mergeStrategy'] !== undefined) out['mergeStrategy'] = assertStrategy(p['mergeStrategy'], `${field}.mergeStrategy`)
  for (const k of ['multiValuedPredicates', 'trustedSources'] as const) if (p[k] !== undefined) out[k] = strings(p[k], `${field}.${k}`)
  for (const k of ['trustedAgents', 'humans'] as const) if (p[k] !== undefined) out[k] = strings(p[k], `${field}.${k}`).map((d, i) => assertDid(d, `${field}.${k}[${i}]`))
  if (p['factTypes'] !== undefined) out['factTypes'] = strings(p['factTypes'], `${field}.factTypes`).map((t, i) => assertType(t, `${field}.factTypes[${i}]`))
  for (const k of ['conflictRecency', 'staleAfter', 'archiveAfter', 'recencyHalfLife', 'ephemeralTtl']) secs(k)
  if ((out['archiveAfter'] as number) < (out['staleAfter'] as number)) throw invalidArgument(`${field}.archiveAfter`, 'must be at least staleAfter')
  return out as unknown as PoolPolicies
}

export interface NormalizedQuery {
  readonly types: ReadonlySet<string> | null
  readonly minConfidence: number
  readonly limit: number | null
  readonly subject: string | null
  readonly predicate: string | null
  readonly includeArchived: boolean
  readonly includeSuperseded: boolean
  readonly forTraining: boolean
  readonly orderBy: 'importance' | 'recent' | 'confidence'
  readonly publicOnly: boolean
}

export function assertQueryOptions(value: unknown): NormalizedQuery {
  if (value === undefined || value === null) value = {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument('options', 'must be an object')
  const o = value as QueryOptions
  const typeList = o.type === undefined ? null : Array.isArray(o.type) ? o.type : [o.type]
  const limit = o.limit
  if (limit !== undefined && limit !== null && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0)) {
    throw invalidArgument('limit', 'must be a non-negative integer')
  }
  const orderBy = o.orderBy ?? 'importance'
  if (!['importance', 'recent', 'confidence'].includes(orderBy)) throw invalidArgument('orderBy', 'must be importance, recent or confidence')
  return {
    types: typeList ? new Set(typeList.map((t, i) => assertType(t, `type[${i}]`))) : null,
    minConfidence: o.minConfidence === undefined ? 0 : assertConfidence(o.minConfidence, 'minConfidence'),
    limit: limit ?? null,
    subject: o.subject === undefined ? null : assertText(o.subject, 'subject'),
    predicate: o.predicate === undefined ? null : assertText(o.predicate, 'predicate'),
    includeArchived: o.includeArchived === true,
    includeSuperseded: o.includeSuperseded === true,
    forTraining: o.forTraining === true,
    orderBy,
    publicOnly: o.publicOnly === true,
  }
}

/**
 * '' and null both mean the default tenant: the fact store's own rule (one definition: a pool's
 * tenant is the tenant of its facts, and a tenant the fact store refuses would stop its fact view).
 */
export { normalizeTenant } from '../facts/input.js'
