import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// "Four and a half hours": the half belongs to the amount and the unit still follows it (issue 27,
// session 11, store29; found on dev3's observations, pairs written apart from them). On main the
// number was read bare: a drive's length clashed with how often a place is visited, and two
// lengths of one crossing were never compared.
const detector = new TextConflictDetector()

describe('an amount and a half keeps its unit', () => {
  test.each([
    ["Skye is about four and a half hours' drive from Mairi's flat.", 'Mairi goes to Skye three or four times a year.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The Islay ferry takes two and a half hours.', 'The Islay ferry takes four hours.'],
  ])('flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
