import { ErrorCode, MemweaveError } from '../core/errors.js'

/**
 * The JSON form of storage rows on disk (Node only, used by the file adapter). Rows are
 * structured-cloneable, which JSON is not: typed arrays (the `vectors` table holds Float32Array),
 * non-finite numbers, -0 and `undefined` would be lost or changed. Those become tagged objects
 * `{"$mw": <tag>, ...}`; a plain object that happens to own a `$mw` key is itself wrapped
 * (`{"$mw": "obj", "v": ...}`), so user metadata can never be mistaken for a tag.
 */

const TAG = '$mw'

const TYPED = {
  Uint8Array,
  Int8Array,
  Uint16Array,
  Int16Array,
  Uint32Array,
  Int32Array,
  Float32Array,
  Float64Array,
} as const

type TypedName = keyof typeof TYPED
type Typed = InstanceType<(typeof TYPED)[TypedName]>

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1

/** Bytes of a typed array in little-endian order, whatever the host's order is. */
function toLittleEndian(view: Typed): Buffer {
  const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength)
  if (LITTLE_ENDIAN || view.BYTES_PER_ELEMENT === 1) return Buffer.from(bytes)
  const out = Buffer.from(bytes)
  for (let i = 0; i < out.length; i += view.BYTES_PER_ELEMENT) out.subarray(i, i + view.BYTES_PER_ELEMENT).reverse()
  return out
}

function typedName(value: object): TypedName | undefined {
  for (const name of Object.keys(TYPED) as TypedName[]) if (value instanceof TYPED[name]) return name
  return undefined
}

function unstorable(what: string): MemweaveError {
  return new MemweaveError(ErrorCode.STORAGE, `file storage cannot persist a row holding ${what}`)
}

/** A JSON-safe copy of `value` that `decodeValue` turns back into an equal structured clone. */
export function encodeValue(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      if (Number.isFinite(value) && !Object.is(value, -0)) return value
      return { [TAG]: 'num', v: Object.is(value, -0) ? '-0' : String(value) }
    case 'undefined':
      return { [TAG]: 'undef' }
    case 'object':
      break
    default:
      throw unstorable(`a ${typeof value}`)
  }
  if (value === null) return null
  if (Array.isArray(value)) return value.map(encodeValue)
  if (ArrayBuffer.isView(value)) {
    const name = typedName(value)
    if (!name) throw unstorable(value.constructor.name)
    return { [TAG]: name, b64: toLittleEndian(value as Typed).toString('base64') }
  }
  if (value instanceof ArrayBuffer) return { [TAG]: 'ArrayBuffer', b64: Buffer.from(value).toString('base64') }
  if (value instanceof Date) return { [TAG]: 'Date', v: value.getTime() }
  const proto = Object.getPrototypeOf(value) as unknown
  if (proto !== Object.prototype && proto !== null) throw unstorable(`a ${value.constructor?.name ?? 'class instance'}`)
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) out[k] = encodeValue(v)
  return Object.hasOwn(value, TAG) ? { [TAG]: 'obj', v: out } : out
}

function corrupt(message: string): MemweaveError {
  return new MemweaveError(ErrorCode.STORAGE, `file storage: corrupt row (${message})`)
}

/** The inverse of `encodeValue`. @throws MemweaveError STORAGE for a malformed tag. */
export function decodeValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(decodeValue)
  const o = value as Record<string, unknown>
  if (!Object.hasOwn(o, TAG)) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(o)) out[k] = decodeValue(v)
    return out
  }
  const tag = o[TAG]
  switch (tag) {
    case 'obj': {
      const inner = o['v']
      if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) throw corrupt('bad escaped object')
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(inner)) out[k] = decodeValue(v)
      return out
    }
    case 'num':
      if (o['v'] === '-0') return -0
      if (o['v'] === 'NaN' || o['v'] === 'Infinity' || o['v'] === '-Infinity') return Number(o['v'])
      throw corrupt('bad number')
    case 'undef':
      return undefined
    case 'Date':
      if (typeof o['v'] !== 'number') throw corrupt('bad Date')
      return new Date(o['v'])
    case 'ArrayBuffer':
      return bytesOf(o).buffer
  }
  if (typeof tag === 'string' && Object.hasOwn(TYPED, tag)) {
    const Ctor = TYPED[tag as TypedName]
    const bytes = bytesOf(o)
    if (bytes.length % Ctor.BYTES_PER_ELEMENT !== 0) throw corrupt(`${tag} of ${bytes.length} bytes`)
    if (!LITTLE_ENDIAN && Ctor.BYTES_PER_ELEMENT > 1) {
      for (let i = 0; i < bytes.length; i += Ctor.BYTES_PER_ELEMENT) bytes.subarray(i, i + Ctor.BYTES_PER_ELEMENT).reverse()
    }
    return new Ctor(bytes.buffer, 0, bytes.length / Ctor.BYTES_PER_ELEMENT)
  }
  throw corrupt(`unknown tag ${JSON.stringify(tag)}`)
}

/** A fresh, exactly sized buffer (so typed arrays built on it start at offset 0). */
function bytesOf(o: Record<string, unknown>): Uint8Array<ArrayBuffer> {
  if (typeof o['b64'] !== 'string') throw corrupt('missing bytes')
  const decoded = Buffer.from(o['b64'], 'base64')
  const out = new Uint8Array(decoded.length)
  out.set(decoded)
  return out
}
