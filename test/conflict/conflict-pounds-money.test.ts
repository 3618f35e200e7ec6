import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// "Pounds" is money when priced to the penny or after a word of paying, a weight otherwise (issue
// 27, session 11, store29; found on dev3's observations, pairs written apart from them). A price
// and a pay rise of one person were read as two weights and flagged on main.
const detector = new TextConflictDetector()

describe('pounds priced to the penny or paid are money', () => {
  test.each([
    ["Ffion's rye bread costs 3.20 pounds a loaf at the Friday market.", 'Ffion will earn 2.40 pounds more an hour from next month.'],
    ["Ffion's rye costs 3.20 pounds a loaf.", 'Ffion has lost 6 pounds since May.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["Ada's rye costs 3.20 pounds a loaf.", "Ada's rye costs 3.80 pounds a loaf."],
    ['The turkey weighs 12 pounds.', 'The turkey weighs 15 pounds.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
