import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// What the shops of a place do as a rule is not what one shop does (issue 27, session 12, anchor32;
// dev4's "Pubs in <town> charge" / "The pub charges" observation flags, pairs written apart from
// them). A bare plural marked general by a quantifier, a region or an "as a rule" adverb is a kind;
// "the", "this", "that" or a possessive before the same noun is one of it. Each compatible pair
// was flagged on main as a different amount or time.
const detector = new TextConflictDetector()

describe('a kind and one of its kind are two subjects', () => {
  test.each([
    ['Our bakery opens at 7am.', 'Bakeries in Lyon usually open at 6am.'],
    ['The gym charges $45 a month.', 'Most gyms charge $30 a month.'],
    ['The clinic charges £60 for a first visit.', 'Clinics around Leeds mostly charge £45 for a first visit.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The gym charges $45 a month.', 'The gym charges $30 a month.'],
    ['Tickets for the gala cost $20.', 'The ticket costs $25.'],
    ['The ferry to Hull leaves at 9pm.', 'Ferries to Hull leave at 8pm.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
