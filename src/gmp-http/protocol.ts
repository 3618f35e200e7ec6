import { fromBase64, toBase64, toHex } from '../core/bytes.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { isIdentity } from '../core/identity.js'
import { contentFactId, structuredFactId, type FactObject } from '../core/ids.js'
import type { JudgeMark } from '../conflict-judge/types.js'
import type { FactConflict, FactRef, FactMemory, RetrieveOptions, SourceMeta, WriteOptions } from '../facts/types.js'

/**
 * GMP over HTTP + JSON (shared/specs/gmp/WIRE.md): the JSON shapes and their mapping to the
 * camelCase TypeScript binding. The shapes are GMP's, not ours, so they carry no `type` or
 * version field (STYLE.md rule 8 applies to memweave's own protocols); the version is the `/v1`
 * base path. Snake case on the wire, bytes as base64, datetimes ISO-8601 with an offset.
 */

export const WIRE_BASE_PATH = '/v1'

/**
 * How deeply a request body may nest arrays and objects. GMP's own shapes nest a few levels and
 * metadata a few more; anything deeper is refused as a bad request before any handler walks it
 * (issue 13: a 100k-deep `capabilities` array overflowed the stack in an error message: 500).
 */
export const MAX_JSON_DEPTH = 64

/** The nesting depth of a parsed JSON value, counted without recursion and given up past `max`. @returns a depth, or `max + 1` when deeper */
export function jsonDepth(value: unknown, max = MAX_JSON_DEPTH): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (typeof v !== 'object' || v === null) continue
    const d = depth + 1
    if (d > max) return max + 1
    if (d > deepest) deepest = d
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d])
  }
  return deepest
}

/** RetrieveOptions.budgetTokens when the caller gives none (src/facts/types.ts). */
const DEFAULT_BUDGET_TOKENS = 4000

/** A ref is opaque JSON on the wire; memweave's are strings. */
export type WireRef = unknown

export interface WireSource {
  readonly write_id: string | null
  readonly written_at: string | null
  readonly written_by: string | null
  /** base64 of the 64-byte Ed25519 signature. */
  readonly signature: string | null
  /** base64 of the 32-byte Ed25519 public key. */
  readonly public_key: string | null
}

export interface WireMemory {
  readonly ref: WireRef
  readonly content: string
  readonly written_at: string
  readonly metadata: Record<string, unknown>
  readonly valid_from: string | null
  readonly valid_until: string | null
  readonly tenant_id: string | null
  readonly superseded_by: WireRef | null
  readonly source: WireSource | null
  /** Present only when non-empty (CONFLICT_DETECTION). */
  readonly conflicts_with?: readonly WireRef[]
}

export interface WireWriteOptions {
  readonly valid_from?: string | null
  readonly tenant_id?: string | null
  readonly metadata?: Record<string, unknown>
  /** A 32-byte Ed25519 seed, base64 (hex accepted). */
  readonly signing_key?: string | null
}

export interface WireRetrieveOptions {
  readonly budget_tokens?: number
  readonly as_of?: string | null
  readonly tenant_id?: string | null
  readonly top_k?: number | null
  /** memweave extension: only the memories that match (`RetrieveOptions.matchesOnly`). */
  readonly matches_only?: boolean
}

/** `POST /v1/stores`; `capabilities` is a memweave extension (default: every flag memweave claims). */
export interface CreateStoreRequest {
  readonly capabilities?: readonly string[]
}
export interface WriteRequest {
  readonly content: string
  readonly options?: WireWriteOptions
}
export interface SupersedeRequest {
  readonly old_ref: WireRef
  readonly content: string
  readonly options?: WireWriteOptions
}
export interface DeleteRequest {
  readonly ref: WireRef
}
export interface RetrieveRequest {
  readonly query: string
  readonly options?: WireRetrieveOptions
}

export interface WireErrorBody {
  readonly error:
    | 'capability_not_supported'
    | 'unknown_store'
    | 'not_found'
    | 'bad_request'
    | 'unauthorized'
    | 'payload_too_large'
    | 'quota_exceeded'
    | 'store_damaged'
    | 'store_format_too_new'
    | 'method_not_allowed'
    | 'unsupported_media_type'
    | 'forbidden_host'
    | 'forbidden_origin'
    | 'internal_error'
  readonly message?: string
  readonly capability?: string
  readonly operation?: string
}

/** A contradiction the store holds (`GET /v1/stores/{id}/conflicts`, a memweave extension). */
export interface WireConflict {
  readonly kind: FactConflict['kind']
  readonly refs: readonly [WireRef, WireRef]
  readonly tenant_id: string | null
  readonly subject: string | null
  readonly predicate: string | null
  readonly reason: string
  /** Free-text conflicts only: the detector's confidence in [0, 1] (docs/conflicts.md). */
  readonly confidence?: number
  /**
   * Only when the store's Memory has a second-stage judge (`conflictJudge`), on free-text
   * conflicts: the judge's mark, as `FactConflict.judge` (docs/conflicts.md, "A second-stage judge").
   */
  readonly judge?: JudgeMark
}

/** One entry of `GET /v1/stores` (a memweave extension). */
export interface WireStoreInfo {
  readonly store_id: string
  readonly capabilities: readonly string[]
  readonly created_at: string | null
}

export function conflictToWire(c: FactConflict): WireConflict {
  const out: WireConflict = { kind: c.kind, refs: [c.refs[0], c.refs[1]], tenant_id: c.tenantId, subject: c.subject, predicate: c.predicate, reason: c.reason }
  return { ...out, ...(c.confidence === undefined ? {} : { confidence: c.confidence }), ...(c.judge ? { judge: c.judge } : {}) }
}

// ---- FactMemory ------------------------------------------------------------------------------------

export function memoryToWire(m: FactMemory): WireMemory {
  const s = m.source
  const out: WireMemory = {
    ref: m.ref,
    content: m.content,
    written_at: m.writtenAt,
    metadata: { ...m.metadata },
    valid_from: m.validFrom,
    valid_until: m.validUntil,
    tenant_id: m.tenantId,
    superseded_by: m.supersededBy,
    source: s
      ? {
          write_id: s.writeId,
          written_at: s.writtenAt,
          written_by: s.writtenBy,
          signature: s.signature ? toBase64(s.signature) : null,
          public_key: s.publicKey ? toBase64(s.publicKey) : null,
        }
      : null,
  }
  return m.conflictsWith.length > 0 ? { ...out, conflicts_with: [...m.conflictsWith] } : out
}

function malformed(what: string): MemweaveError {
  return new MemweaveError(ErrorCode.STORAGE, `GMP server sent a malformed ${what}`)
}

const str = (v: unknown): v is string => typeof v === 'string'
const strOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string'

/**
 * A wire memory as the TypeScript `Memory`. The wire does not carry memweave's `factId`,
 * `structuredId` or `sequence`: the first two are recomputed from the content (exactly as the
 * store computes them), and `sequence` is `''`.
 * @throws MemweaveError STORAGE when the server's JSON is not a GMP memory (`FactMemory`).
 */
export function memoryFromWire(w: unknown): FactMemory {
  const o = w as Record<string, unknown>
  if (typeof o !== 'object' || o === null) throw malformed('memory')
  const metadata = o['metadata'] ?? {}
  if (!str(o['content']) || !str(o['written_at']) || typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw malformed('memory')
  }
  if (!strOrNull(o['valid_from']) || !strOrNull(o['valid_until']) || !strOrNull(o['tenant_id'] ?? null)) throw malformed('memory')
  const tenantId = (o['tenant_id'] ?? null) as string | null
  const content = o['content']
  const validFrom = o['valid_from']
  return {
    ref: o['ref'] as FactRef,
    content,
    writtenAt: o['written_at'],
    metadata: metadata as Record<string, unknown>,
    validFrom,
    validUntil: o['valid_until'],
    tenantId,
    supersededBy: (o['superseded_by'] ?? null) as FactRef | null,
    source: sourceFromWire(o['source']),
    factId: attempt(() => toHex(contentFactId(content, tenantId))) ?? '',
    structuredId: structuredIdOf(metadata as Record<string, unknown>, tenantId, validFrom ?? o['written_at']),
    sequence: '',
    conflictsWith: Array.isArray(o['conflicts_with']) ? (o['conflicts_with'] as FactRef[]) : [],
  }
}

function sourceFromWire(v: unknown): SourceMeta | null {
  if (v === null || v === undefined) return null
  const s = v as Record<string, unknown>
  if (typeof s !== 'object') throw malformed('source')
  const fields = ['write_id', 'written_at', 'written_by', 'signature', 'public_key'] as const
  for (const f of fields) if (!strOrNull(s[f] ?? null)) throw malformed(`source.${f}`)
  const bytes = (field: 'signature' | 'public_key'): Uint8Array | null => {
    const text = s[field] as string | null | undefined
    if (text === null || text === undefined) return null
    const decoded = attempt(() => fromBase64(text))
    if (!decoded) throw malformed(`source.${field} (not base64)`)
    return decoded
  }
  return {
    writeId: (s['write_id'] ?? null) as string,
    writtenAt: (s['written_at'] ?? null) as string,
    writtenBy: (s['written_by'] ?? null) as string | null,
    signature: bytes('signature'),
    publicKey: bytes('public_key'),
  }
}

/** The store's structured id (GMP §1.2): the valid-from it hashes is the write time without BI_TEMPORAL. */
function structuredIdOf(metadata: Record<string, unknown>, tenantId: string | null, validFrom: string): string | null {
  const { subject, predicate, object } = metadata as { subject?: unknown; predicate?: unknown; object?: unknown }
  if (typeof subject !== 'string' || typeof predicate !== 'string' || object === undefined) return null
  return attempt(() => toHex(structuredFactId({ tenantId, subject, predicate, object: object as FactObject, validFrom }))) ?? null
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn()
  } catch {
    return undefined
  }
}

// ---- request bodies ----------------------------------------------------------------------------

/** The fields each request body may carry (WIRE.md); anything else is refused, never dropped. */
export const BODY_FIELDS = {
  create: ['capabilities'],
  write: ['content', 'options'],
  supersede: ['old_ref', 'content', 'options'],
  delete: ['ref'],
  retrieve: ['query', 'options'],
  flush: [],
} as const satisfies Record<string, readonly string[]>

const WRITE_OPTION_FIELDS = ['valid_from', 'tenant_id', 'metadata', 'signing_key'] as const
const RETRIEVE_OPTION_FIELDS = ['budget_tokens', 'as_of', 'tenant_id', 'top_k', 'matches_only'] as const

/**
 * Refuses a field a body may not carry, naming it, and where it belongs when it is an option put at
 * the top level (`{"content": ..., "valid_from": ...}`): a request whose fields were silently
 * dropped would be answered 200 for something other than what was asked.
 * @throws MemweaveError INVALID_ARGUMENT naming the field.
 */
export function assertBodyFields(body: Record<string, unknown>, op: keyof typeof BODY_FIELDS): void {
  const allowed: readonly string[] = BODY_FIELDS[op]
  const options: readonly string[] = op === 'retrieve' ? RETRIEVE_OPTION_FIELDS : op === 'write' || op === 'supersede' ? WRITE_OPTION_FIELDS : []
  for (const key of Object.keys(body)) {
    if (allowed.includes(key)) continue
    const hint = options.includes(key) ? `; it belongs under "options" ({"options": {"${key}": ...}})` : `; this body takes ${allowed.length ? allowed.map((f) => `"${f}"`).join(', ') : 'no fields'}`
    throw invalidArgument(key, `unknown field "${key}" in the ${op} request${hint}`)
  }
  if ('options' in body && body['options'] !== undefined && body['options'] !== null) {
    const o = plainObject(body['options'], 'options')
    for (const key of Object.keys(o)) {
      if (!options.includes(key)) throw invalidArgument(`options.${key}`, `unknown field "options.${key}" in the ${op} request; options are ${options.map((f) => `"${f}"`).join(', ')}`)
    }
  }
}

// ---- options -----------------------------------------------------------------------------------

function plainObject(value: unknown, field: string): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(field, 'must be a JSON object')
  return value as Record<string, unknown>
}

/** Server side: wire WriteOptions to the store's. Values pass through; the store validates them. */
export function writeOptionsFromWire(value: unknown): WriteOptions {
  const o = plainObject(value, 'options')
  return {
    validFrom: o['valid_from'] as string | null | undefined,
    tenantId: o['tenant_id'] as string | null | undefined,
    metadata: o['metadata'] as Record<string, unknown> | undefined,
    signingKey: o['signing_key'] as string | null | undefined,
  }
}

/** Server side: wire RetrieveOptions to the store's. */
export function retrieveOptionsFromWire(value: unknown): RetrieveOptions {
  const o = plainObject(value, 'options')
  return {
    budgetTokens: o['budget_tokens'] as number | undefined,
    asOf: o['as_of'] as string | null | undefined,
    tenantId: o['tenant_id'] as string | null | undefined,
    topK: o['top_k'] as number | null | undefined,
    // Checked by the store (a boolean or absent), as the others are.
    ...(o['matches_only'] === undefined ? {} : { matchesOnly: o['matches_only'] as boolean }),
  }
}

function timeToWire(value: Date | string | null | undefined, field: string): string | null | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw invalidArgument(field, 'is an invalid Date')
    return value.toISOString()
  }
  return value
}

/** Client side: the store's WriteOptions as wire JSON. @throws MemweaveError INVALID_ARGUMENT for an Identity signing key (its seed never leaves it). */
export function writeOptionsToWire(o: WriteOptions = {}): WireWriteOptions {
  const key = o.signingKey
  if (isIdentity(key)) {
    throw invalidArgument('signingKey', 'an Identity cannot be sent over the wire; pass its 32-byte seed')
  }
  const out: Record<string, unknown> = {
    valid_from: timeToWire(o.validFrom, 'validFrom') ?? null,
    tenant_id: o.tenantId ?? null,
    metadata: o.metadata ?? {},
  }
  if (key !== undefined && key !== null) out['signing_key'] = key instanceof Uint8Array ? toBase64(key) : key
  return out as WireWriteOptions
}

/** Client side: the store's RetrieveOptions as wire JSON. */
export function retrieveOptionsToWire(o: RetrieveOptions = {}): WireRetrieveOptions {
  return {
    // WIRE.md has budget_tokens as a plain int; the binding's documented default is sent explicitly.
    budget_tokens: o.budgetTokens ?? DEFAULT_BUDGET_TOKENS,
    as_of: timeToWire(o.asOf, 'asOf') ?? null,
    tenant_id: o.tenantId ?? null,
    top_k: o.topK ?? null,
    // Sent only when asked for: a server without the extension refuses it by name, never drops it.
    ...(o.matchesOnly === undefined ? {} : { matches_only: o.matchesOnly }),
  }
}

/** The wire name of a store option, for error messages (`validFrom` -> `options.valid_from`). */
export function wireFieldName(field: string): string {
  const snake = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
  const options: readonly string[] = [...WRITE_OPTION_FIELDS, ...RETRIEVE_OPTION_FIELDS]
  return options.includes(snake) || snake.startsWith('metadata')
    ? `options.${snake}`
    : snake
}
