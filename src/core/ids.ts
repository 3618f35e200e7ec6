import { blake2b128 } from './blake2b.js'
import { assertWellFormed, canonicalJsonBytes } from './canonical-bytes.js'
import { invalidArgument } from './errors.js'
import { fromUtf8, toHex } from './bytes.js'
import { formatTime, parseTime } from './time.js'

export { assertWellFormed, blake2b128 }

/** The unit separator GMP uses between identity fields. */
const SEP = 0x1f
const SEP_CHAR = '\u001f'

function assertNoSeparator(field: string, value: string): void {
  assertWellFormed(field, value)
  // Identity joins fields with U+001F; a field containing it would make two facts collide.
  if (value.includes(SEP_CHAR)) throw invalidArgument(field, 'must not contain the unit separator U+001F')
}

/**
 * The content-store fact id of GMP §7.5: `BLAKE2b-128(utf8(content) ‖ 0x1f ‖ utf8(tenant ?? ''))`.
 * This is what a signed write signs, because it round-trips exactly from a retrieved memory.
 */
export function contentFactId(content: string, tenantId: string | null | undefined): Uint8Array {
  const tenant = tenantId ?? ''
  assertWellFormed('content', content)
  assertNoSeparator('tenantId', tenant)
  return blake2b128(idInput(content, tenant))
}

const encoder = new TextEncoder()
let idScratch = new Uint8Array(4096)

/**
 * UTF-8 of `head ‖ 0x1f ‖ tail` in one reused buffer (a view of it, valid until the next call: hash
 * it, do not keep it). Every fact write hashes two such inputs, and a join writes a fact per pool
 * memory: three typed arrays and a copy per id were a share of the collector's work (issue 31).
 */
function idInput(head: string, tail: string): Uint8Array {
  // UTF-8 takes at most 3 bytes per UTF-16 code unit.
  const room = 3 * (head.length + tail.length) + 1
  if (room > idScratch.length) idScratch = new Uint8Array(Math.max(room, 2 * idScratch.length))
  let n = utf8Into(head, 0)
  idScratch[n++] = SEP
  n = utf8Into(tail, n)
  return idScratch.subarray(0, n)
}

/**
 * Writes `text`'s UTF-8 into `idScratch` at `at`; returns the end. ASCII (nearly every content,
 * name and time) is its own UTF-8, copied by code unit: `encodeInto` has a fixed cost per call
 * that was most of an id's input for a sentence (issue 31, sixth round). Anything else goes to the encoder.
 */
function utf8Into(text: string, at: number): number {
  const buf = idScratch
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 0x7f) return at + encoder.encodeInto(text, buf.subarray(at)).written
    buf[at + i] = c
  }
  return at + text.length
}

/** A value that hashes as a Python float even when it is integral (`1.0`, not `1`). */
export interface FloatObject {
  readonly float: number
}

export type FactObject = string | number | boolean | FloatObject | null | readonly unknown[] | { readonly [k: string]: unknown }

/**
 * The canonical text of a fact's object, as the GMP oracle defines it: booleans `true`/`false`,
 * integers in decimal, floats as Python `repr`, strings as themselves; anything else as RFC 8785
 * canonical JSON.
 */
export function canonicalObject(value: FactObject): string {
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return Number.isInteger(value) ? integerText(value) : pythonFloatRepr(value)
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && isFloatObject(value)) {
    return pythonFloatRepr(value.float)
  }
  return canonicalJson(value)
}

function isFloatObject(value: object): value is FloatObject {
  const keys = Object.keys(value)
  return keys.length === 1 && keys[0] === 'float' && typeof (value as FloatObject).float === 'number'
}

function integerText(value: number): string {
  return BigInt(value).toString()
}

/** Python's `repr(float)`: shortest round-trip digits, fixed between 1e-4 and 1e16, else `1e+16` style. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan'
  if (value === Infinity) return 'inf'
  if (value === -Infinity) return '-inf'
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0'
  const [mantissa, expText] = value.toExponential().split('e') as [string, string]
  const exp = Number(expText)
  const negative = mantissa.startsWith('-')
  const digits = mantissa.replace('-', '').replace('.', '')
  let out: string
  if (exp >= -4 && exp < 16) {
    if (exp < 0) out = `0.${'0'.repeat(-exp - 1)}${digits}`
    else if (digits.length <= exp + 1) out = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`
    else out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`
  } else {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    const sign = exp < 0 ? '-' : '+'
    out = `${m}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`
  }
  return negative ? `-${out}` : out
}

/**
 * RFC 8785 canonical JSON: sorted keys, ECMAScript number text, no whitespace. Every id and
 * signature of a record is taken over this text, so strings (keys too) must be well-formed.
 * @throws MemweaveError INVALID_ARGUMENT for a lone surrogate, a non-finite number, or a value JSON cannot hold.
 */
export function canonicalJson(value: unknown): string {
  // One writer for the text and the bytes ids are taken over (src/core/canonical-bytes.ts).
  return fromUtf8(canonicalJsonBytes(value))
}

export interface StructuredFact {
  readonly tenantId?: string | null
  readonly predicate: string
  readonly subject: string
  readonly object: FactObject
  readonly validFrom: Date | string
}

/**
 * The structured fact id of GMP §1.2, tenant-scoped.
 *
 * Encoding (GMP leaves the bytes open; this is memweave's choice, see docs/ids.md):
 * `BLAKE2b-128(join(0x1f, [tenant?, predicate, subject, canonicalObject(object), validFrom]))`
 * where `validFrom` is the UTC instant as `YYYY-MM-DDTHH:MM:SS.ffffff+00:00` and the tenant field is
 * present only for a named tenant. The default tenant (null or '') therefore has exactly the
 * oracle's id, and a named tenant can never collide with it because no field may contain 0x1f.
 */
export function structuredFactId(fact: StructuredFact): Uint8Array {
  const fields = identityFields(fact)
  return structuredId(fields, parseTime(fact.validFrom, 'validFrom'))
}

/**
 * `structuredFactId` of a fact whose valid-from is already a time in µs (a write's stamp): the same
 * digest without formatting the time, parsing it back and formatting it again.
 * @internal For the fact store's writes (src/facts/draft.ts).
 */
export function structuredFactIdAt(fact: Omit<StructuredFact, 'validFrom'>, validFrom: number): Uint8Array {
  const fields = identityFields(fact)
  // Where the text form might not come back as the same time (years below 100 parse as 19xx,
  // years past 9999 not at all, and far enough out µs / 1000 rounds up), the round trip stays, and with it the id.
  const exact = Number.isInteger(validFrom) && validFrom >= 0 && validFrom <= EXACT_ROUND_TRIP_MICROS
  return structuredId(fields, exact ? validFrom : parseTime(formatTime(validFrom), 'validFrom'))
}

/** 4e15 µs (2096-10-02): below it a time formatted and parsed again is the same integer (µs / 1000 keeps its fraction). */
const EXACT_ROUND_TRIP_MICROS = 4e15

/** The identity fields of a structured fact but its time, in hash order, each checked. */
function identityFields(fact: Omit<StructuredFact, 'validFrom'>): string[] {
  const tenant = fact.tenantId ?? ''
  const object = canonicalObject(fact.object)
  if (tenant !== '') assertNoSeparator('tenantId', tenant)
  assertNoSeparator('predicate', fact.predicate)
  assertNoSeparator('subject', fact.subject)
  assertNoSeparator('object', object)
  return tenant === '' ? [fact.predicate, fact.subject, object] : [tenant, fact.predicate, fact.subject, object]
}

function structuredId(fields: readonly string[], validFrom: number): Uint8Array {
  return blake2b128(idInput(fields.join(SEP_CHAR), formatTime(validFrom)))
}

/** Hex of a BLAKE2b-128 digest over the canonical JSON of a record (DESIGN.md "Records"). */
export function recordId(record: unknown): string {
  return toHex(blake2b128(canonicalJsonBytes(record)))
}
