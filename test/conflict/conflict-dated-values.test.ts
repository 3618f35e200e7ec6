import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Two values each told at its own date are two states, a change over time (issue 27, session 12,
// anchor32; dev4's "paid 38p a litre in April 2025" / "36p a litre in spring 2024" observation flag,
// pairs written apart from it). A date said as when the rest held ("in", "during", "as of", "by",
// a season before the year) is no value of the claim when each text also says a number the other
// does not. Each compatible pair was flagged on main as a different date or number.
const detector = new TextConflictDetector()

describe('values at their own dates', () => {
  test.each([
    ["Dunmore's ferry carried 310 cars a day in July 2023.", "Dunmore's ferry carried 260 cars a day in July 2021."],
    ['Kestrel Farm sold eggs at 30p each in March 2024.', 'Kestrel Farm sold eggs at 25p each in autumn 2022.'],
    ['The village school had 410 pupils in September 2023.', 'The village school had 380 pupils in January 2021.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    // The date is what is claimed: nothing else differs.
    ['Priya started at the clinic in 2021.', 'Priya started at the clinic in 2019.'],
    // The date is the claim's value ("is on"), though a count differs too.
    ['The open day is on 5 May 2025 with 40 stalls.', 'The open day is on 12 May 2025 with 60 stalls.'],
    // Both anchored at one time: the numbers clash.
    ['The village school had 410 pupils in September 2023.', 'The village school had 380 pupils in September 2023.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
