import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { DEFAULT_CONFLICT_THRESHOLD } from '../../src/conflict/threshold.js'

/**
 * Issue 27, sixth round: which thing a value, a name or a shared word belongs to. Written from the
 * dev texts judged against each other across pairs (what a store puts side by side) and probe
 * pairs written for the round, never from holdout data. Each compatible pair of the fixture was
 * flagged before this round (src/conflict/judge/attachment.ts: a value between a determiner and a
 * noun is that noun's; judge/claim-frame.ts: a lower-case name before the shared noun says which
 * one, a score is not an amount, two dates of one person are two events; words/stopwords.ts:
 * prepositions; judge/checks/identifiers.ts: hyphenated words before a noun; read/subject.ts: a
 * noun under its second everyday name is still one noun with two names before it).
 */
type Rule = 'which' | 'noun' | 'tally' | 'person' | 'function' | 'hyphen' | 'alias'
interface Probe { readonly a: string; readonly b: string; readonly rule?: Rule }
const fixture = JSON.parse(readFileSync(new URL('../fixtures/conflict-event-probes.json', import.meta.url), 'utf8')) as { compatible: Probe[]; conflict: Probe[] }
const detector = new TextConflictDetector()
const loose = new TextConflictDetector({ threshold: 0.2 })

// The frame's readings lower a flag and say why; the others read the pair so that no check fires.
const NOTE: Partial<Record<Rule, RegExp>> = { which: /each names its own thing/, tally: /score or a vote/, person: /share only who/, alias: /two subjects/ }

describe('conflict events: a value, a name or a word of another thing is not flagged', () => {
  test.each(fixture.compatible.map((p) => [p.rule!, p.a, p.b] as const))('%s: %s / %s', (rule, a, b) => {
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const v = detector.judge(x, y)
      expect(v.conflict, v.reason).toBe(false)
      expect(v.confidence).toBeLessThan(DEFAULT_CONFLICT_THRESHOLD)
    }
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
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const v = detector.judge(x, y)
      expect(v.conflict, v.reason).toBe(true)
      expect(v.confidence).toBeGreaterThanOrEqual(DEFAULT_CONFLICT_THRESHOLD)
    }
  })
})
