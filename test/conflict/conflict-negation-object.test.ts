import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Negations that reach another object than the one the other text states (issue 27, session 13,
// neg36, rule 31; src/conflict/judge/negation-object.ts). Found on dev5's and dev6's flags "one side
// negates or retracts what the other states"; the sentences here are written apart from them. Each
// compatible pair was flagged on main (checked by running this file against main's src/conflict);
// each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('a negation inside a clause of when or if says nothing of the main claim', () => {
  test.each([
    ['Ilse walks to the office on the mornings she does not cycle.', 'Ilse cycles to the office along the canal.'],
    ['Ravi reads crime novels when he is not marking essays.', 'Ravi spends his evenings marking essays.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Ravi does not mark essays.', 'Ravi spends his evenings marking essays.'],
    ['Ilse never cycles to the office.', 'Ilse cycles to the office along the canal.'],
    // A main clause between the "when" and the negator: the negation is the main clause's.
    ['When the storm reached the harbour on Friday Ines did not close the shop.', 'Ines closed the shop on Friday.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('one noun with two phrases after it names two things', () => {
  test.each([
    ['Yusuf was not offered a job at Halden Bank.', 'Yusuf has a job at the Halden library.'],
    ['Callum has no parking permit for the Riverside car park.', 'Callum has a parking permit for the hospital car park.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Bastian has no allotment in Harborne.', 'Bastian grows leeks on his allotment in Harborne.'],
    ['Yusuf was not offered a job at Halden Bank.', 'Yusuf has a job at Halden Bank.'],
    // The verb after the phrase is the clause's, not the phrase's: one ferry, retracted.
    ['The late ferry to Rosslare was cancelled.', 'The late ferry to Rosslare sails tonight.'],
  ])('the same phrase, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('"never ... before X" is a state that ended at X', () => {
  test.each([
    ['Osei had never held a paintbrush before joining the evening class.', 'Osei paints in oils at his evening class.'],
    ['Hana had not driven a car until her first lesson in March.', 'Hana drives a car to her lessons.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Osei has never held a paintbrush.', 'Osei paints with a paintbrush every weekend.'],
  ])('no bound, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('plain negations stay flagged', () => {
  test.each([
    ['She never drinks coffee.', 'She drinks coffee every morning.'],
    ['Pavel cannot take ibuprofen because it upsets his stomach.', 'Pavel takes ibuprofen after long runs.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
