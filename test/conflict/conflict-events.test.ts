import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { locomoObservations } from '../../scripts/eval-conflict-store.js'
import { expectJudgedBothWays, freeTextFlags, readProbes } from '../helpers/conflict-probes.js'

/**
 * Issue 27, sixth round: which thing a value, a name or a shared word belongs to. Written from the
 * dev texts judged against each other across pairs (what a store puts side by side) and probe
 * pairs written for the round, never from holdout data. Each compatible pair of the fixture was
 * flagged before this round (src/conflict/judge/attachment.ts: a value between a determiner and a
 * noun is that noun's; judge/claim-frame.ts: a lower-case name before the shared noun says which
 * one, a score is not an amount, two dates of one person are two events; words/stopwords.ts:
 * prepositions; judge/checks/identifiers.ts: hyphenated words before a noun; read/subject.ts: a
 * noun under its second everyday name is still one noun with two names before it; words/phrases.ts:
 * "has been to" a place is a visit).
 */
type Rule = 'which' | 'noun' | 'tally' | 'person' | 'function' | 'hyphen' | 'alias' | 'visit'
const fixture = readProbes<Rule>('conflict-event-probes.json')
const detector = new TextConflictDetector()
const loose = new TextConflictDetector({ threshold: 0.2 })

// The frame's readings lower a flag and say why; the others read the pair so that no check fires.
const NOTE: Partial<Record<Rule, RegExp>> = { which: /each names its own thing/, tally: /score or a vote/, person: /share only who/, alias: /two subjects/ }

describe('conflict events: a value, a name or a word of another thing is not flagged', () => {
  test.each(fixture.compatible.map((p) => [p.rule!, p.a, p.b] as const))('%s: %s / %s', (rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
    const note = NOTE[rule]
    const l = loose.judge(a, b)
    if (note) {
      expect(l.conflict, l.reason).toBe(true)
      expect(l.reason).toMatch(note)
    } else expect(l.conflict, l.reason).toBe(false)
  })
})

describe('conflict events: contradictions about one thing stay flagged', () => {
  test.each(fixture.conflict.map((p) => [p.a, p.b] as const))('%s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })
})

describe('conflict events: in a store', () => {
  // Before this round conv-30's observations gave two flags, one of them "Gina has been to Rome
  // once" against "Gina lost her job at Door Dash ..." (a visit read as a place of work). The last,
  // "sells fashion pieces" / "acquired new unique pieces", went with a hub subject (session 10).
  test("conv-30's 169 observations written as facts give no free-text flag", async () => {
    const facts = locomoObservations('conv-30')
    expect(facts.length).toBe(169)
    const listed = await freeTextFlags(facts)
    expect(listed, listed.join('\n')).toEqual([])
  }, 60_000)
})
