import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// A date clash needs one occurrence of one event (issue 27, session 13, dates36: dev6-2's notes
// about a user; pairs written apart from them). Each date is read for what it dates (a copula's
// subject, a task's verb, the noun before it), whether it is a bound the other date keeps to, and
// whether it is told as done. Each compatible pair was flagged on main as a different date.
const detector = new TextConflictDetector()

describe("a date's event", () => {
  test.each([
    // One told as done, another to come, later.
    ['Ines had her eye check on 4 March and it went well.', 'Ines has an eye check on 9 September.'],
    ['Tomasz saw the optician on 2 February.', 'Tomasz sees the optician on 14 August.'],
    // A series started, and one of it to come.
    ['Mila began her swimming lessons on 6 January.', "Mila's swimming lesson is on 20 March."],
    // A thing about the event, and the event.
    ['Ines expects a surgery confirmation email, likely in April.', "Ines's knee surgery is on 22 June."],
    // Two tasks.
    ['Tomasz has to renew his car insurance in March.', 'In May Tomasz needs to repaint the garden fence.'],
    // A bound the other date keeps to.
    ['The piano tuner will come after 10 June.', 'The piano tuner comes on 17 June.'],
    // An extent: the stay starts on its date, not a week later.
    ["Ines's parents stay with her for a week from 12 April.", "Ines's parents arrive on 12 April."],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    // One event told with two dates, or moved.
    ['The school concert is on Thursday 5 March.', 'The school concert is now on Friday 6 March.'],
    ['The team dinner is on Friday.', 'The team dinner is on Saturday.'],
    ['The next boiler service falls on 2 May.', 'The boiler service was moved to 9 May.'],
    // A verb's subject is what it dates: "the train leaves" is the train's date.
    ['My train leaves on Monday.', 'My train is on Tuesday.'],
    // A bound the other date breaks.
    ['The piano tuner will come after 10 June.', 'The piano tuner comes on 3 June.'],
    // Told as done after the day it was to come.
    ['Ines had her eye check on 9 September.', 'Ines has an eye check on 4 March.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
