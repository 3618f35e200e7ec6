import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Two readings of a negation or a retraction that say nothing against the other text (issue 27,
// session 11, store29). Found on dev3's chat turns and observations; the pairs here are written
// apart from them. Each compatible pair was flagged on main; each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('a denied knowing before a clause denies what someone knew, not what is', () => {
  test.each([
    ["I didn't know you were learning Welsh.", "I'm learning Welsh at night school."],
    ["Ines didn't know that Tomas plays cello.", 'Tomas plays cello in the county orchestra.'],
    ['Mina did not notice that the gate was open.', 'The gate was open all morning.'],
    ['Priti did not realise the bakery closes on Mondays.', 'The bakery closes on Mondays.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Ilse knows how to sail.', "Ilse doesn't know how to sail."],
    ['Ilse speaks Dutch.', "Ilse doesn't know Dutch."],
  ])('a skill, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a retraction after "because" is of its own clause, not of the main one', () => {
  test.each([
    ['Rosa covers the weekend desk because the night editor resigned.', 'Rosa has covered the weekend desk since 2021.'],
    ['Kit works extra shifts at the depot because three drivers are off.', 'Kit works at the depot in Hull.'],
    ['Lena drives to work because the early bus was cancelled.', 'Lena drives a blue Fiat to work.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The Saturday class was cancelled because the hall flooded.', 'The Saturday class runs this week.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
