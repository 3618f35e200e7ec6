import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/conflict/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Issue 27, cross28: false flags between texts of two different planted pairs on neighbouring
// topics (the dev2 planted rows: 16 of main's 17). What the texts shared was no subject: a number
// that labels one text's subject ("bus 42 is ...") read as the value of the other's ("the 14 bus"),
// the unit of two measures ("°F", "hrs"), or a preposition that bounds a value ("before 10").
// Pairs written for this round, none taken from dev or holdout data; each compatible one was
// flagged by main at 0.9 (checked against main's src/conflict, 89febae, both orders).

const detector = new TextConflictDetector()

describe('a number that labels the subject is not a value of the other text', () => {
  test.each([
    ['line 3 is suspended today', 'the 9 line goes straight to the harbour'],
    ['tram 7 is running late this morning', 'the 11 tram stops by the library'],
    ['route 66 is jammed all morning', 'the 12 route passes the stadium'],
  ])('two items: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['room 12 has 30 seats', 'room 12 has 40 seats'],
    ['tram 7 runs every 10 minutes', 'tram 7 runs every 20 minutes'],
  ])('one labelled item, two values, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))

  test('the reason says the pair shares its subject but nothing incompatible', () => {
    expect(detector.judge('line 3 is suspended today', 'the 9 line goes straight to the harbour').reason).toMatch(/nothing incompatible/)
  })
})

describe('texts that share only the unit of their values speak of two things', () => {
  test.each([
    ["heating's set to 70°F in the lounge", 'garage stays about 40°F'],
    ['Omar: 9 hrs is a lot', 'for drives under 3 hrs we take the car'],
  ])('two things measured: %s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, false)
    expect(detector.judge(a, b).reason).toMatch(/share only the units of their values/)
  })

  test.each([
    ['the oven is preheated to 200°C', 'the oven is preheated to 180°C'],
    ['the flight to Lima takes 11 hrs', 'the flight to Lima takes 7 hrs'],
    ['my commute is 40 mins', 'my commute is 25 mins'],
    // A counted noun is what the count is of, not a unit: it still names the topic.
    ['we have 2 hamsters', 'we have 4 hamsters'],
  ])('one thing measured, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))

  test('"hrs" is read as hours, so it compares with hours', () => {
    expectJudgedBothWays(detector, 'the ferry crossing takes 3 hrs', 'the ferry crossing takes 3 hours', false)
    expectJudgedBothWays(detector, 'the ferry crossing takes 3 hrs', 'the ferry crossing takes 5 hours', true)
  })
})

describe('a preposition that bounds a value names no topic', () => {
  test.each([
    ['no visitors before 11 on Sundays', 'jo: anything before 2 is fine'],
    ['no meetings after 4 on Fridays', 'the gym is quietest after 8'],
    ['no deliveries after 6 on weekdays', 'ben: anything after 9 suits me'],
  ])('two rules: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['the library closes at 6 on Fridays', 'the library closes at 8 on Fridays'],
    ['the bakery opens at 7', 'the bakery opens at 9'],
  ])('one thing, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a negated verb is not negated of its object said as a verb on the other side', () => {
  // "he never reads texts" negates reading; "landlord texted" says he sent one. Weighed, not
  // vetoed (the noun/verb factor of confidence.ts): a lower threshold still reaches the pair.
  test.each([
    ['coach emailed. practice moves to 6 from next week', 'coach says phone him, he never opens emails'],
    ['grandpa phoned last night', 'grandpa never answers phones after dark'],
  ])('another action: %s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, false)
    expect(detector.judge(a, b).reason).toMatch(/a noun on one side and a verb on the other/)
  })

  test.each([
    ['the plumber messaged this morning', 'the plumber never messaged'],
  ])('one action negated, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('one action done to two things is two instructions, not two answers', () => {
  test.each([
    ['Feed the goldfish twice a day', 'Feed the tortoise once a week'],
    ['We clean the kitchen every day', 'We clean the garage once a year'],
    ['Check the mailbox every morning', 'Check the smoke alarm once a month'],
  ])('two objects: %s / %s', (a, b) => {
    expectJudgedBothWays(detector, a, b, false)
    expect(detector.judge(a, b).reason).toMatch(/one action done to two things/)
  })

  test.each([
    ['Feed the goldfish twice a day', 'Feed the goldfish once a week'],
    ['We clean the kitchen every day', 'We clean the kitchen once a week'],
    ['Check the smoke alarm every week', 'Check the smoke alarm once a month'],
  ])('one object, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
