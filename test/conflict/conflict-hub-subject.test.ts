import { describe, expect, test } from 'vitest'
import { runStore, type StoreFact } from '../../scripts/eval-conflict-store.js'
import { SubjectTally } from '../../src/facts/subject-tally.js'
import { subjectName } from '../../src/conflict/store/subject-name.js'
import type { Version } from '../../src/facts/version.js'

// Issue 27, session 10 (subject27): a store's hub-subject rule (src/conflict/store/hub-subject.ts).
// In a stream of observations nearly every fact opens with the same one or two names, so sharing
// that name is weak evidence of one subject: such a pair keeps its flag only when the two texts say
// one attribute of it twice. Written through createMemory + mem.facts.write, listed by
// mem.facts.conflicts() at the default threshold. Hand-written texts (not from any eval set).

/** Twelve facts about Rosa and six about Ivo that contradict nothing. */
const DIARY: readonly string[] = [
  'Rosa teaches chemistry at a secondary school.',
  'Rosa adopted a grey cat called Pimento.',
  'Rosa is learning to bake bread on weekends.',
  'Rosa volunteers at the food bank on Thursdays.',
  'Rosa bought a second-hand road bike.',
  'Rosa reads crime novels before bed.',
  'Rosa went to a jazz concert with her sister.',
  'Rosa repainted her kitchen yellow.',
  'Rosa joined a choir that rehearses in a church hall.',
  'Rosa wants to hike the Camino next summer.',
  'Rosa grows tomatoes on her balcony.',
  'Rosa writes letters to her grandmother every month.',
  'Ivo works night shifts at the airport.',
  'Ivo collects old maps.',
  'Ivo plays five-a-side football on Mondays.',
  'Ivo is saving for a van.',
  'Ivo fixed the neighbours\' fence.',
  'Ivo cooks dal every Sunday.',
]
const diary = (...more: string[]): StoreFact[] => [...DIARY, ...more].map((content) => ({ content }))

// Pairs that main lists (0.85 to 0.9): another object of one verb, another verb of one noun,
// durations of two things.
const compatible: Array<[string, string, string]> = [
  ['a verb negated of one object, stated of another', 'Rosa has never visited Iceland.', 'Rosa visited a glacier museum in Oslo.'],
  ['never seen one thing, saw another', 'Rosa has never seen the northern lights.', 'Rosa saw a moose from the train near Kiruna.'],
  ['what she sells against what she bought', 'Rosa runs a bakery where she sells sourdough loaves.', 'Rosa has a bakery where she bought new rye loaves.'],
  ['the rehab after a surgery against a walk after it', "Rosa's knee surgery is set for March, followed by six weeks of physio.", 'Rosa walks with a cane two weeks after her knee surgery.'],
]

// One attribute of the hub said twice: listed in the same store.
const contradictions: Array<[string, string, string]> = [
  ['an age', 'Rosa is 34 years old.', 'Rosa is 29 years old.'],
  ['a home town', 'Rosa lives in Lyon.', 'Rosa lives in Ghent.'],
  ['how often', 'Rosa swims four times a week.', 'Rosa swims twice a week.'],
  ['one verb negated and stated', 'Rosa cannot drive since her eye operation.', 'Rosa drives to work every day.'],
  ['a kind and its class', 'Rosa plays the violin beautifully.', 'Rosa has never played a musical instrument.'],
]

describe('a name most facts open with is weak evidence of one subject', () => {
  test('the diary alone lists nothing', async () => {
    expect((await runStore(diary())).flags).toEqual([])
  })
  test.each(compatible)('%s: not listed in a diary about Rosa', async (_, a, b) => {
    expect((await runStore(diary(a, b))).flags).toEqual([])
  })
  test.each(compatible)('%s: listed between two facts alone (no hub), lowered in the diary with a reason', async (_, a, b) => {
    expect((await runStore([{ content: a }, { content: b }])).flags).toHaveLength(1)
    const [low] = (await runStore(diary(a, b), { minConfidence: 0.2 })).flags
    expect(low?.confidence).toBeLessThan(0.8)
    expect(low?.reason).toMatch(/"rosa" opens \d+% of the store's facts that open with a name/)
  })
  // Each beside a compatible pair of the same shape, so the store must tell them apart (main lists both).
  test.each(contradictions.map((c, i) => [...c, compatible[i % compatible.length]!] as const))('%s: still listed in a diary about Rosa, the compatible pair beside it not', async (_, a, b, [, x, y]) => {
    const flags = (await runStore(diary(x, a, y, b))).flags
    expect(flags.map((f) => [f.a, f.b].sort())).toEqual([[a, b].sort()])
    expect(flags[0]!.reason).not.toMatch(/opens \d+%/)
  })
})

describe('who a fact opens with', () => {
  test.each([
    ["Rosa's knee surgery is set for March.", 'rosa'],
    ['Tomás moved to Porto.', 'tomás'],
    ['Rosa: My knee is better.', 'rosa'],
    ['Rosa: How was the concert?', null],
    // hub33: a noun after a determiner is counted as a subject too; only a share of the store makes it a hub.
    ['The bakery opens at 7.', 'the bakery'],
    ['It opens at 7.', null],
    ['She lives in Lyon.', null],
  ])('%s -> %s', (text, name) => {
    expect(subjectName(text)).toBe(name)
  })
})

describe('the subject tally follows the store, one change at a time', () => {
  const version = (ref: string, content: string, tenant: string | null = null): Version => ({ ref, tenant, body: { content, metadata: {} } }) as unknown as Version
  test('a hub needs ten facts and a fifth of the named ones; deletes and supersessions uncount', () => {
    const t = new SubjectTally()
    const rosa = Array.from({ length: 10 }, (_, i) => version(`r${i}`, `Rosa note ${i}.`))
    for (const v of rosa.slice(0, 9)) t.add(v)
    expect(t.sharedHub(rosa[0]!, rosa[1]!)).toBeNull()
    t.add(rosa[9]!)
    t.add(rosa[9]!) // told twice, counted once
    expect(t.sharedHub(rosa[0]!, rosa[1]!)).toEqual({ name: 'rosa', share: 1 })
    // Notes that name no one do not dilute the share; other names do.
    for (let i = 0; i < 30; i++) t.add(version(`n${i}`, `the rent is due on day ${i}.`))
    expect(t.sharedHub(rosa[0]!, rosa[1]!)?.share).toBe(1)
    for (let i = 0; i < 40; i++) t.add(version(`o${i}`, `Ola${String.fromCharCode(97 + (i % 26))}x note.`))
    expect(t.sharedHub(rosa[0]!, rosa[1]!)).toEqual({ name: 'rosa', share: 0.2 })
    t.delete('r9')
    expect(t.sharedHub(rosa[0]!, rosa[1]!)).toBeNull()
    // Another tenant's Rosa is another store.
    expect(t.sharedHub(rosa[0]!, version('x', 'Rosa again.', 'team'))).toBeNull()
  })
})
