import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, public data re-measured (session 11): the one false flag of ProSeCCo's dev half was a
 * verb of disliking read where it names a kind of thing, inside a name and after a determiner
 * ("the Hate Crime Act", "the most common hate crime"). Pairs written for this test, not copied.
 * Each compatible pair below was flagged on main before the rule ("opposite preference").
 */
const detector = new TextConflictDetector()

describe('a liking or disliking verb that names a kind of thing states no stance', () => {
  test('inside a name; a stance toward such a thing still clashes', () => {
    expectJudgedBothWays(detector, 'not covering street harassment in the Hate Crime Act was a serious failure', 'the council did not cover the most common hate crime, street harassment, in that Hate Crime Act', false)
    expectJudgedBothWays(detector, 'leaving street harassment out of the Hate Crime Act was a failure', 'the council did not cover the most common hate crime, which is street harassment, in that Hate Crime Act', false)
    expectJudgedBothWays(detector, 'The union hates the Hate Speech Code.', 'The union likes the Hate Speech Code.', true)
    expect(detector.judge('The union hates the Hate Speech Code.', 'The union likes the Hate Speech Code.').reason).toContain('"hates" vs "likes"')
  })

  test('after a determiner, alone or after a superlative; a stance toward such a thing still clashes', () => {
    expectJudgedBothWays(detector, 'not naming street harassment in the new hate crime law was a failure', 'the council did not name the most common hate crime, street harassment, in the law', false)
    expectJudgedBothWays(detector, 'Not reporting street harassment as a hate crime was wrong', 'The police did not log the biggest hate crime, street harassment', false)
    expectJudgedBothWays(detector, 'The union hates the new hate speech rules.', 'The union likes the new hate speech rules.', true)
    expectJudgedBothWays(detector, 'Priya loves the hate mail segment of the show.', 'Priya dislikes the hate mail segment of the show.', true)
    expectJudgedBothWays(detector, 'Mia loves jazz.', 'Mia hates jazz.', true)
    expectJudgedBothWays(detector, 'Jazz is his favorite music.', 'He hates jazz.', true)
  })
})
