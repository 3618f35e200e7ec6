import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Chat drops the question mark: a wh-word, an auxiliary and a subject pronoun still ask, and a
// question states nothing to contradict (issue 27, session 11, store29; found on dev3's chat turns,
// pairs written apart from them). Each compatible pair was flagged on main.
const detector = new TextConflictDetector()

describe('a question without its question mark is no claim', () => {
  test.each([
    ['the van broke down so we delivered 60 cakes on foot', 'how did you deliver 60 cakes w no van'],
    ['Ola: the oven died at noon, still baked 300 rolls by hand', 'Sam: what do you even do with 300 rolls and no oven lol'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test('a statement opened by "what" still states', () => {
    expect(detector.statement('What I did was sell the van.').dropped).not.toContain('question')
  })

  test.each([
    ['Kai delivered 60 cakes by van.', 'Kai delivered 60 cakes with no van.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
