import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { pack, rank } from '../../src/facts/rank.js'
import type { RankParams } from '../../src/facts/types.js'
import type { Version } from '../../src/facts/version.js'
import { rankIndexes, rankStore, type RankRow } from './rank-store.js'
import { pack as referencePack, rank as referenceRank } from './rank-reference.js'

/**
 * Issue 31 (third round): from the index's live documents, rank() picks its selection on the
 * numbers (the size-th best score, then importance and write time among the matches at that
 * score) and makes Versions of those alone; the other matches enter only when a read goes past
 * the selection, or as context neighbours, with their scores read from the index. The order must
 * be exactly the full ranking's (test/facts/rank-reference.ts). Stores here have thousands of
 * matches with a handful of distinct scores, so more than 4x the selection ties at its floor (the
 * split on importance and write time runs), and budgets that read past the selection and into
 * the zero-score tail.
 */

const WORDS = ['lemon', 'cake', 'garden', 'tomato']

const row = fc.record({
  words: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom<string[]>(['lemon'], ['lemon'], ['lemon', 'cake'], ['garden'], []) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 3 }) },
  ),
  importance: fc.constantFrom(0, 0, 0.5, 1),
  t: fc.integer({ min: 0, max: 300 }),
  validHours: fc.constantFrom(0, 0, 0, 2),
  live: fc.constantFrom(true, true, true, true, false),
})

// One length for every document: equal term counts give equal scores, by the thousand.
const store = (rows: readonly RankRow[]): Version[] => rankStore(rows, (r) => [...r.words, 'pad', 'pad', 'pad'].slice(0, 3).join(' '), 100003, 6)

describe('rank() selects its best matches on the numbers, as the full ranking orders them (issue 31)', () => {
  test('thousands of equal scores: the whole order, budget cuts, context from matches below the selection', () => {
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 2_500, maxLength: 4_000 }),
        fc.constantFrom('lemon', 'lemon cake', 'garden tomato', 'cake'),
        fc.constantFrom<Partial<RankParams> | undefined>(undefined, { contextSources: 2 }, { contextSources: 0 }, { contextSources: 300 }, { contextReach: 3, context: 0.95 }),
        fc.constantFrom(200, 2_000, 40_000),
        (rows, q, p, budget) => {
          const versions = store(rows)
          const { lexical, reference, candidates } = rankIndexes(versions, (i) => rows[i]!.live)
          const want = [...referenceRank(q, candidates, { lexical: reference, params: p })].map((v) => v.ref)
          const ranked = rank(q, candidates, { lexical, liveInIndex: true, params: p })
          expect(pack(ranked, budget, null).map((v) => v.ref)).toEqual(referencePack(want.map((r) => candidates.find((v) => v.ref === r)!), budget, null).map((v) => v.ref))
          expect([...ranked].map((v) => v.ref)).toEqual(want)
        },
      ),
      { numRuns: 25 },
    )
  }, 300_000)
})
