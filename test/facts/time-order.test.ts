import fc from 'fast-check'
import { expect, test, vi } from 'vitest'
import { timeOrder } from '../../src/facts/time-order.js'
import { versionFromRecord, type Version } from '../../src/facts/version.js'
import { byWrite, WriteOrder } from '../../src/facts/write-order.js'

/** What timeOrder must equal: the numbers as Float64Array's sort orders them, equal ones in input order. */
function expected(times: readonly number[]): number[] {
  const f = Float64Array.from(times)
  const rank = (x: number): number => (Number.isNaN(x) ? 2 : Object.is(x, -0) ? 0 : 1)
  return [...f.keys()].sort((a, b) => {
    const x = f[a]!, y = f[b]!
    if (Number.isNaN(x) || Number.isNaN(y)) return (Number.isNaN(x) ? 1 : 0) - (Number.isNaN(y) ? 1 : 0) || a - b
    return x - y || rank(x) - rank(y) || a - b
  })
}

test('timeOrder orders any doubles as Float64Array.sort does (-0 before +0, NaN last), equal ones in input order', () => {
  const num = fc.oneof(fc.double(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1, -1), fc.integer({ min: -3, max: 3 }))
  fc.assert(fc.property(fc.array(num, { maxLength: 300 }), (times) => {
    expect([...timeOrder(Float64Array.from(times))]).toEqual(expected(times))
  }), { numRuns: 500 })
})

test('timeOrder orders a quarter million ms timestamps with ties (the bytes they share skipped)', () => {
  let seed = 7
  const rand = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32)
  const base = Date.UTC(2026, 0, 1)
  const times = Array.from({ length: 250_000 }, () => base + Math.floor(rand() * 1_000_000))
  expect([...timeOrder(Float64Array.from(times))]).toEqual(expected(times))
})

test('timeOrder reads NaN of any sign or payload as one NaN, after +Infinity', () => {
  const words = new Uint32Array(6)
  const f = new Float64Array(words.buffer)
  f[0] = NaN
  f[1] = Infinity
  // A negative NaN with another payload: the sign bit and every exponent bit set.
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
  words[little ? 5 : 4] = 0xfff00001
  words[little ? 4 : 5] = 7
  expect(Number.isNaN(f[2]!)).toBe(true)
  expect([...timeOrder(f)]).toEqual([1, 0, 2])
})

const version = (i: number, t: number, hlc: number): Version =>
  versionFromRecord({
    id: `r${i}`, kind: 'fact', tenant: null, author: null, hlc: String(hlc).padStart(3, '0'),
    body: { content: `c${i}`, factId: `f${i}`, structuredId: null, metadata: {}, validFrom: 0, writtenAt: t, supersedes: null, source: { writtenBy: null, signature: null, publicKey: null } },
  }, new Set())

test('a WriteOrder built at once (a cold handle\'s first read) is the write order, damaged times (NaN) last', () => {
  const t = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(0, -0, NaN, 1.5))
  fc.assert(fc.property(fc.array(fc.record({ t, hlc: fc.nat(999) }), { maxLength: 120 }), (rows) => {
    const vs = rows.map((r, i) => version(i, r.t, r.hlc))
    const nan = vs.filter((v) => Number.isNaN(v.body.writtenAt)).sort(byWrite)
    const want = [...vs.filter((v) => !Number.isNaN(v.body.writtenAt)).sort(byWrite), ...nan]
    const w = WriteOrder.of(vs)
    expect(w.inWriteOrder().map((v) => v.ref)).toEqual(want.map((v) => v.ref))
  }), { numRuns: 300 })
})

test('a cold handle\'s first read of the write order does no Map work per version (issue 31, seventh round)', () => {
  // The old sortByWrite found each version again through a Map by write time: 2 Map calls a
  // version, 72% of a first retrieve's CPU in Chromium at 300k. The count, not the time, is pinned.
  const vs = Array.from({ length: 10_000 }, (_, i) => version(i, (i * 7919) % 10_007, i % 999))
  const w = WriteOrder.of(vs)
  const get = vi.spyOn(Map.prototype, 'get')
  const set = vi.spyOn(Map.prototype, 'set')
  try {
    const got = w.inWriteOrder()
    expect(got).toHaveLength(vs.length)
    expect(get.mock.calls.length + set.mock.calls.length).toBeLessThan(100)
  } finally {
    get.mockRestore()
    set.mockRestore()
  }
})
