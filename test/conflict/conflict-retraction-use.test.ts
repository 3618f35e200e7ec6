import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// When a retraction word retracts nothing, by the shape of its use (issue 27, session 10, obs27;
// src/conflict/read/retraction-use.ts). Found on the dev2 observation streams; the pairs here are
// written apart from them. Each compatible pair was flagged on main; each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('an -ing retraction word between a determiner and a noun describes the noun', () => {
  test.each([
    ['Hana rented the studio from her landlord.', 'Hana rented the studio from a retiring landlord who moved abroad.'],
    ['Teo bought the boat from a fisherman.', 'Teo bought the boat from a retiring fisherman in Cadiz.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Hana holds a studio lease from her landlord.', 'Hana cancelled her studio lease.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('an active retraction verb told as a habit or followed by "with" says how a thing goes', () => {
  test.each([
    ["Pia's coffee stall price drops every winter.", "Pia's coffee stall price fell to two euro in January."],
    ["Kwame's first-aid module ends with a practical test.", 'Kwame passed his first-aid module test with 92 percent.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["Kwame's first-aid module was cancelled.", "Kwame's first-aid module starts on Monday."],
    ['The night bus to Leith was cancelled with no notice.', 'The night bus to Leith runs tonight.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('counted occurrences cancelled leave the thing itself', () => {
  test.each([
    ['The Ardmore ferry serves the Oban to Mull route.', 'Three Ardmore ferry crossings were cancelled in the storm.'],
    ['The Ardmore ferry serves the Oban to Mull route.', '2 Ardmore ferry trips were cancelled because of fog.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The Ardmore ferry serves the Oban to Mull route.', 'The Ardmore ferry service was cancelled.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

// What "with no X" negates is held by the noun before it (src/conflict/judge/negation-holder.ts).
describe('"with no" / "without" after an object noun says the lack is that noun\'s', () => {
  test.each([
    ['Ines sublet the room from an elderly widower with no family.', 'Ines has a big family in Braga.'],
    ['Ola adopted a kitten from a breeder with no website.', 'Ola built a website for her bakery.'],
    ['Femi hired a nanny without a car.', 'Femi drives her car to work.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Ines rents a room with no window.', "Ines's room has a window over the yard."],
    ['Ines is a widow with no family.', 'Ines has a big family in Braga.'],
    // After a copula the "with" phrase may be the subject's: the cabin has no signal (synthetic-4's labelled change, paraphrased).
    ["Noor's cabin is up past Tofino by a small cove with no phone signal.", "Noor's family got phone signal at the cabin."],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

// Chat drops the apostrophe of "that's", "what's" (src/conflict/read/text-tokens.ts): the word is a
// pronoun and a verb, not a thing a negation can take away.
describe('a contraction written without its apostrophe reads as the contraction', () => {
  test.each([
    ['Femi: thats exactly what my coach told me', 'Femi: thats not giving up thats resting'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Femi: the bike is sold', 'Femi: thats wrong, the bike is not sold'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
