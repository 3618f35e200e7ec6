import { isStamp } from '../core/clock.js'
import { normalizeTenant } from '../pools/input.js'
import { poolBodyProblem } from '../pools/record-shape.js'
import { POOL_KINDS, type PoolKind, type PoolRecord } from '../pools/records.js'
import { CHECKPOINT_KIND, isCheckpointBody, isCheckpointKind } from './checkpoint-body.js'
import { CONTENT_KINDS, contentProblem, isContentKind } from './content.js'

/**
 * The record codec: how a pool record travels inside its pool's Y.Doc: the pools module's own
 * `pool-*` records, and the records other modules share through the pool (content.ts), which
 * have the same fields (src/core/signed-record.ts) and travel typed as `PoolRecord` here. The document holds one
 * Y.Map (`RECORDS_MAP`) whose keys are record ids and whose values are the records themselves,
 * as plain JSON-compatible objects (Yjs's ContentAny). A value is written once and never edited:
 * a change to a pool is a new record under a new key, and a hard delete is a `pool-tombstone`
 * record plus the removal of the forgotten key (see materialize.ts).
 *
 * Everything read out of a Y.Doc is untrusted (any peer, any relay may have written it), so
 * `decodeRecord` checks the shape of every field and copies only the record's own fields. The
 * signature is checked apart (signatures.ts), because it is asynchronous.
 */
export const RECORDS_MAP = 'records'

/** A record as stored in the Y.Map: exactly the fields of a `PoolRecord`. */
export type RecordValue = { readonly [K in keyof PoolRecord]: PoolRecord[K] }

const HEX32 = /^[0-9a-f]{32}$/
const HEX128 = /^[0-9a-f]{128}$/
const KINDS: ReadonlySet<string> = new Set([...POOL_KINDS, ...CONTENT_KINDS, CHECKPOINT_KIND])

/** A did:key at most (an Ed25519 one is 56 characters): the author's key is parsed only when a signature is checked. */
const MAX_DID_CHARS = 128

function isTenant(t: string): boolean {
  try {
    return normalizeTenant(t) === t
  } catch {
    return false
  }
}

/** The value to put into the Y.Map for a record: a fresh object with the record's fields only. */
export function encodeRecord(record: PoolRecord): RecordValue {
  const { id, kind, pool, tenant, body, author, hlc, sig } = record
  return { id, kind, pool, tenant, body, author, hlc, sig }
}

export type Decoded =
  | { readonly ok: true; readonly record: PoolRecord }
  | { readonly ok: false; readonly reason: 'malformed' | 'missing-signature' | 'clock' | 'future'; readonly detail: string }

function bad(detail: string): Decoded {
  return { ok: false, reason: 'malformed', detail }
}

/** Reads one Y.Map entry back into a record, or says why it is not one. Never throws. */
export function decodeRecord(key: string, value: unknown): Decoded {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return bad('not an object')
  const v = value as Record<string, unknown>
  if (typeof v['id'] !== 'string' || !HEX32.test(v['id'])) return bad('id is not 32 hex digits')
  if (v['id'] !== key) return bad('stored under another key than its id')
  if (typeof v['kind'] !== 'string' || !KINDS.has(v['kind'])) return bad('unknown kind')
  if (typeof v['pool'] !== 'string' || !HEX32.test(v['pool'])) return bad('pool is not 32 hex digits')
  if (v['tenant'] !== null && (typeof v['tenant'] !== 'string' || !isTenant(v['tenant']))) return bad('tenant is not one the API accepts (a string of at most 256 characters, no control characters)')
  if (typeof v['author'] !== 'string' || !v['author'].startsWith('did:key:') || v['author'].length > MAX_DID_CHARS) return bad('author is not a did:key')
  if (typeof v['hlc'] !== 'string') return bad('hlc is not a hybrid-logical-clock stamp')
  // A stamp every replica can sort and date (core/clock.ts): wider fields sort out of clock order, a
  // wall past 2255 is no exact microsecond nor, past year 275760, any Date (issue 26).
  if (!isStamp(v['hlc'])) {
    return { ok: false, reason: 'clock', detail: 'hlc is outside the clock range: 12 hex digits of ms up to 2255-06-05, 6 of counter' }
  }
  if (typeof v['body'] !== 'object' || v['body'] === null) return bad('body is not an object')
  const record: PoolRecord = {
    id: v['id'], kind: v['kind'] as PoolKind, pool: v['pool'] as PoolRecord['pool'], tenant: v['tenant'] as string | null,
    body: v['body'] as PoolRecord['body'], author: v['author'], hlc: v['hlc'], sig: v['sig'] as string,
  }
  // The caps and shapes the API applies to its callers (record-shape.ts, each module's rule), before anything derives from it.
  const problem = isCheckpointKind(record.kind) ? (isCheckpointBody(record.body) ? null : 'body is not a well-formed checkpoint')
    : isContentKind(record.kind) ? contentProblem(record.kind, record.body) : poolBodyProblem(record)
  if (problem !== null) return bad(`not a well-formed ${record.kind}: ${problem}`)
  if (v['sig'] === undefined || v['sig'] === null || v['sig'] === '') return { ok: false, reason: 'missing-signature', detail: 'no signature' }
  if (typeof v['sig'] !== 'string' || !HEX128.test(v['sig'])) return bad('sig is not 128 hex digits')
  return { ok: true, record }
}

/** Whether two decoded records carry the same id and signature (they are the same record only if both verify). */
export function sameRecord(a: PoolRecord, b: PoolRecord): boolean {
  return a.id === b.id && a.sig === b.sig
}

/**
 * Whether two records are the same record field for field. An id and a signature do not make a
 * record: a peer can copy them onto another body, which then fails verification (its id is not
 * its content's). The body is compared as JSON: a record keeps its key order through storage and Yjs.
 */
export function sameContent(a: PoolRecord, b: PoolRecord): boolean {
  return sameRecord(a, b) && a.kind === b.kind && a.pool === b.pool && a.tenant === b.tenant && a.author === b.author &&
    a.hlc === b.hlc && JSON.stringify(a.body) === JSON.stringify(b.body)
}
