import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// One date against a text that tells the thing more than once (issue 27, session 14, notes39;
// src/conflict/judge/date-series.ts). Found on dev6's and dev8's notes ("takes her methotrexate on
// Monday 14 and Monday 21 September", "study days in March, May and June"); the sentences here are
// written apart from them. Each compatible pair was flagged on main; each contradiction stays.
const detector = new TextConflictDetector()

describe('a date of one occurrence against a series of the thing', () => {
  test.each([
    ["Nell's pottery course begins in January.", "Nell's pottery course has three weekend workshops, in February, April and June."],
    ['Bram has his physio on Thursdays.', 'Bram will have his physio at the seaside clinic on Tuesday 3 and Tuesday 10 August.'],
    ['The vet checked the pony on Tuesday.', 'The vet checked the pony again on Saturday.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    // One occurrence twice: no series.
    ["Nell's pottery course begins in January.", "Nell's pottery course begins in March."],
    // A span's two ends are one occurrence.
    ['Bram is away from 3 August to 10 August.', 'Bram is away on 20 August.'],
    // The later text says the date moved: a new answer.
    ['The workshop is on 4 May and 11 May.', 'The workshop was moved to 18 May.'],
    // Two days of a habit ("Fridays and Saturdays") are its schedule, not a series.
    ['Bram works at the café on Fridays and Saturdays.', 'Bram works at the café on Mondays.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
