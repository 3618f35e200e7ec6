import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { locomoTurns } from '../../scripts/eval-conflict-store.js'
import { expectJudgedBothWays, freeTextFlags, readProbes } from '../helpers/conflict-probes.js'

/**
 * Issue 27, fifth round: what an opposite word is said of. Three readings, from dev errors only
 * (conv-26's two flags and conv-30's): a state word counts in its own forms, not in another form
 * of its verb ("done" is finished, "did" is not: src/conflict/words/poles.ts); an opposite is of
 * the clause it stands in; a state of a thing opposed where two texts share only the speaker
 * shares no thing (src/conflict/judge/claim-frame.ts). Each compatible pair of the fixture was
 * flagged at 0.85 before this round.
 */
const fixture = readProbes<'forms' | 'clause' | 'person'>('conflict-attachment-probes.json')
const detector = new TextConflictDetector()
const loose = new TextConflictDetector({ threshold: 0.2 })

const NOTE = { clause: /the opposite is said in a clause about something else/, person: /share only who speaks/ } as const

describe('conflict attachment: an opposite word said of another thing is not flagged', () => {
  test.each(fixture.compatible.map((p) => [p.rule!, p.a, p.b] as const))('%s: %s / %s', (rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
    // The frame's readings lower, they do not veto: a caller asking lower sees why. A word that is
    // not a state ("did") is no opposite at all.
    const l = loose.judge(a, b)
    if (rule === 'forms') expect(l.kind).not.toBe('antonym')
    else {
      expect(l.conflict).toBe(true)
      expect(l.reason).toMatch(NOTE[rule])
    }
  })
})

describe('conflict attachment: opposite states of one thing stay flagged', () => {
  test.each(fixture.conflict.map((p) => [p.a, p.b] as const))('%s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })
})

describe('conflict attachment: in a store', () => {
  // Before this round conv-26's turns gave two flags ("struggled" vs "great" about a support
  // system; "finished" vs "not done", sharing only Caroline's "I"), 0.48 per 100.
  test("conv-26's 419 turns written as facts give no free-text flag", async () => {
    const turns = locomoTurns('conv-26')
    expect(turns.length).toBe(419)
    expect(await freeTextFlags(turns)).toEqual([])
  }, 60_000)
})
