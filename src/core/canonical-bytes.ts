import { invalidArgument } from './errors.js'

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
 * The UTF-8 bytes of RFC 8785 canonical JSON, written straight into one reused buffer: what a
 * record id hashes, and what `canonicalJson` decodes for its text (one writer for both). Building
 * the text first made a string per key, value and separator and then encoded it again; over a
 * 100k-record join that was 1.6 GB of garbage, the largest single source of the collector's
 * quarter of the time. test/core/canonical-json.test.ts holds the text to the original implementation.
 *
 * The result is a view of the shared buffer, valid until the next call: hash it, do not keep it.
 */
export function canonicalJsonBytes(value: unknown): Uint8Array {
  // A getter or proxy that computes an id of its own while we write gets a writer of its own.
  const w = shared.busy ? new Writer(256) : shared
  w.busy = true
  try {
    w.pos = 0
    w.write(value)
    return w.buf.subarray(0, w.pos)
  } finally {
    w.busy = false
  }
}

const encoder = new TextEncoder()

/**
 * Own keys in UTF-16 code unit order, as RFC 8785 asks (and `sort()` does). Records have a handful
 * of keys: sorting them in place by insertion spares the work array `sort()` allocates, which was a
 * tenth of what a 100k join allocated.
 */
function sortedKeys(o: object): string[] {
  const keys = Object.keys(o)
  if (keys.length > 24) return keys.sort()
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!
    let j = i - 1
    for (; j >= 0 && keys[j]! > k; j--) keys[j + 1] = keys[j]!
    keys[j + 1] = k
  }
  return keys
}

/**
 * Whether an object's own enumerable keys (what Object.keys lists, in its order) come in UTF-16
 * code unit order already. Read by for-in, which lists them in that order and then inherited
 * ones (skipped here): no array is made.
 */
function ownKeysInOrder(o: object): boolean {
  let prev: string | undefined
  for (const k in o) {
    if (!Object.hasOwn(o, k)) continue
    if (prev !== undefined && k < prev) return false
    prev = k
  }
  return true
}

class Writer {
  buf: Uint8Array
  pos = 0
  busy = false

  constructor(size: number) {
    this.buf = new Uint8Array(size)
  }

  room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.pos + bytes) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.pos))
    this.buf = next
  }

  byte(b: number): void {
    this.room(1)
    this.buf[this.pos++] = b
  }

  write(value: unknown): void {
    if (typeof value === 'string') return this.string(value)
    if (value === null) return this.ascii('null')
    if (typeof value === 'boolean') return this.ascii(value ? 'true' : 'false')
    if (typeof value === 'number') {
      // An integer's digits written straight in (a fact's two times, its importance): no string for it.
      if (Number.isSafeInteger(value)) return this.integer(value)
      if (!Number.isFinite(value)) throw invalidArgument('value', 'non-finite numbers have no canonical JSON form')
      return this.ascii(JSON.stringify(value))
    }
    if (Array.isArray(value)) {
      this.byte(0x5b) // [
      for (let i = 0; i < value.length; i++) {
        if (i > 0) this.byte(0x2c) // ,
        // A hole stays empty, as canonicalJson leaves it.
        if (i in value) this.write(value[i] === undefined ? null : value[i])
      }
      return this.byte(0x5d) // ]
    }
    if (typeof value === 'object') {
      const o = value as Record<string, unknown>
      this.byte(0x7b) // {
      let first = true
      if (ownKeysInOrder(o)) {
        // Most objects a record holds were built with their keys in order (a fact's metadata is
        // copied so, by canonicalCopy): written in own-key order, with no array of keys to sort.
        for (const k in o) {
          if (!Object.hasOwn(o, k)) continue
          const v = o[k]
          if (v === undefined) continue
          if (!first) this.byte(0x2c)
          first = false
          this.member(k, v)
        }
        return this.byte(0x7d) // }
      }
      for (const k of sortedKeys(o)) {
        const v = o[k]
        if (v === undefined) continue
        if (!first) this.byte(0x2c)
        first = false
        this.member(k, v)
      }
      return this.byte(0x7d) // }
    }
    throw invalidArgument('value', `${typeof value} has no canonical JSON form`)
  }

  member(k: string, v: unknown): void {
    this.string(k)
    this.byte(0x3a) // :
    this.write(v)
  }

  /** A safe integer's decimal digits, as JSON.stringify writes it (-0 as 0). */
  integer(value: number): void {
    if (value < 0) this.byte(0x2d) // -
    let v = Math.abs(value)
    let digits = 1
    for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++
    this.room(digits)
    const buf = this.buf
    for (let i = this.pos + digits - 1; i >= this.pos; i--) {
      buf[i] = 0x30 + (v % 10)
      v = Math.floor(v / 10)
    }
    this.pos += digits
  }

  ascii(text: string): void {
    this.room(text.length)
    for (let i = 0; i < text.length; i++) this.buf[this.pos++] = text.charCodeAt(i)
  }

  /** Printable ASCII without `"` or `\` is its own JSON text; anything else goes through JSON.stringify and the encoder. */
  string(text: string): void {
    this.room(text.length + 2)
    const start = this.pos
    const buf = this.buf
    buf[this.pos++] = 0x22
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i)
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) {
        this.pos = start
        return this.escaped(text)
      }
      buf[this.pos++] = c
    }
    buf[this.pos++] = 0x22
  }

  escaped(text: string): void {
    assertWellFormed('value', text)
    const json = JSON.stringify(text)
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.room(json.length * 3)
    this.pos += encoder.encodeInto(json, this.buf.subarray(this.pos)).written
  }
}

const shared = new Writer(16_384)

/**
 * `JSON.parse(canonicalJson(value))` without the text between: a deep copy with keys in canonical
 * order, `undefined` members dropped, `undefined` array items as null, -0 as 0, and the same
 * refusals (plus holes, which that round trip refused as unparseable text). Metadata of every
 * fact write is copied so; the text was a twentieth of what a join allocated.
 */
export function canonicalCopy(value: unknown): unknown {
  if (typeof value === 'string') {
    assertWellFormed('value', value)
    return value
  }
  if (value === null || typeof value === 'boolean') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidArgument('value', 'non-finite numbers have no canonical JSON form')
    return value === 0 ? 0 : value
  }
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) throw invalidArgument('value', 'an array with holes has no JSON form')
      out[i] = canonicalCopy(value[i] === undefined ? null : value[i])
    }
    return out
  }
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>
    const out: Record<string, unknown> = {}
    for (const k of sortedKeys(o)) {
      const v = o[k]
      if (v === undefined) continue
      assertWellFormed('value', k)
      // An own "__proto__" member, as JSON.parse makes it, not a new prototype. Only that key needs
      // defineProperty: a runtime call per key made it most of the copy of every fact's metadata.
      if (k === '__proto__') Object.defineProperty(out, k, { value: canonicalCopy(v), enumerable: true, writable: true, configurable: true })
      else out[k] = canonicalCopy(v)
    }
    return out
  }
  throw invalidArgument('value', `${typeof value} has no canonical JSON form`)
}
