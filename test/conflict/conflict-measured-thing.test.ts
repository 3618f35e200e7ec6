import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/conflict/judge/text-detector.js'

// Issue 27, session 11 (calib28): two values answer one question only when both texts measure
// one thing, a name both carry or a word that stands in what a text is about
// (src/conflict/judge/measured-thing.ts). Pairs written for this test, apart from the fixtures.
describe('two things measured', () => {
  const detector = new TextConflictDetector()

  // Each was flagged at 0.9 by main (89c5679): the only shared word is a unit, a preposition, or
  // a noun one side counts and the other wishes for.
  test.each([
    ['we roast the coffee beans at 230°C', 'the walk-in fridge is set to 4°C'],
    ['we proof the dough at 27°C', 'the kiln fires at 1200°C'],
    ['message the lodger in room 2 before a viewing, she never answers the phone', 'do not ring the surgery before 11, reception is shut'],
    ['the reunion had 60 guests last year', 'they would love about 25 guests this time'],
  ])('"%s" / "%s" is no contradiction', (a, b) => {
    const v = detector.judge(a, b)
    expect(v.conflict).toBe(false)
    expect(v.reason).toContain('two things measured')
  })

  // The full evidence: a thing both name (in the subject, or by a name) and one attribute of it.
  test.each([
    ['The recital is on 4 May at St Anne\'s.', 'The recital is on 11 May at St Anne\'s.'],
    ['Our rent is £900 a month.', 'The rent is £1,150 a month.'],
    ['The ferry leaves at 7:15.', 'The ferry leaves at 8:40.'],
    ['the bridge is 300 metres long', 'the bridge is only 120 metres long'],
    ['The quote for the roof came to £4,800.', 'The roof quote was £6,200.'],
    ['the meeting room holds 12 people', 'the meeting room seats 30'],
    // "he" may be the one the other text names: the measured thing is not told apart by words.
    ["Omar's 9 and mad about trains", "he's 6 on saturday and wants a train cake"],
  ])('"%s" / "%s" stays a contradiction', (a, b) => {
    const v = detector.judge(a, b)
    expect(v.conflict).toBe(true)
    expect(v.reason).not.toContain('two things measured')
  })
})
