/**
 * The dev6 set's shape (issue 27, session 12 round 3; test/fixtures/README.md): three conversations read as
 * scripts/eval-conflict-store.ts reads LoCoMo, every pointer lands on a turn, every labelled change
 * has observations on both sides, the two assistant conversations' notes are all about the user, the
 * pairs carry valid labels and types in the counts the set was written to, and every pair is on the
 * split. Shape only: nothing here runs the detector, so its author never sees a flag.
 */
import { describe, expect, it } from 'vitest'
import { badPairs, type Conversation, conversationProblems, conversationSizes, type Pair, readFixture, repeatedPairs } from './hand-written-shape.js'

const conversations = (): Conversation[] => (readFixture('conversations-dev6.json') as { conversations: Conversation[] }).conversations
const pairs = (): Pair[] => (readFixture('conflict-pairs-dev6.json') as { pairs: Pair[] }).pairs

describe('conversations-dev6.json', () => {
  it('holds dev6-1..dev6-3, each in the shape the store eval reads', () => {
    const cs = conversations()
    expect(cs.map((c) => c.sample_id)).toEqual(['dev6-1', 'dev6-2', 'dev6-3'])
    expect(cs.flatMap(conversationProblems)).toEqual([])
  })

  it('gives each conversation 12-14 sessions, 120-140 turns, 70-90 observations, 4-5 changes and 2 contradictions', () => {
    for (const c of conversations()) {
      const z = conversationSizes(c)
      expect({ id: c.sample_id, sessions: z.sessions >= 12 && z.sessions <= 14, turns: z.turns >= 120 && z.turns <= 140, observations: z.observations >= 70 && z.observations <= 90, changes: z.changes >= 4 && z.changes <= 5, contradictions: z.contradictions })
        .toEqual({ id: c.sample_id, sessions: true, turns: true, observations: true, changes: true, contradictions: 2 })
    }
  })

  it('has speakers of its own, none shared with the dev2-dev5 conversations', () => {
    // A shared speaker would mean one life written twice, or a set that is not fresh; 'Assistant' is a role, not a life (two dev6 conversations have one).
    const speakersOf = (cs: Conversation[]): unknown[] => cs.flatMap((c) => [c.conversation['speaker_a'], c.conversation['speaker_b']])
    const mine = speakersOf(conversations()).filter((s) => s !== 'Assistant')
    expect(new Set(mine).size).toBe(mine.length)
    const earlier = new Set(['conversations-dev2.json', 'conversations-dev3.json', 'conversations-dev4.json', 'conversations-dev5.json'].flatMap((f) => speakersOf((readFixture(f) as { conversations: Conversation[] }).conversations)))
    expect(mine.filter((s) => earlier.has(s))).toEqual([])
  })

  it.each([0, 1])('keeps assistant conversation %i (dev6-1, dev6-2) as notes about the user: no observation of the assistant', (i) => {
    // The register an agent's memory meets: the assistant stores what the user says, never its own replies.
    const c = conversations()[i]!
    const assistant = c.conversation['speaker_b']
    expect(assistant).toBe('Assistant')
    const notes = Object.values(c.observation).flatMap((bySpeaker) => Object.entries(bySpeaker))
    expect(notes.filter(([who]) => who === assistant)).toEqual([])
    const speakerOf = new Map(Object.entries(c.conversation).filter(([k]) => /^session_\d+$/.test(k)).flatMap(([, turns]) => (turns as Array<{ dia_id: string; speaker: string }>).map((t) => [t.dia_id, t.speaker] as const)))
    expect(notes.flatMap(([, list]) => list).filter(([, ref]) => speakerOf.get(ref) !== c.conversation['speaker_a'])).toEqual([])
  })

  it('catches an observation pointing outside its session and a change with no observation on one side', () => {
    // The checker itself must be able to fail: break a copy and read what it says.
    const broken = structuredClone(conversations()[0]!)
    const first = Object.values(broken.observation['session_3_observation']!)[0]!
    first[0] = [first[0]![0], 'D2:1']
    const side = broken.changes[1]!.a
    for (const bySpeaker of Object.values(broken.observation)) for (const [who, list] of Object.entries(bySpeaker)) bySpeaker[who] = list.filter(([, ref]) => ref !== side)
    const problems = conversationProblems(broken)
    expect(problems.some((p) => p.includes('points outside its session'))).toBe(true)
    expect(problems.some((p) => p.includes(`no observation points at ${side}`))).toBe(true)
  })
})

describe('conflict-pairs-dev6.json', () => {
  it('holds 60 pairs d6-001..d6-060 with valid types and labels, 24 conflict / 21 compatible / 15 unrelated', () => {
    const ps = pairs()
    expect(ps.map((p) => p.id)).toEqual(Array.from({ length: 60 }, (_, i) => `d6-${String(i + 1).padStart(3, '0')}`))
    expect(badPairs(ps)).toEqual([])
    const count = (label: string): number => ps.filter((p) => p.label === label).length
    expect([count('conflict'), count('compatible'), count('unrelated')]).toEqual([24, 21, 15])
  })

  it('has at least 8 INSTRUCTION and 10 PREFERENCE pairs, each type with a conflict and a negative', () => {
    const ps = pairs()
    const ofType = (t: string): Pair[] => ps.filter((p) => p.type === t)
    expect(ofType('INSTRUCTION').length).toBeGreaterThanOrEqual(8)
    expect(ofType('PREFERENCE').length).toBeGreaterThanOrEqual(10)
    for (const t of ['FACT', 'EVENT', 'PREFERENCE', 'SKILL', 'INSTRUCTION']) {
      expect({ t, conflict: ofType(t).some((p) => p.label === 'conflict'), negative: ofType(t).some((p) => p.label !== 'conflict') }).toEqual({ t, conflict: true, negative: true })
    }
  })

  it('has no pair twice, in either order, and no pair copied from the dev2-dev5 sets', () => {
    expect(repeatedPairs(pairs())).toBe(0)
    const earlier = ['conflict-pairs-dev2.json', 'conflict-pairs-dev3.json', 'conflict-pairs-dev4.json', 'conflict-pairs-dev5.json'].flatMap((f) => (readFixture(f) as { pairs: Pair[] }).pairs)
    expect(repeatedPairs([...pairs(), ...earlier])).toBe(repeatedPairs(earlier))
  })

  it('puts every pair on the dev side of conflict-dev6-split.json and none on the holdout', () => {
    const split = readFixture('conflict-dev6-split.json') as { dev: string[]; holdout: string[] }
    expect([...split.dev].sort()).toEqual(pairs().map((p) => p.id).sort())
    expect(split.holdout).toEqual([])
  })
})
