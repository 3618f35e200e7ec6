import { describe, expect, test } from 'vitest'
import { runStore } from '../../scripts/eval-conflict-store.js'

// Issue 27, next34: "the next X" names the next occurrence as of the day the fact was written
// (src/conflict/store/next-occurrence.ts). Two such facts written on days where the earlier's date
// had passed by the later's day are two occurrences; one next event told with two dates on the same
// day, or while the earlier's date is still ahead, stays a contradiction. Texts written for this
// test, apart from the data sets; main lists every pair in `occurrences`.

async function listed(facts: ReadonlyArray<readonly [string, string]>): Promise<string[]> {
  const run = await runStore(facts.map(([content, validFrom]) => ({ content, validFrom: `${validFrom}T10:00:00.000Z` })))
  return run.flags.map((f) => [f.a, f.b].sort().join(' / ')).sort()
}

const pair = (a: string, b: string): string => [a, b].sort().join(' / ')

/** [what, earlier text, its date, later text, its date] */
type Dated = readonly [string, string, string, string, string]

const occurrences: Dated[] = [
  ['a service whose date passed', "Oskar's next boiler service is on 12 February.", '2025-01-20', "Oskar's next boiler service is on 9 August.", '2025-04-03'],
  ['an upcoming review, months on', "Mira's upcoming performance review is on 3 March.", '2025-02-14', "Mira's upcoming performance review is on 6 September.", '2025-06-30'],
  ['a month alone, once it ended', "Tobias's next dental check-up is in May.", '2025-04-02', "Tobias's next dental check-up is on 18 November.", '2025-06-11'],
]

const clashes: Dated[] = [
  ['one next event, two dates, the same day', "Oskar's next boiler service is on 12 February.", '2025-01-20', "Oskar's next boiler service is on 19 February.", '2025-01-20'],
  ['the earlier date still ahead', "Mira's upcoming performance review is on 3 March.", '2025-02-14', "Mira's upcoming performance review is on 6 September.", '2025-02-20'],
  ['no "next": one dated thing', "Tobias's dental check-up is on 14 May.", '2025-04-02', "Tobias's dental check-up is on 18 November.", '2025-06-11'],
]

describe('"the next X" moves with the day it was written', () => {
  test.each(occurrences)('%s: two occurrences, not listed', async (_, a, da, b, db) => {
    expect(await listed([[a, da], [b, db]])).toEqual([])
  })
  test.each(occurrences)('%s: the dates decide, not the order of writing', async (_, a, da, b, db) => {
    expect(await listed([[b, db], [a, da]])).toEqual([])
  })
  test.each(clashes)('%s: still listed', async (_, a, da, b, db) => {
    expect(await listed([[a, da], [b, db]])).toEqual([pair(a, b)])
  })
})
