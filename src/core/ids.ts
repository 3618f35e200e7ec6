import { blake2b128 } from './blake2b.js'
import { canonicalJsonBytes } from './canonical-bytes.js'
import { invalidArgument } from './errors.js'
import { concatBytes, toHex, utf8 } from './bytes.js'
import { formatTime, parseTime } from './time.js'

export { blake2b128 }

/** The unit separator GMP uses between identity fields. */
const SEP = 0x1f
const SEP_CHAR = '\u001f'

function assertNoSeparator(field: string, value: string): void {
  assertWellFormed(field, value)
  // Identity joins fields with U+001F; a field containing it would make two facts collide.
  if (value.includes(SEP_CHAR)) throw invalidArgument(field, 'must not contain the unit separator U+001F')
}

/**
 * Refuses a string with a lone UTF-16 surrogate. UTF-8 encoding replaces each with U+FFFD, so
 * different strings would hash and sign alike (issue 13: three GMP tenants `'\uD800'`, `'\uDC00'`
 * and `'\uFFFD'` had one fact id and one signature); RFC 8785 (via I-JSON, RFC 7493 §2.1) refuses them too.
 * @throws MemweaveError INVALID_ARGUMENT naming `field`.
 */
export function assertWellFormed(field: string, value: string): void {
  if (!value.isWellFormed()) throw invalidArgument(field, 'contains a lone UTF-16 surrogate (not valid Unicode text)')
}

/**
 * The content-store fact id of GMP §7.5: `BLAKE2b-128(utf8(content) ‖ 0x1f ‖ utf8(tenant ?? ''))`.
 * This is what a signed write signs, because it round-trips exactly from a retrieved memory.
 */
export function contentFactId(content: string, tenantId: string | null | undefined): Uint8Array {
  const tenant = tenantId ?? ''
  assertWellFormed('content', content)
  assertNoSeparator('tenantId', tenant)
  return blake2b128(concatBytes(utf8(content), Uint8Array.of(SEP), utf8(tenant)))
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
  if (typeof value === 'string') {
    assertWellFormed('value', value)
    return JSON.stringify(value)
  }
  if (value === null) return 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidArgument('value', 'non-finite numbers have no canonical JSON form')
    return JSON.stringify(value)
  }
  // Built by concatenation, without intermediate arrays: every record id of every write is taken
  // over this text (it was a tenth of a fact write's CPU).
  if (Array.isArray(value)) {
    let out = '['
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ','
      // A hole stays empty, as `map` left it (ids of existing records must not change).
      if (i in value) out += canonicalJson(value[i] === undefined ? null : value[i])
    }
    return out + ']'
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>
    // Default sort compares UTF-16 code units, as RFC 8785 asks.
    const keys = Object.keys(o).sort()
    let out = '{'
    let first = true
    for (const k of keys) {
      const v = o[k]
      if (v === undefined) continue
      if (!first) out += ','
      first = false
      out += canonicalJson(k) + ':' + canonicalJson(v)
    }
    return out + '}'
  }
  throw invalidArgument('value', `${typeof value} has no canonical JSON form`)
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
  const tenant = fact.tenantId ?? ''
  const object = canonicalObject(fact.object)
  const fields: Array<[string, string]> = [
    ['predicate', fact.predicate],
    ['subject', fact.subject],
    ['object', object],
  ]
  if (tenant !== '') fields.unshift(['tenantId', tenant])
  for (const [name, value] of fields) assertNoSeparator(name, value)
  const parts = [...fields.map(([, v]) => v), formatTime(parseTime(fact.validFrom, 'validFrom'))]
  return blake2b128(utf8(parts.join(SEP_CHAR)))
}

/** Hex of a BLAKE2b-128 digest over the canonical JSON of a record (DESIGN.md "Records"). */
export function recordId(record: unknown): string {
  return toHex(blake2b128(canonicalJsonBytes(record)))
}
