import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Another modifier of one noun answers one question only when both texts ask it with one predicate
// (issue 27, session 14, pairs39: the complement check's dev flags were 2 true and 3 false, dev5 and
// dev8; pairs written apart from them). Each compatible pair was flagged on main at 0.85.
const detector = new TextConflictDetector()

describe('two modifiers after two predicates answer two questions', () => {
  test.each([
    ['Bryn is a trained paramedic', 'Bryn renewed his ambulance paramedic badge'],
    ["Tove's rye loaf is two days old", 'Tove baked the same loaf on Monday'],
    ['the trainee can shoe a riding horse', 'the trainee is nervous around draught horses'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Ines sings in the church choir', 'Ines sings in the school choir'],
    ['Pavel is on the billing team', 'Pavel moved to the search team'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
