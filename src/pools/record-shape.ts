import { invalidArgument, isMemweaveError } from '../core/errors.js'
import {
  DEFAULT_POLICIES, MAX_KEY_CHARS, MAX_POOL_NAME_CHARS, MAX_SOURCE_CHARS, assertConfidence, assertDid, assertSeconds, assertStrategy, assertText,
  assertType, mergePolicies,
} from './input.js'
import { PoolKind, type PoolRecord } from './records.js'

/**
 * What a pool record's body may hold, for records this replica did not make: the API's own caps
 * and shapes (input.ts, the asserts the API edge runs on a caller's input), applied to what arrives
 * by sync or from another handle's storage, before anything derives from it (issue 26, case 3: a
 * member's 10 MB memory passed the old shape check, and the facts store's refusal of its fact then
 * stopped the whole fact view, sharing and revocation). A record fails here for the field it gets
 * wrong, named as the API would name it; the sync layer quarantines it `malformed` with that text,
 * the state ignores it. The signature proves who wrote a record, not that it is sane.
 *
 * Beyond the API's input caps: a body holds exactly its kind's fields (the API never writes another,
 * and an unknown field of any size would travel to every replica and disk), ids are 32 lowercase
 * hex digits (how every writer stores them), and a sealed memory's ciphertext is at most
 * `MAX_SEALED_CHARS` (a payload within the caps, encrypted and encoded, is far below it).
 * Counts of ids are not capped: the API writes reads, tombstones, cutoffs and evidence of any length.
 */

/** A sealed memory's ciphertext (base64) at most: a payload within every cap is below a tenth of it. */
export const MAX_SEALED_CHARS = 1 << 20
const HEX32 = /^[0-9a-f]{32}$/
const REASONS: ReadonlySet<string> = new Set(['forget', 'cascade', 'ephemeral', 'session-end', 'expired', 'pruned'])
const PAYLOAD_KEYS: readonly string[] = [
  'type', 'subject', 'predicate', 'object', 'context', 'confidence', 'source', 'evidence', 'createdAt', 'ttl', 'permanent', 'visibility',
  'ephemeral', 'noTraining', 'supersedes', 'merged',
]

/** Thrown inside this module only: a shape problem that no API assert names. */
class Shape extends Error {}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function object(v: unknown, field: string): Record<string, unknown> {
  if (!isObject(v)) throw new Shape(`${field}: must be an object`)
  return v
}

/** `o` holds `required` and at most `optional` besides: counted without building a key list (a pass checks every record). */
function fields(o: Record<string, unknown>, field: string, required: readonly string[], optional: readonly string[] = []): void {
  let n = 0
  for (const k of required) {
    if (!(k in o)) throw new Shape(`${field}.${k}: is required`)
    n++
  }
  for (const k of optional) if (k in o) n++
  let total = 0
  for (const k in o) if (Object.hasOwn(o, k)) total++
  if (total !== n) {
    const known = new Set([...required, ...optional])
    throw new Shape(`${field}.${Object.keys(o).find((k) => !known.has(k))}: is not a field of this record`)
  }
}

function bool(v: unknown, field: string): void {
  if (typeof v !== 'boolean') throw new Shape(`${field}: must be a boolean`)
}

function finite(v: unknown, field: string): void {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new Shape(`${field}: must be a finite number`)
}

function id(v: unknown, field: string): void {
  if (typeof v !== 'string' || !HEX32.test(v)) throw new Shape(`${field}: must be 32 lowercase hex digits`)
}

function ids(v: unknown, field: string): void {
  if (!Array.isArray(v)) throw new Shape(`${field}: must be an array of ids`)
  // The element's label is made only for the one that fails: a join checks every id of every record.
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string' || !HEX32.test(v[i])) id(v[i], `${field}[${i}]`)
}

function string(v: unknown, field: string, max: number): void {
  if (typeof v !== 'string') throw new Shape(`${field}: must be a string`)
  if (v.length > max) throw new Shape(`${field}: is longer than ${max} characters`)
}

function sealed(v: unknown, field: string): void {
  const o = object(v, field)
  fields(o, field, ['keyId', 'iv', 'ct'])
  string(o['keyId'], `${field}.keyId`, 256)
  string(o['iv'], `${field}.iv`, 256)
  string(o['ct'], `${field}.ct`, MAX_SEALED_CHARS)
}

/** The labels of a payload's fields under one prefix (`payload`, `body.payload`): made once, not per record checked. */
function payloadLabels(field: string): Readonly<Record<string, string>> {
  let labels = PAYLOAD_LABELS.get(field)
  if (!labels) {
    labels = Object.fromEntries([...PAYLOAD_KEYS, 'merged.strategy', 'merged.from'].map((k) => [k, `${field}.${k}`]))
    // Two prefixes are used; a bound keeps a caller with others from growing it.
    if (PAYLOAD_LABELS.size < 8) PAYLOAD_LABELS.set(field, labels)
  }
  return labels
}
const PAYLOAD_LABELS = new Map<string, Readonly<Record<string, string>>>()

/**
 * A memory payload as the API builds it (payload-input.ts `buildPayload`), field for field. Throws.
 * The content is checked as `assertContent` checks it (same caps, same messages), without the two
 * objects it builds: a join checks every memory it receives.
 */
function checkPayload(x: unknown, field: string): void {
  const p = object(x, field)
  const l = payloadLabels(field)
  fields(p, field, PAYLOAD_KEYS)
  assertType(p['type'], l['type'])
  assertText(p['subject'], l['subject']!, MAX_KEY_CHARS)
  assertText(p['predicate'], l['predicate']!, MAX_KEY_CHARS)
  const obj = p['object']
  if (typeof obj === 'string') assertText(obj, l['object']!)
  else if (!(typeof obj === 'boolean' || (typeof obj === 'number' && Number.isFinite(obj)))) {
    throw invalidArgument(l['object']!, 'must be a string, a finite number or a boolean')
  }
  if (p['context'] !== undefined && p['context'] !== null) assertText(p['context'], l['context']!)
  if (p['context'] !== null && typeof p['context'] !== 'string') throw new Shape(`${field}.context: must be a string or null`)
  if (typeof p['confidence'] !== 'number') throw new Shape(`${field}.confidence: must be a number in [0, 1]`)
  assertConfidence(p['confidence'], l['confidence'])
  assertText(p['source'], l['source']!, MAX_SOURCE_CHARS)
  ids(p['evidence'], l['evidence']!)
  finite(p['createdAt'], l['createdAt']!)
  if (p['ttl'] !== null) assertSeconds(p['ttl'], l['ttl']!)
  bool(p['permanent'], l['permanent']!)
  bool(p['ephemeral'], l['ephemeral']!)
  bool(p['noTraining'], l['noTraining']!)
  if (p['visibility'] !== 'PUBLIC' && p['visibility'] !== 'AUTHORIZED') throw new Shape(`${field}.visibility: must be PUBLIC or AUTHORIZED`)
  if (p['permanent'] === true && (p['ephemeral'] === true || p['ttl'] !== null)) throw new Shape(`${field}.permanent: a permanent memory is neither EPHEMERAL nor has a TTL`)
  ids(p['supersedes'], l['supersedes']!)
  if (p['merged'] !== null) {
    const m = object(p['merged'], l['merged']!)
    fields(m, l['merged']!, ['strategy', 'from'])
    assertStrategy(m['strategy'], l['merged.strategy'])
    ids(m['from'], l['merged.from']!)
  }
}

function checkPolicies(v: unknown, field: string): void {
  object(v, field)
  mergePolicies(DEFAULT_POLICIES, v, field)
}

/** The body of a pool record of kind `kind`, as the API writes it. Throws. */
function checkBody(kind: string, b: Record<string, unknown>): void {
  switch (kind) {
    case PoolKind.CREATE:
      fields(b, 'body', ['v', 'nonce', 'encrypted', 'noTraining', 'publicDefault', 'name', 'sealedName', 'policies'])
      if (b['v'] !== 1) throw new Shape('body.v: must be 1')
      string(b['nonce'], 'body.nonce', 256)
      for (const k of ['encrypted', 'noTraining', 'publicDefault']) bool(b[k], `body.${k}`)
      if (b['name'] !== null) assertText(b['name'], 'body.name', MAX_POOL_NAME_CHARS)
      if (b['sealedName'] !== null) sealed(b['sealedName'], 'body.sealedName')
      return checkPolicies(b['policies'], 'body.policies')
    case PoolKind.ACL:
      fields(b, 'body', ['member', 'read', 'write', 'expiresAt'], ['cutoff'])
      assertDid(b['member'], 'body.member')
      bool(b['read'], 'body.read')
      bool(b['write'], 'body.write')
      if (b['expiresAt'] !== null) finite(b['expiresAt'], 'body.expiresAt')
      if (b['cutoff'] !== undefined) ids(b['cutoff'], 'body.cutoff')
      return
    case PoolKind.POLICY:
      fields(b, 'body', ['policies'])
      return checkPolicies(b['policies'], 'body.policies')
    case PoolKind.KEY:
      fields(b, 'body', ['keyId', 'epoch', 'member', 'epk', 'iv', 'ct'])
      string(b['keyId'], 'body.keyId', 256)
      if (!Number.isSafeInteger(b['epoch'])) throw new Shape('body.epoch: must be an integer')
      assertDid(b['member'], 'body.member')
      for (const k of ['epk', 'iv', 'ct']) string(b[k], `body.${k}`, 1024)
      return
    case PoolKind.MEMORY:
      if ('payload' in b) {
        fields(b, 'body', ['payload'])
        return checkPayload(b['payload'], 'body.payload')
      }
      fields(b, 'body', ['sealed'])
      return sealed(b['sealed'], 'body.sealed')
    case PoolKind.TOMBSTONE: {
      fields(b, 'body', ['targets', 'reason'])
      if (typeof b['reason'] !== 'string' || !REASONS.has(b['reason'])) throw new Shape(`body.reason: must be one of ${[...REASONS].join(', ')}`)
      const targets = b['targets']
      if (!Array.isArray(targets)) throw new Shape('body.targets: must be an array')
      for (let i = 0; i < targets.length; i++) {
        const t = object(targets[i], `body.targets[${i}]`)
        fields(t, `body.targets[${i}]`, ['id', 'supersedes'])
        id(t['id'], `body.targets[${i}].id`)
        ids(t['supersedes'], `body.targets[${i}].supersedes`)
      }
      return
    }
    case PoolKind.RESOLVE:
      fields(b, 'body', ['winner', 'losers'])
      id(b['winner'], 'body.winner')
      return ids(b['losers'], 'body.losers')
    case PoolKind.ACCESS:
      fields(b, 'body', ['reads', 'at'])
      ids(b['reads'], 'body.reads')
      return finite(b['at'], 'body.at')
    case PoolKind.RATING:
      fields(b, 'body', ['memory', 'rating'])
      id(b['memory'], 'body.memory')
      if (typeof b['rating'] !== 'number' || !(b['rating'] >= -1 && b['rating'] <= 1)) throw new Shape('body.rating: must be a number in [-1, 1]')
      return
    default:
      throw new Shape(`kind: ${kind} is not a pool record kind`)
  }
}

/** Runs a check; its failure as text (the API's INVALID_ARGUMENT message, or the shape's), or null. */
function problem(check: () => void): string | null {
  try {
    check()
    return null
  } catch (err) {
    if (err instanceof Shape || isMemweaveError(err)) return err.message
    return err instanceof Error ? err.message : String(err)
  }
}

/**
 * Verdicts by body (and payload) object: one record is checked on its way in by the codec, the
 * planner and the state, usually as the same object (a Y.Map value, a row the log delivers). A
 * record is never edited, so an object's verdict holds; the kind is kept with it because the verdict
 * is the kind's. About 1 to 3 us a memory to check, next to nothing to look up.
 */
const bodyVerdicts = new WeakMap<object, { readonly kind: string; readonly problem: string | null }>()
const payloadVerdicts = new WeakMap<object, string | null>()

/** Why a pool record's body is not one the API could have written, or null when it is. Never throws. */
export function poolBodyProblem(r: Pick<PoolRecord, 'kind' | 'body'>): string | null {
  const body = r.body as unknown
  if (!isObject(body)) return 'body: must be an object'
  const known = bodyVerdicts.get(body)
  if (known && known.kind === r.kind) return known.problem
  const found = problem(() => checkBody(r.kind, body))
  bodyVerdicts.set(body, { kind: r.kind, problem: found })
  // A memory body that passed holds a payload that passes (the same check, named `body.payload`):
  // the pools state asks `payloadProblem` of it next, and checked it a second time (a join, 3% of its CPU).
  if (found === null && r.kind === PoolKind.MEMORY && isObject(body['payload'])) payloadVerdicts.set(body['payload'], null)
  return found
}

/** Why `x` is not a memory payload the API could have built (read from a record or decrypted), or null. Never throws. */
export function payloadProblem(x: unknown): string | null {
  if (!isObject(x)) return 'payload: must be an object'
  const known = payloadVerdicts.get(x)
  if (known !== undefined) return known
  const found = problem(() => checkPayload(x, 'payload'))
  payloadVerdicts.set(x, found)
  return found
}
