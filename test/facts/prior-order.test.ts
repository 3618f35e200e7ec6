import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { pack, rank } from '../../src/facts/rank.js'
import type { Version } from '../../src/facts/version.js'
import { WriteOrder } from '../../src/facts/write-order.js'
import { rank as referenceRank } from './rank-reference.js'
import { rankIndexes, rankStore } from './rank-store.js'

/**
 * Issue 31 (fourth round): rank()'s zero-score tail is read from the heads' own order by
 * importance, write time and ref (src/facts/prior-order.ts), kept in step with every add and
 * delete, instead of a pass over every current fact per query. The order must be exactly the tail's
 * (`prior` in rank.ts), whatever the edits between two reads, and a query matching nothing must
 * not touch the store's other versions.
 */

const refOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
/** The tail's order as rank.ts states it. */
const prior = (a: Version, b: Version): number =>
  b.importance - a.importance || b.body.writtenAt - a.body.writtenAt || refOrder(a.ref, b.ref)

const rowOf = fc.record({
  importance: fc.constantFrom(0, 0, 0.25, 0.5, 1, -2, 7),
  // Few distinct times: versions sharing a write time (and an importance) are put in ref order.
  t: fc.integer({ min: 0, max: 40 }),
})

const read = (w: WriteOrder, n: number): string[] => {
  const it = w.byPrior()!
  const out: string[] = []
  for (let r = it.next(); !r.done && out.length < n; r = it.next()) out.push(r.value.ref)
  return out
}

describe('the heads by importance and recency, kept in step with writes (issue 31)', () => {
  test('every read equals a sort of the current versions, across adds, deletes and a rebuild', () => {
    fc.assert(
      fc.property(
        fc.array(rowOf, { minLength: 20, maxLength: 300 }),
        fc.array(fc.record({ add: fc.boolean(), at: fc.nat(), edits: fc.integer({ min: 1, max: 40 }), n: fc.integer({ min: 1, max: 400 }) }), { maxLength: 12 }),
        (rows, steps) => {
          const versions = rankStore(rows.map((r) => ({ words: [], importance: r.importance, t: r.t, validHours: 0 })), () => 'x', 1009, 4)
          const w = new WriteOrder()
          const live = new Set<Version>()
          // Half the versions first (in a scrambled order), then edits in batches, each followed by a partial read.
          versions.forEach((v, i) => {
            if (i % 2 === 0) {
              w.add(versions[(i * 7) % versions.length]!)
              live.add(versions[(i * 7) % versions.length]!)
            }
          })
          expect(read(w, Infinity)).toEqual([...live].sort(prior).map((v) => v.ref))
          for (const s of steps) {
            // Up to 40 edits between two reads: past 32 the order is dropped and built again.
            for (let e = 0; e < s.edits; e++) {
              const v = versions[(s.at + e * 13) % versions.length]!
              if (s.add) {
                w.add(v)
                live.add(v)
              } else {
                w.delete(v.ref)
                live.delete(v)
              }
            }
            expect(read(w, s.n)).toEqual([...live].sort(prior).slice(0, s.n).map((v) => v.ref))
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  test('a NaN write time (a damaged record) leaves no order to keep: byPrior() is undefined and rank() passes over the candidates as before', () => {
    const rows = [0, Number.NaN, 2, 3].map((t, i) => ({ words: ['pad'], importance: i === 2 ? 1 : 0.5, t, validHours: 0 }))
    const versions = rankStore(rows, (r) => (r.importance === 1 ? 'lemon' : 'pad'), 101, 3)
    expect(versions.some((v) => Number.isNaN(v.body.writtenAt))).toBe(true)
    const w = WriteOrder.of(versions)
    expect(w.byPrior()).toBeUndefined()
    const { lexical, reference } = rankIndexes(versions, () => true)
    for (const q of ['nothing here', 'lemon']) {
      const want = [...referenceRank(q, versions, { lexical: reference })].map((v) => v.ref)
      expect([...rank(q, w, { lexical, liveInIndex: true })].map((v) => v.ref)).toEqual(want)
    }
  })

  test('a query matching nothing reads a few versions of 20,000, not each (regression: the tail walked every current fact)', () => {
    const rows = Array.from({ length: 20_001 }, (_, i) => ({ words: [], importance: i === 20_000 ? 2 : ((i * 37) % 11) / 10, t: i, validHours: 0 }))
    const all = rankStore(rows, (_, i) => `fact number ${i}`, 100_003, 6)
    const plain = all.slice(0, 20_000)
    let reads = 0
    // Each version counts the reads of its fields: the tail's cost in versions touched.
    const versions = plain.map((v) => new Proxy(v, { get: (target, key, receiver) => (reads++, Reflect.get(target, key, receiver)) }))
    const { lexical, candidates } = rankIndexes(versions, () => true)
    const heads = new WriteOrder()
    for (const v of candidates) heads.add(v)
    const ask = (): string[] => pack(rank('mortgage refinancing', heads, { lexical, liveInIndex: true }), 400, null).map((v) => v.ref)
    const first = ask()
    reads = 0
    const second = ask()
    expect(second).toEqual(first)
    expect(second).toEqual([...plain].sort(prior).slice(0, second.length).map((v) => v.ref))
    expect(second.length).toBeGreaterThan(5)
    expect(reads).toBeLessThan(500)
    // A write between two queries is an append to its group: the next query still reads a few.
    const extra = all[20_000]!
    heads.add(extra)
    reads = 0
    expect(ask()[0]).toBe(extra.ref)
    expect(reads).toBeLessThan(500)
  })
})
