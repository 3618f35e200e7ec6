import { describe, expect, test } from 'vitest'
import { runStore } from '../../scripts/eval-conflict-store.js'

// Issue 27, change27: a value at its own date (src/conflict/store/states.ts, valueAtDate). Of two
// state claims months apart, the later one is a change when its shape says it is a value at a date:
// told as holding from a date ahead, dated at its own valid time as the earlier is at its own, a
// level told as the result of its change, or a reading of what is measured again and again. Texts
// written for this test, apart from the data sets. Main lists every change below.

/** Writes dated facts in the order given; the flags listed at the default threshold, each as its two texts sorted and joined. */
async function listed(facts: ReadonlyArray<readonly [string, string]>): Promise<string[]> {
  const run = await runStore(facts.map(([content, validFrom]) => ({ content, validFrom: `${validFrom}T10:00:00.000Z` })))
  return run.flags.map((f) => [f.a, f.b].sort().join(' / ')).sort()
}

const pair = (a: string, b: string): string => [a, b].sort().join(' / ')

/** [what, earlier text, its date, later text, its date] */
type Dated = readonly [string, string, string, string, string]

const changes: Dated[] = [
  ['a rate from a month ahead', 'Marek bills 80 euro an hour for legal translation.', '2025-01-10', 'Marek will bill 120 euro an hour for legal translation from April.', '2025-03-02'],
  ['shifts from a month ahead', 'Halvard works 12-hour day shifts.', '2025-01-10', 'Halvard will work 8-hour night shifts from October.', '2025-08-20'],
  ['a state, then a result dated at its own time', 'Yara cannot lift her arm above her shoulder.', '2025-02-01', 'Yara was cleared to lift her arm above her shoulder again in July.', '2025-07-10'],
  ['two moments, each at its own month', 'Pavel harvested his first strawberries in early May.', '2025-05-04', "Construction of Pavel's new barn begins in early September.", '2025-08-25'],
  ['a price at its own month each', "Sofia's lemons sold for 2 euro a kilo in February.", '2025-02-05', 'Sofia gets 1.20 euro a kilo for her lemons in June.', '2025-06-08'],
  ['a dose cut to a level', 'Greta takes 20 mg of prednisone daily.', '2025-01-10', "Greta's prednisone was cut to 5 mg daily.", '2025-05-12'],
  ['a frequency brought down to', 'Bilal takes his inhaler three times a day.', '2025-01-10', 'Bilal is down to once a day with his inhaler.', '2025-06-15'],
  ['a lab value read twice', "Lena's HbA1c was 8.1.", '2025-01-10', "Lena's HbA1c was 6.9.", '2025-07-02'],
]

// Flat contradictions at the same dates: none of them tells a value at a date.
const flat: Dated[] = [
  ['a flat other place', "Karim's sister Dilan lives in Houston.", '2025-01-10', "Karim's sister Dilan has lived in Phoenix her whole life.", '2025-06-12'],
  ['a rate said to have always been', 'Ruth charges 60 dollars a lesson.', '2025-01-10', 'Ruth has always charged 90 dollars a lesson.', '2025-06-12'],
  ['a deadline is no moment of its own', "Ivo's contract expires in March.", '2025-03-01', "Ivo's contract expires in September.", '2025-09-05'],
  ['one change told two ways', 'Unemployment in the valley fell to 3 percent.', '2025-01-10', 'Unemployment in the valley rose to 8 percent.', '2025-06-12'],
  ['a level not told as a reading taken', 'The server room sits at 19°C.', '2025-01-10', 'The server room is at 31°C these months.', '2025-06-12'],
]

describe('a value at its own date is a change, not a contradiction', () => {
  test.each(changes)('%s: not listed', async (_, a, da, b, db) => {
    expect(await listed([[a, da], [b, db]])).toEqual([])
  })
  test.each(changes)('%s: the dates decide, not the order of writing', async (_, a, da, b, db) => {
    expect(await listed([[b, db], [a, da]])).toEqual([])
  })
  test.each(flat)('%s: still listed', async (_, a, da, b, db) => {
    expect(await listed([[a, da], [b, db]])).toEqual([pair(a, b)])
  })
})

describe('a stream over months: the changes clear, the flat contradictions stay', () => {
  test('every pair written into one store', async () => {
    const facts = [...changes, ...flat].flatMap(([, a, da, b, db]) => [[a, da], [b, db]] as const)
    expect(await listed(facts)).toEqual(flat.map(([, a, , b]) => pair(a, b)).sort())
  })

  test('a move stays a contradiction however far apart: "lives in Toronto" / "moved to Vancouver"', async () => {
    const a = 'Kim lives in Toronto.'
    const b = 'Kim moved to Vancouver.'
    expect(await listed([[a, '2025-01-10'], [b, '2025-06-12']])).toEqual([pair(a, b)])
  })
})
