import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// "Not liking spicy food": the negated liking carries the "not"; on main the "not" flipped "spicy"
// as well, so the dislike read as a liking of mild food and clashed with another dislike of spicy
// food (issue 27, session 11, store29; found on dev3's observations, pairs written apart from them).
const detector = new TextConflictDetector()

describe('one negation, flipped once', () => {
  test.each([
    ['Tam hates spicy food.', "Tam doesn't like spicy food."],
    ['Nell cannot eat spicy food.', "Nell doesn't like spicy food."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Tam likes spicy food.', "Tam doesn't like spicy food."],
    ['Tam loves spicy curries.', "Tam doesn't enjoy spicy curries."],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
