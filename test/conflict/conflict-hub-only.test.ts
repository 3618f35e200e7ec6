import { describe, expect, test } from 'vitest'
import { runStore, type StoreFact } from '../../scripts/eval-conflict-store.js'

// Issue 27, session 13 (hub37, rule 32, src/conflict/store/hub-only.ts): in an assistant's notes
// about its user, two notes whose only shared key is "the user" say nothing of one attribute, so a
// value clash between them needs a sign that both values are of one thing. Hand-written texts, not
// from any eval set; main lists every compatible pair below in the same store.

/** Twelve notes about the user that contradict nothing. */
const NOTES: readonly string[] = [
  'The user keeps bees behind the garden shed.',
  'The user prefers tea without sugar.',
  'The user is learning to knit on a phone app.',
  "The user's neighbour feeds the cat at weekends.",
  'The user sings in a community choir.',
  'The user dislikes driving on motorways.',
  'The user repaired the greenhouse roof himself.',
  'The user reads crime novels in bed.',
  'The user volunteers at the food bank.',
  'The user has a sister who teaches music.',
  'The user grows leeks and broad beans.',
  'The user wants a quieter lawnmower.',
]
// The pair is written first: its notes share only the user with every note, and a fact meets its
// nearest neighbours with ties in write order, so the two meet each other.
const notes = (...pair: string[]): StoreFact[] => [...pair, ...NOTES].map((content) => ({ content }))

// Values of two things, in two notes that share only the user: main lists each (0.85-0.9).
const compatible: Array<[string, string, string]> = [
  // (rule 33 reads "the walk is six miles" / "Heron is 40 feet long" as two subjects of "is" on its own: a verb's
  // distance here, so the pair shows what the hub rule adds)
  // (since notes40, rule 39 reads "cycles twelve miles" / "is 40 feet long" as a distance and a size on its own: a
  // distance of no going here)
  ["a verb's distance against a boat's length", 'The user lives twelve miles from the depot.', 'Heron is 40 feet long and the user repaints her every spring.'],
  ['what a sum prices against what is saved', "The user's allotment at Eastfield costs £85 a year, paid each April.", 'The user has £1,300 put by after buying the ladder.'],
  ['a date of a job against a weekday of a habit', "The user's new course starts on Monday 14 September.", 'The user starts his Saturday bike rides at 8 am.'],
  ['hours said after a comma against the time of a meal', 'The user works as a baker at a shop in Hull, 5 am to 1 pm.', 'The user eats porridge and an apple at 4:30 am before early shifts.'],
  // (a run against a shoe's mileage is rule 33's "one occurrence against a running total" on its own since it landed)
  ["a walk's distance against a boat's length", "The user's daily stroll takes the user six miles along the canal.", 'Heron is 40 feet long and the user repaints her every spring.'],
]
// One attribute said twice: listed in the same store.
const contradictions: Array<[string, string, string]> = [
  ['an age, the hub after a copula', 'The user is 41.', 'The user is 39.'],
  ['one thing shared beside the hub', "The user's train is at 8:10.", "The user's train is at 8:40."],
  ['one verb framing two names', 'The user works at Greggs.', 'The user works at Tesco.'],
  ['one head counted twice', 'The user ran a 4-mile hill run on Sunday.', 'The user went for a 6-mile run on Sunday.'],
]

describe('two notes that share only the hub subject', () => {
  test('the notes alone list nothing', async () => {
    expect((await runStore(notes())).flags).toEqual([])
  })
  test.each(compatible)('%s: listed between two notes alone, not among the notes about the user', async (_, a, b) => {
    expect((await runStore([{ content: a }, { content: b }])).flags).toHaveLength(1)
    expect((await runStore(notes(a, b))).flags).toEqual([])
    const [low] = (await runStore(notes(a, b), { minConfidence: 0.2 })).flags
    expect(low?.reason).toMatch(/two notes about the user that share nothing else/)
  })
  test.each(contradictions)('%s: still listed among the notes about the user', async (_, a, b) => {
    const flags = (await runStore(notes(a, b))).flags
    expect(flags.map((f) => [f.a, f.b].sort())).toEqual([[a, b].sort()])
    expect(flags[0]!.reason).not.toMatch(/share nothing else/)
  })
})
