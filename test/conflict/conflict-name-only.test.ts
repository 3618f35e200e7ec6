import { describe, expect, test } from 'vitest'
import { runStore } from '../../scripts/eval-conflict-store.js'

// Issue 27, session 14 (notes39, src/conflict/store/name-only.ts): rule 32 asks two notes that
// share only the store's hub for a sign that their values are of one thing; two notes that share
// only another name they both open with (a person, a firm) share as little. Hand-written texts, not
// from any eval set; main lists every compatible pair below as the store's only flag.

// Values of two things of one name: main lists each (0.85-0.9).
const compatible: Array<[string, string, string]> = [
  ['what a firm charges against what it paid', 'Harbour Bakes charges a £15 delivery fee.', "Harbour Bakes paid £260 for Ana's hygiene course."],
  ["where a person works against where she grew up", 'Odile is a radiographer at the Leicester Royal Infirmary.', 'Odile is from Grantham.'],
]
// One attribute said twice of one name: listed before and after.
const contradictions: Array<[string, string, string]> = [
  ['one verb framing two places', 'Odile works at the Leicester Royal Infirmary.', 'Odile works at Kettering General.'],
  ['a fee said twice', 'Harbour Bakes charges a £15 delivery fee.', 'Harbour Bakes charges a £20 delivery fee.'],
  ['the name after a copula', 'Odile is 52.', 'Odile is 47.'],
  // "turns" stands between the name and the value: the name is still what the value measures.
  ['the name before "turns"', 'Odile turns 50 next week.', 'Odile is 47.'],
]

describe('two notes that share only the name they open with', () => {
  test.each(compatible)('%s: not listed', async (_, a, b) => {
    expect((await runStore([{ content: a }, { content: b }])).flags).toEqual([])
    const [low] = (await runStore([{ content: a }, { content: b }], { minConfidence: 0.2 })).flags
    expect(low?.reason).toMatch(/share nothing else/)
  })
  test.each(contradictions)('%s: still listed', async (_, a, b) => {
    const flags = (await runStore([{ content: a }, { content: b }])).flags
    expect(flags).toHaveLength(1)
    expect(flags[0]!.reason).not.toMatch(/share nothing else/)
  })
})
