/**
 * The dev2 set's shape (issue 27, session 10; test/fixtures/README.md): the conversations read as
 * scripts/eval-conflict-store.ts reads LoCoMo, every pointer lands on a turn, the pairs carry valid
 * labels and types, and every pair is on the split. Shape only: nothing here runs the detector, so
 * its author never sees a flag.
 */
import { describe, expect, it } from 'vitest'
import { badPairs, type Conversation, conversationProblems, conversationSizes, type Pair, readFixture as readJson, repeatedPairs } from './hand-written-shape.js'

const conversations = (): Conversation[] => (readJson('conversations-dev2.json') as { conversations: Conversation[] }).conversations
const pairs = (): Pair[] => (readJson('conflict-pairs-dev2.json') as { pairs: Pair[] }).pairs

describe('conversations-dev2.json', () => {
  it('holds dev2-1..dev2-4, each in the shape the store eval reads', () => {
    const cs = conversations()
    expect(cs.map((c) => c.sample_id)).toEqual(['dev2-1', 'dev2-2', 'dev2-3', 'dev2-4'])
    expect(cs.flatMap(conversationProblems)).toEqual([])
  })

  it('gives each conversation 14-16 sessions, 180-200 turns, about 100 observations, 4-5 changes and 2 contradictions', () => {
    for (const c of conversations()) {
      const z = conversationSizes(c)
      expect({ id: c.sample_id, sessions: z.sessions >= 14 && z.sessions <= 16, turns: z.turns >= 180 && z.turns <= 200, observations: z.observations >= 90 && z.observations <= 115 }).toEqual({ id: c.sample_id, sessions: true, turns: true, observations: true })
      expect(z.changes).toBeGreaterThanOrEqual(4)
      expect(z.changes).toBeLessThanOrEqual(5)
      expect(z.contradictions).toBe(2)
    }
  })

  it('catches a pointer to a turn that does not exist and a change naming one', () => {
    // The checker itself must be able to fail: break a copy and read what it says.
    const broken = structuredClone(conversations()[0]!)
    const first = Object.values(broken.observation['session_1_observation']!)[0]!
    first[0] = [first[0]![0], 'D1:999']
    broken.changes[0] = { ...broken.changes[0]!, b: 'D99:1' }
    const problems = conversationProblems(broken)
    expect(problems.some((p) => p.includes('points at D1:999'))).toBe(true)
    expect(problems.some((p) => p.includes('names D99:1'))).toBe(true)
  })
})

describe('conflict-pairs-dev2.json', () => {
  it('holds 80 pairs d2-001..d2-080 with valid types and labels, 32 conflict / 28 compatible / 20 unrelated', () => {
    const ps = pairs()
    expect(ps.map((p) => p.id)).toEqual(Array.from({ length: 80 }, (_, i) => `d2-${String(i + 1).padStart(3, '0')}`))
    expect(badPairs(ps)).toEqual([])
    const count = (label: string): number => ps.filter((p) => p.label === label).length
    expect([count('conflict'), count('compatible'), count('unrelated')]).toEqual([32, 28, 20])
  })

  it('has no pair twice, in either order', () => {
    expect(repeatedPairs(pairs())).toBe(0)
  })

  it('puts every pair on the dev side of conflict-dev2-split.json and none on the holdout', () => {
    const split = readJson('conflict-dev2-split.json') as { dev: string[]; holdout: string[] }
    expect([...split.dev].sort()).toEqual(pairs().map((p) => p.id).sort())
    expect(split.holdout).toEqual([])
  })
})
