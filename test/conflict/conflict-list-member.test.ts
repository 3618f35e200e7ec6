import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { inList } from '../../src/conflict/read/list-member.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// A relative named as one item of a list ("Jon, Ulla and Marta's father went sailing") is one of
// several people, not the answer to who someone is (issue 27, session 12, anchor32; dev4's
// "daughter" / "father" observation flag, pairs written apart from it). Each compatible pair was
// flagged on main as a different family member.
const detector = new TextConflictDetector()

describe('a relative in a list answers no "who is X\'s ..."', () => {
  test.each([
    ["Marta's husband is called Jon.", "Jon, Ulla, Sven and Marta's father went sailing on Sunday."],
    ["Priya's son is called Arun.", "Arun, Meera, Dev and Priya's mother came to the school play."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["Marta's husband is called Jon.", 'Jon is Marta\'s brother.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))

  test('a list is three short items or more; a clause between commas is none', () => {
    const at = (t: string, w: string): boolean => inList(t, t.indexOf(w))
    expect(at("Ola's sister, Ben and Maja came to the party", 'sister')).toBe(true)
    expect(at('My sister, my brother and I went to Oslo', 'brother')).toBe(true)
    expect(at('Wren, who farms in Devon, has a daughter and a son.', 'daughter')).toBe(false)
    expect(at('Tom is my brother and a good friend', 'brother')).toBe(false)
  })
})
