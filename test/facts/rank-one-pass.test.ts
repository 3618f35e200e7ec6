import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { LexicalIndex } from '../../src/facts/lexical-index.js'
import { pack, rank } from '../../src/facts/rank.js'
import type { RankParams } from '../../src/facts/types.js'
import type { Version } from '../../src/facts/version.js'
import { ReferenceLexicalIndex } from './lexical-reference.js'
import { rankIndexes, rankStore, type RankRow } from './rank-store.js'
import { pack as referencePack, rank as referenceRank } from './rank-reference.js'

/**
 * Issue 31: rank() keeps the best matches in one bounded selection while it scores them, takes the
 * context sources from it, and answers from it (plus the memories that borrowed context) for as
 * long as those are known to come before every other match; past that it ranks every relevant
 * memory as before. The order must be exactly the full ranking's: the reference is the ranking as
 * it was before issue 15 (test/facts/rank-reference.ts), which sorts every candidate.
 *
 * The stores here have hundreds of matches, more than the selection holds (64, or the context
 * sources), with few distinct scores (ties on score, importance and write time), and loans that
 * lift a weak match past the selection's last one, so the read runs into the full ranking.
 */

const WORDS = ['lemon', 'cake', 'garden', 'tomato', 'dentist', 'friday', 'north', 'blue']

const row = fc.record({
  // Mostly one word or none: many equal scores, and candidates that match nothing beside matches.
  words: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<string[]>(['lemon'], ['lemon'], ['garden'], []) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 4 }) },
  ),
  importance: fc.constantFrom(0, 0, 0.5, 1),
  // Few write times and valid times: equal write times (ordered by sequence) and episode breaks.
  t: fc.integer({ min: 0, max: 40 }),
  validHours: fc.constantFrom(0, 0, 0, 2),
  live: fc.constantFrom(true, true, true, false),
})
const params = fc.constantFrom<Partial<RankParams> | undefined>(
  undefined, { contextSources: 2 }, { contextSources: 0 }, { contextSources: 2.5 }, { contextSources: 500 }, { context: 0 },
  { contextReach: 3, contextDecay: 0.9, context: 0.95 },
)
const query = fc.array(fc.constantFrom(...WORDS, 'zzz-unseen'), { minLength: 1, maxLength: 3 })

const store = (rows: ReadonlyArray<RankRow & { live: boolean }>): Version[] => rankStore(rows, (r, i) => `${r.words.join(' ')} n${i % 7}`, 10007, 5)

describe('rank() in one pass answers exactly as the full ranking (issue 31)', () => {
  test('random stores of hundreds of matches: the whole order, every budget cut, read twice', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 150, maxLength: 600 }), query, params, fc.constantFrom(0, 200, 2_000, 20_000, 1e9), (rows, q, p, budget) => {
        const versions = store(rows)
        const { lexical, reference, candidates } = rankIndexes(versions, (i) => rows[i]!.live)
        const text = q.join(' ')
        const want = [...referenceRank(text, candidates, { lexical: reference, params: p })].map((v) => v.ref)
        // From the index's live documents (what retrieve() does) and by lookup (an asOf query).
        for (const liveInIndex of [true, false]) {
          const ranked = rank(text, candidates, { lexical, liveInIndex, params: p })
          expect(pack(ranked, budget, null).map((v) => v.ref)).toEqual(referencePack(want.map((r) => candidates.find((v) => v.ref === r)!), budget, null).map((v) => v.ref))
          // The rest of the order, and again from the start: the lazy parts replay what they gave.
          expect([...ranked].map((v) => v.ref)).toEqual(want)
          expect([...ranked].map((v) => v.ref)).toEqual(want)
        }
      }),
      { numRuns: 150 },
    )
  }, 120_000)

  test('a candidate that borrows context ranks below matches left out of the selection: the read goes on in full order', () => {
    // 200 plain matches of "lemon", a strong one every 30th; every third candidate matches nothing
    // and, beside a strong match, borrows 0.7 of its score: less than a plain match has, so it
    // comes after matches the first selection (64 at contextSources 2) did not keep.
    const rows = Array.from({ length: 300 }, (_, i) => ({
      words: i % 3 === 2 ? ['tomato'] : i % 30 === 0 ? ['lemon', 'lemon', 'lemon'] : ['lemon'], importance: 0, t: i, validHours: 0, live: true,
    }))
    const versions = store(rows)
    const lexical = new LexicalIndex(), reference = new ReferenceLexicalIndex()
    for (const v of versions) {
      lexical.add(v.ref, v.terms, v)
      lexical.mark(v.ref, true)
      reference.add(v.ref, v.terms)
    }
    for (const p of [undefined, { contextSources: 2 }]) {
      const want = [...referenceRank('lemon', versions, { lexical: reference, params: p })].map((v) => v.ref)
      for (const n of [1, 10, 64, 65, 100, 250, 300]) {
        const got = pack(rank('lemon', versions, { lexical, liveInIndex: true, params: p }), 1e9, n).map((v) => v.ref)
        expect(got).toEqual(want.slice(0, n))
      }
    }
  })
})
