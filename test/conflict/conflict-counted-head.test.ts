import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// What a clashing count is of, by the shape of its phrase (issue 27, session 10, obs27;
// src/conflict/judge/counted-head.ts). Found on the dev2 observation streams; the pairs here are
// written apart from them. Each compatible pair was flagged on main; each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('a compound measure before two different nouns measures two things', () => {
  test.each([
    ['Marta and Joe live in a one-bedroom apartment.', 'Marta and Joe viewed a three-bedroom bungalow in Leith.'],
    ['Kofi keeps a ten-litre aquarium.', 'Kofi ordered a sixty-litre water butt for the garden.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Marta and Joe rent a two-bedroom apartment.', 'Marta and Joe rent a three-bedroom apartment.'],
    ['Kofi keeps a ten-litre aquarium.', 'Kofi keeps a sixty-litre aquarium.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a part of a group is not the count of the group', () => {
  test.each([
    ["Twenty volunteers joined Amara's beach clean-up.", "Four of Amara's volunteers stayed late after the beach clean-up."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["Amara's beach clean-up had twenty volunteers.", "Amara's beach clean-up had twelve volunteers."],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
