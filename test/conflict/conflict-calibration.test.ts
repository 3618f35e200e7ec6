import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { DEFAULT_CONFLICT_THRESHOLD, KEEP_CONFIDENCE } from '../../src/conflict/threshold.js'

/**
 * Issue 27, twelfth round: a confidence that means something. A flag whose evidence is one slot
 * of one subject, both sides asserted, scores at or above the default threshold (0.8) whatever
 * check found it; one weak reading takes it under. On the code before this round the first group
 * scored 0.7 or 0.75, and every pair of the other two groups was flagged at its threshold (0.6)
 * but the plan, which scored 0.585 then as now: it pins that a plan stays reachable.
 */
const detector = new TextConflictDetector()

describe('calibration: one slot of one subject clears the default threshold, whatever check finds it', () => {
  test.each([
    ['another modifier in a short pair', 'Kate works the day shift at the hospital', 'Kate works the night shift at the hospital'],
    ['another street', 'The new office is on Pine Street', 'The new office is on Oak Street'],
    ['another identifier in one place', 'the bucket is in eu-central-1', 'bucket lives in us-west-2'],
    ['another format', 'always reply in plain-text', 'always reply in rich-text'],
    ['another place after one verb', 'omar lands at heathrow at 9:10', "Omar's flight lands at LGW 9:10am"],
    ['a negating prefix', 'invoice 3390 is assigned to Omid', '3390 is unassigned'],
    ['another team', 'Ivo is on the data team', 'ivo moved to the security team'],
  ])('%s', (_name, a, b) => {
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const v = detector.judge(x, y)
      expect(v.conflict, v.reason).toBe(true)
      expect(v.confidence).toBeGreaterThanOrEqual(0.8)
      expect(DEFAULT_CONFLICT_THRESHOLD).toBe(0.8)
    }
  })
})

describe('calibration: a modifier that names no kind of its noun is no answer', () => {
  test.each([
    ['a count', 'Theo tutors two students on Friday afternoons.', 'Theo tutors one student in chemistry.', 'a count of the thing'],
    ['a count against a kind', 'Ines is the only UX designer on the team.', 'Ines manages three designers.', 'a count of the thing'],
    ['"a second" one', "Kenji's ramen truck opened on a Saturday.", 'Kenji is looking at a second truck.', 'another one of the thing'],
    ['"a second" one, written apart', 'Priya runs the bakery with one baker.', 'Priya hired a second baker in May.', 'a count of the thing'],
    ['an adverb', 'Abena is not happy about possibly moving the trip.', 'Abena and Kofi moved the trip.', 'modify no noun'],
  ])('%s', (_name, a, b, note) => {
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const v = detector.judge(x, y)
      expect(v.conflict, v.reason).toBe(false)
      // Lowered, not vetoed: a caller asking for candidates still sees it.
      if (v.confidence > 0) expect(v.reason).toContain(note)
    }
  })
})

describe('calibration: one weak reading takes a flag under the default, and minConfidence still reaches it', () => {
  test.each([
    ['said among many other things', 'Scared at first. My A1C was 7.2. My mother had diabetes, so I know what it can do.', 'My A1C came back 6.4! The doctor said if I keep this up, I might reduce the metformin.'],
    ['one side is a plan', 'Marisol signed up for the Colfax half marathon in May.', 'Marisol is thinking about running a half marathon in Boulder in October.'],
  ])('%s', (_name, a, b) => {
    const v = detector.judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
    expect(v.confidence).toBeGreaterThanOrEqual(KEEP_CONFIDENCE)
    expect(v.confidence).toBeLessThan(DEFAULT_CONFLICT_THRESHOLD)
    expect(new TextConflictDetector({ threshold: KEEP_CONFIDENCE }).judge(a, b).conflict).toBe(true)
  })
})
