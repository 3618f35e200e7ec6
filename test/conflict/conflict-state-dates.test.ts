import { describe, expect, test } from 'vitest'
import { runStore, type StoreFact } from '../../scripts/eval-conflict-store.js'

// Issue 27, dates27: states that change over time, read from a store's dates
// (src/conflict/store/states.ts). Two state claims written months apart: a later one that tells a
// change, or a drifting value the gap allows, is a change (listed below the default threshold);
// a flat contradiction keeps its flag. Written through createMemory + mem.facts.write with their
// valid times, listed by mem.facts.conflicts() at the default threshold. Main's store lists every
// change below (the diary rule leaves states alone), so each test fails there.

/** Writes two facts with their valid times, in the order given, and counts the flags listed. */
async function flags(first: [string, string], second: [string, string]): Promise<number> {
  const facts: StoreFact[] = [first, second].map(([content, validFrom]) => ({ content, validFrom: `${validFrom}T10:00:00.000Z` }))
  return (await runStore(facts)).flags.length
}

describe('a later statement that tells a change is not a contradiction', () => {
  const changes: Array<[string, string, string]> = [
    ['a move, told as news', 'Ana lives in Porto.', 'Ana has since moved to Lisbon.'],
    ['"no longer"', 'Leo is vegetarian.', 'Leo is no longer vegetarian and eats steak every day.'],
    ['more than before', 'Ines runs twice a week.', 'Ines runs more than before, four times a week.'],
    ['something got', 'The cabin has no internet.', 'They got internet at the cabin.'],
    ['a count that grew', 'Priya has two grandchildren.', 'Priya has three grandchildren.'],
    ['a recurring price that moved', 'The gym costs $40 a month.', 'The gym costs $45 a month.'],
    ['a weight that moved', 'Rex weighs 30 kg.', 'Rex weighs 34 kg.'],
    ['another job, months on', 'Omar works as a barista.', 'Omar is a software engineer at Stripe.'],
  ]
  test.each(changes)('%s: not listed five months apart', async (_, a, b) => {
    expect(await flags([a, '2025-01-10'], [b, '2025-06-12'])).toBe(0)
  })
  test.each(changes)('%s: the dates decide, not the order of writing', async (_, a, b) => {
    expect(await flags([b, '2025-06-12'], [a, '2025-01-10'])).toBe(0)
  })
})

/** Writes dated facts in the order given; the flags listed, each as its two texts sorted and joined. */
async function listed(facts: Array<[string, string]>): Promise<string[]> {
  const run = await runStore(facts.map(([content, validFrom]) => ({ content, validFrom: `${validFrom}T10:00:00.000Z` })))
  return run.flags.map((f) => [f.a, f.b].sort().join(' / ')).sort()
}

const pair = (a: string, b: string): string => [a, b].sort().join(' / ')

// Each stream holds changes main lists and contradictions it lists too: only the contradictions
// must stay. Subjects differ between pairs, so no pair meets another.
describe('a stream over months: the changes clear, the flat contradictions stay', () => {
  test('changes told as news and drifting values against flat contradictions', async () => {
    const flat: Array<[string, string]> = [
      ['Leo is vegetarian.', 'Leo eats steak every day.'],
      ['Hugo lives in Porto.', 'Hugo lives in Madrid.'],
      ['Tara moved to Lisbon.', 'Tara still lives in Porto.'],
      ['Nell has three grandchildren.', 'Nell has two grandchildren.'],
      ['Dana hates cilantro.', 'Dana asked for extra cilantro on her tacos again.'],
    ]
    const changes: Array<[string, string]> = [
      ['Ana lives in Bristol.', 'Ana has since moved to Leeds.'],
      ['Priya has two grandchildren.', 'Priya has three grandchildren.'],
      ['The gym costs $40 a month.', 'The gym costs $45 a month.'],
      ['Omar works as a barista.', 'Omar is a software engineer at Stripe.'],
    ]
    const facts: Array<[string, string]> = [...flat, ...changes].flatMap(([a, b]): Array<[string, string]> => [[a, '2025-01-10'], [b, '2025-06-12']])
    expect(await listed(facts)).toEqual(flat.map(([a, b]) => pair(a, b)).sort())
  })

  test('news told first is the earlier state: "has since moved" before "lives in Porto" stays', async () => {
    const facts: Array<[string, string]> = [
      ['Ana has since moved to Lisbon.', '2025-01-10'],
      ['Ana lives in Porto.', '2025-06-12'],
      ['Ines runs twice a week.', '2025-01-10'],
      ['Ines runs more than before, four times a week.', '2025-06-12'],
    ]
    expect(await listed(facts)).toEqual([pair('Ana has since moved to Lisbon.', 'Ana lives in Porto.')])
  })
})

describe('an age grows with the gap', () => {
  test('one that grew by the years between clears; one that shrank, or grew faster than the gap, stays', async () => {
    const facts: Array<[string, string]> = [
      ["Marta's son is 14.", '2024-01-10'],
      ["Marta's son is 16.", '2026-02-01'],
      ["Jon's daughter is sixteen.", '2024-01-10'],
      ["Jon's daughter is fourteen.", '2026-02-01'],
      ["Kemal's niece is 11.", '2024-01-10'],
      ["Kemal's niece is 13.", '2024-03-10'],
      ['Biscuit is 3.', '2024-01-10'],
      ['Biscuit turns 5 next week.', '2024-04-10'],
    ]
    expect(await listed(facts)).toEqual(
      [pair("Jon's daughter is sixteen.", "Jon's daughter is fourteen."), pair("Kemal's niece is 11.", "Kemal's niece is 13."), pair('Biscuit is 3.', 'Biscuit turns 5 next week.')].sort(),
    )
  })
})
