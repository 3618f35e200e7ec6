import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { locomoObservations, locomoTurns } from '../../scripts/eval-conflict-store.js'
import { expectJudgedBothWays, freeTextFlags, readProbes } from '../helpers/conflict-probes.js'

/**
 * Issue 27, seventh round: which one of several things of one kind a text is about. Written from
 * compatible probe pairs in the styles an agent's store holds in volume (an owner's things, events
 * of one person, a series of homes or cars, "a" parade and another), from conv-26's and conv-30's
 * texts judged pairwise, and from conv-30's store flags, never from holdout data. Each compatible
 * pair with a rule was flagged before this round (read/subject.ts: two things of one owner, and
 * "current" and "new" read as words of the subject, so two of a series have two modifiers;
 * judge/claim-frame.ts: two dates of "a" thing; read/reading.ts: an -ing word that names an
 * activity, "progress" outside "in progress").
 */
type Rule = 'owner' | 'which' | 'indefinite' | 'activity' | 'place' | 'label'
const fixture = readProbes<Rule>('conflict-instance-probes.json')
const detector = new TextConflictDetector()
const loose = new TextConflictDetector({ threshold: 0.2 })

// The readings that lower a flag say why in its reason; "activity" reads the pair so that no check fires.
const NOTE: Record<Rule, RegExp | null> = {
  owner: /two subjects of one owner/,
  which: /two subjects: "(?:first|current)/,
  indefinite: /two of them/,
  activity: null,
  // Ninth round: a place after one noun, or two nouns after members of one class, make two subjects.
  place: /two subjects: "\w+ [^"]+" vs "\w+ [^"]+"/,
  label: /two subjects: /,
}

describe('conflict instances: two things of one kind are not flagged', () => {
  test.each(fixture.compatible.map((p) => [p.rule ?? '-', p.a, p.b] as const))('%s: %s / %s', (rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
    if (rule === '-') return
    const note = NOTE[rule]
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const l = loose.judge(x, y)
      if (note) expect(l.reason).toMatch(note)
      else expect(l.conflict, l.reason).toBe(false)
    }
  })

  test('the fixture holds at least 60 compatible pairs, at least 10 of them flagged before the round', () => {
    expect(fixture.compatible.length).toBeGreaterThanOrEqual(60)
    expect(fixture.compatible.filter((p) => p.rule).length).toBeGreaterThanOrEqual(10)
  })

  test('the ninth round adds at least 30 compatible pairs told apart by a place or a label, 10 of them flagged before, and 10 contradictions of that shape', () => {
    const ninth = (p: { style?: string }): boolean => p.style === 'place' || p.style === 'label'
    const compatible = fixture.compatible.filter(ninth)
    expect(compatible.length).toBeGreaterThanOrEqual(30)
    expect(compatible.filter((p) => p.rule === 'place' || p.rule === 'label').length).toBeGreaterThanOrEqual(10)
    expect(fixture.conflict.filter(ninth).length).toBeGreaterThanOrEqual(10)
  })
})

describe('conflict instances: contradictions about one thing stay flagged', () => {
  test.each(fixture.conflict.map((p) => [p.a, p.b] as const))('%s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  // Each reading holds only where its shape does: "the" parade is one parade, one owner's one thing.
  test.each([
    ['Caroline went to the pride parade in June', 'Caroline went to a pride parade in August'],
    ["Maya's dentist appointment is on March 3", "Maya's appointment is on March 5"],
    ['The new office is on Pine Street', 'The office is on Oak Street'],
    ['the backup job is still running', 'the backup job finished an hour ago'],
  ])('%s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })
})

describe('conflict instances: in a store', () => {
  // Before this round conv-30's turns written as text gave two flags: "a local comp last year" /
  // "a dance comp near me next month" (two comps) and "my progress" / "getting stuff done".
  test("conv-30's 369 turns written as text give no free-text flag, and its observations none (session 10: a hub subject)", async () => {
    const turns = locomoTurns('conv-30', false)
    expect(turns.length).toBe(369)
    const listed = await freeTextFlags(turns)
    expect(listed, listed.join('\n')).toEqual([])
    const observed = await freeTextFlags(locomoObservations('conv-30'))
    expect(observed, observed.join('\n')).toEqual([])
  }, 120_000)

  test("conv-26's 184 observations give no free-text flag", async () => {
    const listed = await freeTextFlags(locomoObservations('conv-26'))
    expect(listed, listed.join('\n')).toEqual([])
  }, 60_000)
})
