import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// A time given on two clocks that agree is one instant (issue 27, session 12, anchor32; dev4's
// planted "their time" / "London time" false flag, pairs written apart from it). South of the
// equator summer time is kept while the north keeps standard time, a zone named before "time" says
// whose clock a text reads whatever other place it names, and the weekday of each clock is its own.
// Each compatible pair was flagged on main as a different date or time.
const detector = new TextConflictDetector()

describe('one instant on two clocks', () => {
  test.each([
    ['The review with the Sydney office is at 9am Thursday 12 February, their time', 'Review with the Sydney office: 10pm Wednesday 11 February London time'],
    ['The interview with the Wellington team is 7am Friday 6 November, their time', 'Interview with the Wellington team: 6pm Thursday 5 November UK time'],
    ['Our call with the Auckland studio is 9am Wednesday, Auckland time', 'call with the Auckland studio at 8pm Tuesday London time'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The review with the Sydney office is at 9am Thursday 12 February, their time', 'The review with the Sydney office is at 9pm Wednesday 11 February London time'],
    ['The interview with the Wellington team is 7am Friday 6 November, their time', 'The interview with the Wellington team is 7am Sunday 8 November, their time'],
    ['standup with the Berlin team is at 10am Berlin time', 'standup with the Berlin team: 10am London time'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
