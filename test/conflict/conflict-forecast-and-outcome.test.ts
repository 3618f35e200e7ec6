import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// What will happen against what did (issue 27, session 14, turns40;
// src/conflict/judge/forecast-and-outcome.ts). Found among synthetic-1's, dev6-2's and dev7-1's
// turns; the sentences here are written apart from them. Each compatible pair was flagged on main;
// each contradiction stays.
const detector = new TextConflictDetector()

describe('a forecast of when against an outcome', () => {
  test.each([
    ['Nico will collect the keys tomorrow.', 'Nico collected the keys last week.'],
    ['Last month Nico collected the spare keys from the agent.', "Nico: I'll collect the spare keys tomorrow."],
    ['The new sofa will come on Saturday.', 'The new sofa came on Wednesday.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    // A forecast of an amount against what it came to is an answer, not a day that moved.
    ['The parcel will cost £40 to send.', 'The parcel cost £60 to send.'],
    // Neither text in the future: two answers of one day.
    ['The dentist appointment is on Monday.', 'The dentist appointment is on Thursday.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
