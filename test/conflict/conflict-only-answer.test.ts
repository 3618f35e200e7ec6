import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// A clause opened by "Only that" or "Only because" answers with one piece of news or one reason; it
// keeps no one member of a kind (issue 27, session 11, store29; found on dev3's chat turns, pairs
// written apart from them). Each compatible pair was flagged on main as "only" against an addition.
const detector = new TextConflictDetector()

describe('"Only that ..." and "Only because ..." restrict nothing', () => {
  test.each([
    ['Carys and Huw went to Tenby for the wedding, sixty guests in one marquee.', 'Only that Huw has been coaching the under-tens at the rugby club on Saturdays.'],
    ['Gwen drove to Cardiff with Rhys for the match.', 'Only because Rhys had a spare ticket for the match.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Only Rhys has a key to the shed.', 'Rhys and Gwen have a key to the shed.'],
    ['The clinic only takes card payments.', 'The clinic takes cash payments.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
