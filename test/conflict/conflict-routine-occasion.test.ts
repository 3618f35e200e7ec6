import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// "after school", "before breakfast": a bare noun after "after" / "before" says when something is
// done, not what a text is about (issue 27, session 12, anchor32; dev4's planted "riding every
// Thursday after school" / "the school's heating engineer visits on Friday", pairs written apart
// from it). Each compatible pair was flagged on main as a different date.
const detector = new TextConflictDetector()

describe('a routine occasion is no shared subject', () => {
  test.each([
    ['Every Monday after school Ruben goes to judo.', "the school's boiler inspection is on Wednesday"],
    ["Ama: He's nine and has just joined a swimming club in Taunton. Every Tuesday after school.", "the school's fire drill is on Thursday"],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["The school's parents' evening is on Thursday.", "The school's parents' evening is on Tuesday."],
    ['The choir rehearses every Wednesday after work.', 'The choir rehearses every Tuesday after work.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
