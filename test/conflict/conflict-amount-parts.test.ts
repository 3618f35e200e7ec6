import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Amounts and measures of two parts or instances of one thing (issue 27, session 13, rule 33;
// src/conflict/judge/amount-parts.ts). Found on dev7-2's notes about a user ("The user ..."), where
// a deposit, a remainder and a price, or two runs, read as two answers; these pairs are written
// apart from them. Each compatible pair was flagged on main; each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('two parts of one sum', () => {
  test.each([
    // a deposit and the remainder of one price
    ['The client put down a $1,500 deposit on the kitchen units.', 'The client paid the outstanding $4,300 when the kitchen units arrived.'],
    // a price and the remainder, smaller than it
    ['The client ordered a sofa from the Harrogate showroom for £2,400.', 'The client paid the remaining £1,600 for the sofa on delivery.'],
    // a yearly rate and a refund
    ['The client’s allotment costs £96 a year, paid every April.', 'The allotment society will refund the client £30 for the flooded months.'],
    // half a fee and an extra charge on top of it
    ['Ana paid €450 for the first half of her course fees.', 'Ana owes €60 on top of the course fees for the exam.'],
    // a yearly rate and savings
    ["The client's gym membership is £480 a year.", 'The client has £2,300 saved for the wedding.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The sofa cost £2,400.', 'The sofa cost £1,600.'],
    ['The rent is €900 a month.', 'The rent is €950 a month.'],
    // a remainder larger than the whole price cannot be part of it
    ['The client bought the sofa for £1,600.', 'The client paid the remaining £2,400 for the sofa.'],
    // one role twice
    ['The client paid a $1,500 deposit on the kitchen.', 'The client paid a $2,000 deposit on the kitchen.'],
  ])('one amount, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a running total at two moments', () => {
  test.each([
    ['Adding the new boiler brings the total to £5,200.', 'The renovation total is £4,100 with the windows.'],
    ['The running total for the party is $640 with the cake.', 'The party total came to $720 once the hall was paid.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The bill total is €300.', 'The bill total is €340.'],
    ['The total for the party was $640.', 'The total for the party was $720.'],
  ])('one total, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('two times it was done, or two things measured', () => {
  test.each([
    // two rides, each one time
    ['Joss has a stiff back after a 40-kilometre ride.', 'Joss cycled 25 kilometres to the coast without back pain.'],
    // one ride against this week's long ride
    ["Joss's long ride is forty miles this week.", 'Joss rode a 55-mile sportive in the Dales in 2021.'],
    // one walk against what the boots have done so far
    ['Joss did a 9-mile walk over the fells.', "Joss's hiking boots have done 600 miles."],
    // a ride's length and a dinghy's
    ["Joss's long ride is forty miles.", "Joss's dinghy Petrel is 14 feet long."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["Joss's long swim is two kilometres.", "Joss's long swim is three kilometres."],
    ['The lido is 90 metres long.', 'The lido is a 50-metre pool.'],
    // one occasion, two distances
    ['Joss swam two kilometres this morning.', 'Joss swam three kilometres this morning.'],
    ['The canal towpath is 12 miles long.', 'The canal towpath runs for 20 miles.'],
  ])('one measure, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
