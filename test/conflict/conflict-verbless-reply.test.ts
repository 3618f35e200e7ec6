import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { verbless } from '../../src/conflict/judge/verbless-reply.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// A chat reply without a verb (issue 27, session 14, turns40; src/conflict/judge/verbless-reply.ts):
// "Twelve weeks, £300." answers a question the store never saw, so its value has no subject to
// clash on. Found among dev4, dev6, dev7 and dev8's turns; the sentences here are written apart
// from them. Each compatible pair was flagged on main; each contradiction stays.
const detector = new TextConflictDetector()

describe('a value said in a reply without a verb', () => {
  test.each([
    ['Nearer the office, twelve minutes on the scooter instead of fifty on the tram.', 'Twelve weeks, £300.'],
    ['Mostly. The ferry is forty minutes, the drive round two hours.', 'Around forty minutes on the coach from Oban, not awful.'],
    ['Ravi: Mostly. The ferry is forty minutes, the drive round two hours.', 'Ines: Around forty minutes on the coach from Oban, not awful.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    // The reply repeats what it is about: a clash.
    ['The ferry to Mull is forty minutes.', 'Around fifty minutes on the ferry to Mull.'],
    // A note opens with what it is about, not with its answer.
    ['rent going up, landlord says £650 from June', 'landlord again: £720 from November'],
    // An order has no verb marker, and is a claim.
    ['leave the heating at 19°C', 'set the heating to 23°C'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))

  test('a subject with a verb no list holds is no reply', () => {
    const read = (t: string) => detector.read(t)
    const r = read('only 40 people came to the quiz')
    expect(verbless(r.tokens, r.norm)).toBe(false)
    const s = read('Two hours by car.')
    expect(verbless(s.tokens, s.norm)).toBe(true)
  })
})
