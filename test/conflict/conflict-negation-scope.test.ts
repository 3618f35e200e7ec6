import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// What a negation is said of (issue 27, negation scope; docs/conflicts.md, twelfth round). Each
// compatible pair was flagged before the rule; each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('a verb of attitude or aspect before a verb takes the negation', () => {
  test.each([
    ["Dmitri's target for opening the pharmacy is May.", 'Dmitri does not regret opening his pharmacy.'],
    ['Lena opened a bakery on Elm Street.', 'Lena never regretted opening the bakery.'],
    ['Omar moved to Porto in March.', "Omar doesn't mind moving to Porto."],
    ['Mei is learning to swim.', "Mei didn't start swimming until she was 30."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Dmitri does not own a pharmacy.', 'Dmitri opened his pharmacy.'],
    ['Dmitri regrets opening his pharmacy.', 'Dmitri does not regret opening his pharmacy.'],
    ['Gwen never tried sushi.', 'Gwen eats sushi every week.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('telling apart keeps the negation: the things told apart still exist', () => {
  test.each([
    ['Gwen cannot tell a godwit from a sandpiper.', 'Gwen mistook a willet for a godwit.'],
    ["Gwen: I can't tell a godwit from a sandpiper.", 'Gwen: I think I just saw a godwit!'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Gwen has never seen a godwit.', 'Gwen saw a godwit at the estuary.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a negated change verb asserts no change', () => {
  test.each([
    ['Abena and Kofi booked ten days in Lisbon in September.', 'Abena and Kofi have not changed their Lisbon booking yet.'],
    ['The team booked the Oslo venue for June.', 'The team has not updated the Oslo venue booking.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Abena has not changed her booking.', 'Abena changed her booking to October.'],
    ['Abena and Kofi did not book Lisbon.', 'Abena and Kofi booked ten days in Lisbon.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a shared stem in another part of speech is no shared predicate', () => {
  test.each([
    ['Gwen was accepted into the PhD program.', 'Gwen is behind in a statistics class that uses R, and she has never programmed.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test('weighed, not vetoed: a low threshold still reaches it, and the reason says why it is low', () => {
    const v = new TextConflictDetector({ threshold: 0.01 }).judge('Gwen was accepted into the PhD program.', 'She has never programmed, says Gwen.')
    expect(v.conflict).toBe(true)
    expect(v.reason).toMatch(/a noun on one side and a verb on the other/)
  })

  test.each([
    ['Gwen has never programmed.', 'Gwen programmed a web scraper.'],
    // A verb after a noun phrase is still a verb: "brother drives" is not a compound noun.
    ['My brother has never driven a car.', 'My brother drives me to work most mornings.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a particle belongs to its verb', () => {
  test.each([
    ['Sam cannot get out of a low chair easily because of his hip.', 'Sam sometimes still makes two cups of tea out of habit.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Sam cannot get out of a chair.', 'Sam gets out of a chair easily.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
