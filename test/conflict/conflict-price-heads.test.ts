import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// What a price is of, read where the amount carries a currency sign, in a bare price list or after
// a name's possessive (issue 27, session 14, notes40; rule 29's reading in
// src/conflict/judge/value-of.ts). Found on dev9-2's notes about a potter's shop, where "cost £29"
// and "£22 for mugs" read no thing, so two prices of two things were two answers; these pairs are
// written apart from them. Each compatible pair was flagged on main; each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('a price read past its currency sign', () => {
  test.each([
    ["Ines's bread maker cost €89 in the January sale.", 'Ines buys rye flour from a mill near Ghent; the flour costs €14 per sack.'],
    ["Ines's gym membership costs €39.", "Ines's new racing bike cost €1,450."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The kettle cost £45.', 'The kettle cost £60.'],
    ["The client's new kettle cost £45.", "The client's new kettle cost £60."],
    ["The client's boiler service costs £120.", "The client's boiler service costs £95."],
    // a noun after a preposition is not what the price is of: no thing read, the clash stands
    ['Admission to the gallery is €12.', 'The gallery is free to enter.'],
    ['A season ticket at the club is £200.', "The club's season ticket costs £240."],
    // a time between a thing and its price says when; "came to" links a price as "is" does
    ['Our phone bill last month was £62.', "Last month's phone bill came to £95."],
  ])('one price, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a bare price list', () => {
  test.each([
    ["The bakery's prices are €4 for loaves, €2 for rolls and €7 for tarts.", 'The bakery has an order of 60 rolls at €1.50 each for a christening.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["The stall's prices are £5 for candles and £9 for soaps.", "From May the stall's candles cost £6."],
  ])('one price, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe("a price for someone's thing", () => {
  test.each([
    ['The garage charges a £90 diagnostic fee.', "The garage paid £300 for Keira's safety course."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["The garage paid £300 for Keira's safety course.", "The garage paid £450 for Keira's safety course."],
  ])('one price, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
