import { describe, expect, test } from 'vitest'
import { runStore } from '../../scripts/eval-conflict-store.js'

// Issue 27, next34: the bounds of a rating scale ("from zero to ten", "out of ten") are no value of
// what is rated (read/extract-values.ts, SCALE), and one reading on a dated day against what is
// usual is one occasion (checks/values.ts, oneOccasion). Texts written for this test, apart from
// the data sets; main lists every pair in `compatible`.

async function listed(facts: ReadonlyArray<readonly [string, string]>): Promise<string[]> {
  const run = await runStore(facts.map(([content, validFrom]) => ({ content, validFrom: `${validFrom}T10:00:00.000Z` })))
  return run.flags.map((f) => [f.a, f.b].sort().join(' / ')).sort()
}

const pair = (a: string, b: string): string => [a, b].sort().join(' / ')

/** [what, text, its date, other text, its date] */
type Dated = readonly [string, string, string, string, string]

const compatible: Dated[] = [
  ['a scale and a usual score against one dated score', 'Omar rates his back pain from zero to ten and usually puts it at 5.', '2025-06-01', 'Omar rated his back pain a 5 on 4 June.', '2025-06-05'],
  ['a scale against what most days bring', 'Omar rates his back pain from zero to ten.', '2025-06-01', "Omar's back pain is a 5 on most days.", '2025-06-01'],
  ['a scale against one score', 'Omar rates his knee from zero to ten.', '2025-06-01', 'Omar rates his knee a 6.', '2025-06-02'],
  ['one dated reading against the usual one', 'Ines graded her migraine an 8 on 2 March.', '2025-03-03', "Ines's migraine is about 3 most days.", '2025-03-10'],
]

const clashes: Dated[] = [
  ['two usual scores', 'Ines usually scores her sleep a 6.', '2025-03-01', 'Ines usually scores her sleep a 9.', '2025-03-01'],
  ['one dated day told twice', 'Ines graded her migraine an 8 on 2 March.', '2025-03-03', 'Ines graded her migraine a 3 on 2 March.', '2025-03-04'],
]

describe('a scale is no value; a usual value and one dated value are two', () => {
  test.each(compatible)('%s: not listed', async (_, a, da, b, db) => {
    expect(await listed([[a, da], [b, db]])).toEqual([])
  })
  test.each(clashes)('%s: still listed', async (_, a, da, b, db) => {
    expect(await listed([[a, da], [b, db]])).toEqual([pair(a, b)])
  })
})
