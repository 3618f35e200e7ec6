import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, eleventh round: how one text is read, causes that recurred in the hand-written
 * conversations' observation flags (test/fixtures/conversations-synthetic.json). Every pair is
 * written apart from the conversations; each compatible one was flagged on the code before its rule.
 */
const detector = new TextConflictDetector()

describe('taking a boat, a dog or a person out is an outing, not a removal', () => {
  test.each([
    ['Rosa is repainting an old canoe in her garage.', 'Rosa took the canoe out on the lake on Saturday.'],
    ['Dev adopted a rescue greyhound in March.', 'Dev took the greyhound out for a walk at dawn.'],
    ['Mina bought a small kayak last spring.', 'Mina took the kayak out to the island with her cousin.'],
  ])('an outing: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The app has a dark mode.', 'We took dark mode out of the app.'],
  ])('a removal, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a short form in capitals is an abbreviation, not a weekday', () => {
  test.each([
    ['Nora coaches swimmers on Tuesday evenings.', 'Nora coaches one swimmer in SAT prep.'],
    ['Omar teaches piano on Monday nights.', 'Omar teaches one pupil for the SAT exam.'],
  ])('an abbreviation: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The standup is on Monday.', 'The standup is on FRI.'],
    ['Yoga class is on Tuesday.', 'Yoga class: SAT 10:00.'],
  ])('a day in capitals, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('an "only" before what is kept restricts that, not the holder before it', () => {
  test.each([
    ['Leo\'s studio has only a futon.', 'Priya is painting at Leo\'s studio desk in Lisbon.'],
    ['Nadia\'s van has only one seat.', 'Nadia parks the van outside Omar\'s bakery in Leeds.'],
  ])('another thing beside the holder: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The cafe takes only cash.', 'The cafe takes cash and credit cards.'],
    ['Sam speaks only English.', 'Sam speaks English and French.'],
    ['Tidewater Supply only accepts wire transfers', 'tidewater said paying by credit card is fine'],
    ['Alice is the only admin in our Okta tenant', 'Okta admins: Alice and Bob'],
  ])('another thing kept, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a retraction word after a determiner with no noun behind it is a noun', () => {
  test.each([
    ['Lena promised to text her mum every night.', 'Lena texts her mum at each stop on the tour.'],
    ['Omar sends his sister a photo every day.', 'Omar sent his sister a photo from the last stop.'],
  ])('"stop" as a place: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The meeting was cancelled.', 'The meeting is at 3pm.'],
    ['We stopped the nightly backup.', 'The nightly backup runs at 2am.'],
    ['The 7:15 bus to Bath runs on weekdays.', 'They announced the cancellation of the 7:15 bus to Bath.'],
  ])('a retraction as a verb, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a level that drops from or to an amount moved, nothing was retracted', () => {
  test.each([
    ['Ravi cycles to work every day.', 'Ravi\'s resting heart rate dropped to 52.'],
    ['Mia runs three times a week.', 'Mia\'s weight dropped by 6 kilos.'],
  ])('a level moved: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['We offer a student discount.', 'We dropped the student discount.'],
    ['Jon takes the 8am class.', 'Jon dropped the 8am class.'],
  ])('a thing dropped, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a wish, goal or plan states no pole', () => {
  test.each([
    ['Jun wants the shop to stay open late.', 'Jun\'s shop is closed on Sundays.'],
    ['Bea would like the pool to open earlier.', 'The pool is closed until noon.'],
    ['Kai ran the 5K in 31 minutes without stopping.', 'Kai\'s goal is to finish the marathon without walking.'],
  ])('a wish: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The pool is open on Sundays.', 'The pool is closed on Sundays.'],
    ['The migration is finished.', 'The migration is still running.'],
  ])('two states, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a name after a preposition of place and a name after none have two roles', () => {
  test.each([
    ['Rhea is looking at bus tickets to Dundee.', 'Rhea made Omar a cake shaped like a bus.'],
    ['Lars is looking at flights to Oslo.', 'Lars sent Ingrid a postcard of a flight.'],
  ])('a place and a person: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Ana moved to Lisbon.', 'Ana moved to Porto.'],
    ['The meeting is with Omar.', 'The meeting is with Kevin.'],
    ['The keynote speaker is Patterson.', 'The keynote speaker is Okafor.'],
  ])('one role, two names, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
