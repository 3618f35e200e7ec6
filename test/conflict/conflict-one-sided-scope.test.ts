import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// A habit or rule said plainly against one said for a recurring occasion the other does not name
// is the rule and its exception (issue 27, session 14, pairs39: dev3's greenhouse, dev4's tea and
// shifts, dev8's gate, three checks; pairs written apart from them). Each compatible pair was
// flagged on main (value 0.9, substitution and antonym 0.85).
const detector = new TextConflictDetector()

describe('a rule against its exception on one recurring occasion', () => {
  test.each([
    ['Idris prefers tea', 'Idris has one cappuccino after Saturday lunch'],
    ['water the tomatoes every morning', 'in August water the tomatoes three times a day'],
    ['Marit likes early starts', 'Marit has a late start on Mondays'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  // A rule that admits no exception (a negated one among them), and an occasion that is itself what
  // differs, still clash. Each was lowered by the rule's first version.
  test.each([
    ['Hugo never cycles to work', 'Hugo cycles to work on Mondays'],
    ['Ruth cannot eat prawns', 'Ruth eats prawns on feast days'],
    ['the quiz night is on Thursdays', 'the quiz night is Monday'],
    // the occasion said in the singular on the other side is what differs (found when the session's rules met)
    ['the choir rehearses every other Tuesday', 'the choir rehearses weekly on Tuesdays'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
