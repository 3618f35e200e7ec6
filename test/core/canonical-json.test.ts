import fc from 'fast-check'
import { expect, test } from 'vitest'
import { canonicalCopy, canonicalJsonBytes } from '../../src/core/canonical-bytes.js'
import { canonicalJson } from '../../src/core/ids.js'

/**
 * canonicalJson was rewritten for speed (concatenation instead of entries, filter, sort and join;
 * then the UTF-8 byte writer of canonical-bytes.ts, which it now decodes). Every stored record id
 * is taken over its bytes, so the new one must give the same text as the old
 * one for every value, holes and undefined members included. The old one is kept here as the reference.
 */
function reference(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (value === null || typeof value === 'boolean') return JSON.stringify(value)
  if (typeof value === 'number') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map((v) => reference(v === undefined ? null : v)).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([k, v]) => `${reference(k)}:${reference(v)}`).join(',')}}`
}

const leaf = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constant(-0))
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.oneof(fc.array(tie('value')), fc.sparseArray(tie('value'))),
  object: fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('a', 'b', '10', '2', 'é', 'Z', '\u{1F600}')), tie('value')),
})).value

test('canonicalJson gives the text of the reference implementation for any JSON-like value', () => {
  fc.assert(
    fc.property(json, (v) => {
      if (v === undefined) return
      expect(canonicalJson(v)).toBe(reference(v))
    }),
    { numRuns: 3000, seed: 20261125 },
  )
  expect(canonicalJson({ b: [1, , 3], a: { y: undefined, x: -0 } })).toBe('{"a":{"x":0},"b":[1,,3]}')
})

test('canonicalJsonBytes are the UTF-8 of canonicalJson for any JSON-like value, and refuse what it refuses', () => {
  const utf8 = (s: string): string => Buffer.from(new TextEncoder().encode(s)).toString('hex')
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
  fc.assert(
    fc.property(json, (v) => {
      if (v === undefined) return
      expect(hex(canonicalJsonBytes(v))).toBe(utf8(canonicalJson(v)))
    }),
    { numRuns: 3000, seed: 20261126 },
  )
  const text = 'é"\\\n\u0001\u007f\u{1F600} and a long tail '.repeat(2000)
  expect(hex(canonicalJsonBytes({ text, n: [1.5, -0, 1e21] }))).toBe(utf8(canonicalJson({ text, n: [1.5, -0, 1e21] })))
  for (const bad of [{ a: '\uD800' }, { ['\uDC00']: 1 }, [Number.NaN], { f: () => 1 }, 10n]) {
    expect(() => canonicalJson(bad)).toThrow(/surrogate|non-finite|no canonical JSON form/)
    expect(() => canonicalJsonBytes(bad)).toThrow(/surrogate|non-finite|no canonical JSON form/)
  }
  // A getter that takes an id of its own while the shared buffer is being written.
  const reentrant = { get a() { return Buffer.from(canonicalJsonBytes({ inner: 'x' })).toString() }, b: 2 }
  expect(hex(canonicalJsonBytes(reentrant))).toBe(utf8(canonicalJson(reentrant)))
})

test('canonicalCopy is JSON.parse(canonicalJson(value)) for any hole-free JSON-like value, own "__proto__" included', () => {
  const holeFree = (v: unknown): boolean =>
    Array.isArray(v) ? v.every((_, i) => i in v) && Array.from(v).every(holeFree) && v.length === Object.keys(v).length : v !== null && typeof v === 'object' ? Object.values(v).every(holeFree) : true
  fc.assert(
    fc.property(json, (v) => {
      if (v === undefined || !holeFree(v)) return
      const copy = canonicalCopy(v)
      expect(JSON.stringify(copy)).toBe(JSON.stringify(JSON.parse(canonicalJson(v))))
      expect(copy).toEqual(JSON.parse(canonicalJson(v)))
    }),
    { numRuns: 2000, seed: 20261127 },
  )
  const proto = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>
  const copy = canonicalCopy(proto) as Record<string, unknown>
  expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
  expect(Object.keys(copy)).toEqual(['__proto__', 'a'])
  expect(() => canonicalCopy([1, , 3])).toThrow(/holes/)
  for (const bad of [{ a: '\uD800' }, { ['\uDC00']: 1 }, [Number.POSITIVE_INFINITY], { f: Symbol('x') }]) expect(() => canonicalCopy(bad)).toThrow(/surrogate|non-finite|no canonical JSON form/)
  const cyclic: Record<string, unknown> = {}
  cyclic['self'] = cyclic
  expect(() => canonicalCopy(cyclic)).toThrow(RangeError)
})

// Issue 31 (fifth round): the writer takes an object whose own keys come in order without sorting
// them (for-in), and writes integers digit by digit; both must give the reference's text.
test('objects built with their keys in order, inherited keys, and integers up to the safe limit give the reference text', () => {
  const sortedObject = fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('a', 'b', '10', '2', 'é', 'Z')), fc.oneof(fc.maxSafeInteger(), fc.string(), fc.constant(undefined), fc.double({ noNaN: true, noDefaultInfinity: true })))
    .map((o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))))
  fc.assert(
    fc.property(fc.array(sortedObject, { maxLength: 3 }), fc.maxSafeInteger(), (objects, n) => {
      const value = { list: objects, n, neg: -n, nested: objects[0] ?? {} }
      expect(canonicalJson(value)).toBe(reference(value))
    }),
    { numRuns: 2000, seed: 20261128 },
  )
  // An enumerable key on the prototype is not the object's own: neither Object.keys nor the writer lists it.
  const inherited = Object.create({ zz: 1, a: 2 }) as Record<string, unknown>
  inherited['b'] = 1
  inherited['c'] = 2
  expect(canonicalJson(inherited)).toBe('{"b":1,"c":2}')
  expect(canonicalJson([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1700000000000000, 0, -0, 10, 9.5])).toBe(JSON.stringify([Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1700000000000000, 0, 0, 10, 9.5]))
})
