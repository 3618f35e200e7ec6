import { describe, expect, it } from 'vitest'
import { badPairs, type Conversation, conversationProblems, conversationSizes, type Pair, readFixture, repeatedPairs } from './hand-written-shape.js'

/**
 * The shape checks every fresh hand-written set since dev4 runs (issue 27, session 12): its
 * conversations as scripts/eval-conflict-store.ts reads them, its assistant conversations' notes all
 * about the user, its pairs in the counts it was written to, every pair on its split. What differs
 * between sets is data, given here; nothing runs the detector, so a set's author never sees a flag.
 */
export interface HandWrittenSet {
  /** 'dev4': names its files (`conversations-dev4.json`, `conflict-pairs-dev4.json`, `conflict-dev4-split.json`) and ids. */
  readonly name: string
  /** Pair ids are `<pairPrefix>-001` ... `<pairPrefix>-060`. */
  readonly pairPrefix: string
  /** Inclusive bounds each conversation's turns and observations were written to. */
  readonly turns: readonly [number, number]
  readonly observations: readonly [number, number]
  /** The earlier sets whose speakers and pairs this one must not repeat ('dev2', 'dev3', ...). */
  readonly earlier: readonly string[]
  /** Indexes of the conversations between a user and an 'Assistant'. */
  readonly assistants: readonly number[]
  /** Speakers that are roles, not lives: left out of the check against earlier sets. */
  readonly roles: readonly string[]
  /** Roles this set holds more than once: left out of the check that its own speakers are distinct too. */
  readonly repeatedRoles: readonly string[]
}

export function describeHandWrittenSet(set: HandWrittenSet): void {
  const conversations = (): Conversation[] => (readFixture(`conversations-${set.name}.json`) as { conversations: Conversation[] }).conversations
  const pairs = (): Pair[] => (readFixture(`conflict-pairs-${set.name}.json`) as { pairs: Pair[] }).pairs
  const ids = [1, 2, 3].map((i) => `${set.name}-${i}`)
  const within = (n: number, [lo, hi]: readonly [number, number]): boolean => n >= lo && n <= hi

  describe(`conversations-${set.name}.json`, () => {
    it(`holds ${ids[0]}..${ids[2]}, each in the shape the store eval reads`, () => {
      const cs = conversations()
      expect(cs.map((c) => c.sample_id)).toEqual(ids)
      expect(cs.flatMap(conversationProblems)).toEqual([])
    })

    it(`gives each conversation 12-14 sessions, ${set.turns.join('-')} turns, ${set.observations.join('-')} observations, 4-5 changes and 2 contradictions`, () => {
      for (const c of conversations()) {
        const z = conversationSizes(c)
        expect({ id: c.sample_id, sessions: within(z.sessions, [12, 14]), turns: within(z.turns, set.turns), observations: within(z.observations, set.observations), changes: within(z.changes, [4, 5]), contradictions: z.contradictions })
          .toEqual({ id: c.sample_id, sessions: true, turns: true, observations: true, changes: true, contradictions: 2 })
      }
    })

    it(`has speakers of its own, none shared with the ${set.earlier.join(', ')} conversations`, () => {
      // A shared speaker would mean one life written twice, or a set that is not fresh; a role ('Assistant') is not a life.
      const speakersOf = (cs: Conversation[]): unknown[] => cs.flatMap((c) => [c.conversation['speaker_a'], c.conversation['speaker_b']])
      const mine = speakersOf(conversations())
      const distinct = mine.filter((s) => !set.repeatedRoles.includes(s as string))
      expect(new Set(distinct).size).toBe(distinct.length)
      const earlier = new Set(set.earlier.flatMap((e) => speakersOf((readFixture(`conversations-${e}.json`) as { conversations: Conversation[] }).conversations)))
      expect(mine.filter((s) => !set.roles.includes(s as string) && earlier.has(s))).toEqual([])
    })

    it.each(set.assistants.map((i) => [i, ids[i]!]))('keeps assistant conversation %i (%s) as notes about the user: no observation of the assistant', (i) => {
      // The register an agent's memory meets: the assistant stores what the user says, never its own replies.
      const c = conversations()[i as number]!
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

  describe(`conflict-pairs-${set.name}.json`, () => {
    it(`holds 60 pairs ${set.pairPrefix}-001..${set.pairPrefix}-060 with valid types and labels, 24 conflict / 21 compatible / 15 unrelated`, () => {
      const ps = pairs()
      expect(ps.map((p) => p.id)).toEqual(Array.from({ length: 60 }, (_, i) => `${set.pairPrefix}-${String(i + 1).padStart(3, '0')}`))
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

    it(`has no pair twice, in either order, and no pair copied from the ${set.earlier.join(', ')} sets`, () => {
      expect(repeatedPairs(pairs())).toBe(0)
      const earlier = set.earlier.flatMap((e) => (readFixture(`conflict-pairs-${e}.json`) as { pairs: Pair[] }).pairs)
      expect(repeatedPairs([...pairs(), ...earlier])).toBe(repeatedPairs(earlier))
    })

    it(`puts every pair on the dev side of conflict-${set.name}-split.json and none on the holdout`, () => {
      const split = readFixture(`conflict-${set.name}-split.json`) as { dev: string[]; holdout: string[] }
      expect([...split.dev].sort()).toEqual(pairs().map((p) => p.id).sort())
      expect(split.holdout).toEqual([])
    })
  })
}
