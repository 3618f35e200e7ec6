import { describe, expect, test } from 'vitest'
import { runStore, type StoreFact } from '../../scripts/eval-conflict-store.js'
import { SubjectTally } from '../../src/facts/subject-tally.js'
import { subjectName } from '../../src/conflict/store/subject-name.js'
import type { Version } from '../../src/facts/version.js'

// Issue 27, session 12 (hub33): an agent's notes about one role ("The customer ...") have a hub
// subject as a diary about one name does (src/conflict/store/hub-subject.ts, rule 15). Hand-written
// texts, not from any eval set; main has no hub here ("the customer" is no name) and lists them.

/** Twelve notes about the customer that contradict nothing, and two about the shop. */
const NOTES: readonly string[] = [
  'The customer ordered a walnut dining table.',
  'The customer prefers deliveries in the morning.',
  'The customer lives on the third floor without a lift.',
  'The customer asked for the invoice by email.',
  "The customer's daughter will sign for the parcel.",
  'The customer has a dog that barks at couriers.',
  'The customer wants the old sofa taken away.',
  'The customer keeps the receipts in a folder.',
  'The customer likes oak more than pine.',
  'The customer measured the alcove twice.',
  'The customer is repainting the hallway.',
  'The customer reads reviews before buying.',
  'The showroom closes early on Sundays.',
  'The warehouse moved to the ring road.',
]
const notes = (...more: string[]): StoreFact[] => [...NOTES, ...more].map((content) => ({ content }))

// Two sums said of two things: main lists each pair (0.9). The sums carry a thousands separator:
// main's rule read "€310,000" as the words "310" and "000", found no token "310,000", and weighed
// nothing (with only that fix reverted, these fail too).
const compatible: Array<[string, string, string]> = [
  // Sums whose things rule 29 does not read (since notes40 it reads "€310,000 for the cottage" /
  // "a garden shed under €2,000" as two things and lowers them before the hub is asked).
  ['what was paid against a price limit', 'The customer paid €310,000 in 2019.', "The customer's price limit is €2,000."],
  ['what a sale made against a price limit', 'The customer sold a flat in 2019, making €260,000.', "The customer's price limit is €2,000."],
]
// One attribute said twice: listed in the same store.
const contradictions: Array<[string, string, string]> = [
  ['one budget, two sums', "The customer's furniture budget is $5,000.", 'The customer has used most of the $7,500 furniture budget.'],
  ['an age', 'The customer is 42 years old.', 'The customer is 38 years old.'],
]

describe('a noun most notes open with ("the customer") is a hub subject', () => {
  test('the notes alone list nothing', async () => {
    expect((await runStore(notes())).flags).toEqual([])
  })
  test.each(compatible)('%s: listed between two notes alone, not in the notes about the customer', async (_, a, b) => {
    expect((await runStore([{ content: a }, { content: b }])).flags).toHaveLength(1)
    expect((await runStore(notes(a, b))).flags).toEqual([])
    const [low] = (await runStore(notes(a, b), { minConfidence: 0.2 })).flags
    expect(low?.reason).toMatch(/"the customer" opens \d+% of the store's facts/)
  })
  test.each(contradictions.map((c, i) => [...c, compatible[i % compatible.length]!] as const))('%s: still listed, the compatible pair beside it not', async (_, a, b, [, x, y]) => {
    const flags = (await runStore(notes(x, a, y, b))).flags
    expect(flags.map((f) => [f.a, f.b].sort())).toEqual([[a, b].sort()])
    expect(flags[0]!.reason).not.toMatch(/opens \d+%/)
  })
})

describe('who a note opens with, when it is a role', () => {
  test.each([
    ['The customer paid $2,400.', 'the customer'],
    ["The patient's dose was raised.", 'the patient'],
    ['My client wants a refund.', 'my client'],
    ['The Ritz opens at 7.', null],
    ['Rosa: my knee is better.', 'rosa'],
  ])('%s -> %s', (text, name) => {
    expect(subjectName(text)).toBe(name)
  })
})

describe('a noun hub is counted beside the names, not into their share', () => {
  const version = (ref: string, content: string): Version => ({ ref, tenant: null, body: { content, metadata: {} } }) as unknown as Version
  test('nouns do not dilute a name; a noun is a share of names and nouns', () => {
    const t = new SubjectTally()
    const rosa = Array.from({ length: 10 }, (_, i) => version(`r${i}`, `Rosa note ${i}.`))
    for (const v of rosa) t.add(v)
    const user = Array.from({ length: 30 }, (_, i) => version(`u${i}`, `The user note ${i}.`))
    for (const v of user) t.add(v)
    expect(t.sharedHub(rosa[0]!, rosa[1]!)).toEqual({ name: 'rosa', share: 1 })
    expect(t.sharedHub(user[0]!, user[1]!)).toEqual({ name: 'the user', share: 0.75 })
    for (const v of user.slice(10)) t.delete(v.ref)
    expect(t.sharedHub(user[0]!, user[1]!)).toEqual({ name: 'the user', share: 0.5 })
    t.delete('u0')
    expect(t.sharedHub(user[1]!, user[2]!)).toBeNull()
  })
})
