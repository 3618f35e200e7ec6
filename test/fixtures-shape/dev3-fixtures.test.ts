/**
 * The dev3 set's shape (issue 27, session 11; test/fixtures/README.md): the conversations read as
 * scripts/eval-conflict-store.ts reads LoCoMo, every pointer lands on a turn, every labelled change
 * has observations on both sides, the pairs carry valid labels and types in the counts the set was
 * written to, and every pair is on the split. Shape only: nothing here runs the detector, so its
 * author never sees a flag.
 */
import { describe, expect, it } from 'vitest'
import { badPairs, type Conversation, conversationProblems, conversationSizes, type Pair, readFixture, repeatedPairs } from './hand-written-shape.js'

const conversations = (): Conversation[] => (readFixture('conversations-dev3.json') as { conversations: Conversation[] }).conversations
const pairs = (): Pair[] => (readFixture('conflict-pairs-dev3.json') as { pairs: Pair[] }).pairs

describe('conversations-dev3.json', () => {
  it('holds dev3-1..dev3-4, each in the shape the store eval reads', () => {
    const cs = conversations()
    expect(cs.map((c) => c.sample_id)).toEqual(['dev3-1', 'dev3-2', 'dev3-3', 'dev3-4'])
    expect(cs.flatMap(conversationProblems)).toEqual([])
  })

  it('gives each conversation 14-16 sessions, 180-200 turns, about 100 observations, 4-5 changes and 2 contradictions', () => {
    for (const c of conversations()) {
      const z = conversationSizes(c)
      expect({ id: c.sample_id, sessions: z.sessions >= 14 && z.sessions <= 16, turns: z.turns >= 180 && z.turns <= 200, observations: z.observations >= 90 && z.observations <= 115, changes: z.changes >= 4 && z.changes <= 5, contradictions: z.contradictions })
        .toEqual({ id: c.sample_id, sessions: true, turns: true, observations: true, changes: true, contradictions: 2 })
    }
  })

  it('has speakers of its own: no name shared with another dev3 conversation', () => {
    // Four lives, four pairs of people: a shared speaker would mean one life written twice.
    const speakers = conversations().flatMap((c) => [c.conversation['speaker_a'], c.conversation['speaker_b']])
    expect(new Set(speakers).size).toBe(speakers.length)
  })

  it('catches an observation pointing outside its session and a change with no observation on one side', () => {
    // The checker itself must be able to fail: break a copy and read what it says.
    const broken = structuredClone(conversations()[1]!)
    const first = Object.values(broken.observation['session_2_observation']!)[0]!
    first[0] = [first[0]![0], 'D1:1']
    const side = broken.changes[0]!.b
    for (const bySpeaker of Object.values(broken.observation)) for (const [who, list] of Object.entries(bySpeaker)) bySpeaker[who] = list.filter(([, ref]) => ref !== side)
    const problems = conversationProblems(broken)
    expect(problems.some((p) => p.includes('points outside its session'))).toBe(true)
    expect(problems.some((p) => p.includes(`no observation points at ${side}`))).toBe(true)
  })
})

describe('conflict-pairs-dev3.json', () => {
  it('holds 80 pairs d3-001..d3-080 with valid types and labels, 32 conflict / 28 compatible / 20 unrelated', () => {
    const ps = pairs()
    expect(ps.map((p) => p.id)).toEqual(Array.from({ length: 80 }, (_, i) => `d3-${String(i + 1).padStart(3, '0')}`))
    expect(badPairs(ps)).toEqual([])
    const count = (label: string): number => ps.filter((p) => p.label === label).length
    expect([count('conflict'), count('compatible'), count('unrelated')]).toEqual([32, 28, 20])
  })

  it('has at least 10 INSTRUCTION and 14 PREFERENCE pairs, each type with a conflict and a negative', () => {
    // The earlier sets were thin on instructions and preferences, where the blind set's false flags were.
    const ps = pairs()
    const ofType = (t: string): Pair[] => ps.filter((p) => p.type === t)
    expect(ofType('INSTRUCTION').length).toBeGreaterThanOrEqual(10)
    expect(ofType('PREFERENCE').length).toBeGreaterThanOrEqual(14)
    for (const t of ['FACT', 'EVENT', 'PREFERENCE', 'SKILL', 'INSTRUCTION']) {
      expect({ t, conflict: ofType(t).some((p) => p.label === 'conflict'), negative: ofType(t).some((p) => p.label !== 'conflict') }).toEqual({ t, conflict: true, negative: true })
    }
  })

  it('has no pair twice, in either order, and no pair copied from the dev2 set', () => {
    expect(repeatedPairs(pairs())).toBe(0)
    const dev2 = (readFixture('conflict-pairs-dev2.json') as { pairs: Pair[] }).pairs
    expect(repeatedPairs([...pairs(), ...dev2])).toBe(0)
  })

  it('puts every pair on the dev side of conflict-dev3-split.json and none on the holdout', () => {
    const split = readFixture('conflict-dev3-split.json') as { dev: string[]; holdout: string[] }
    expect([...split.dev].sort()).toEqual(pairs().map((p) => p.id).sort())
    expect(split.holdout).toEqual([])
  })
})
