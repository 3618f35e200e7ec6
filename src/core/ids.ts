import { blake2b128 } from './blake2b.js'
import { assertWellFormed, canonicalJsonBytes } from './canonical-bytes.js'
import { invalidArgument } from './errors.js'
import { concatBytes, fromUtf8, toHex, utf8 } from './bytes.js'
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
