import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, session 11 (recall28): two classes of contradictions the dev pair sets missed, read by
 * the shape of the claim rather than by a shared key word or an antonym list. Every pair here is
 * written apart from the fixtures; each contradiction was unflagged on main (89febae), and each
 * near-miss stays unflagged on both.
 */
const detector = new TextConflictDetector()

describe('whereabouts: one subject in two places at once (judge/checks/whereabouts.ts)', () => {
  test.each([
    ['two venues after "is at the"', 'The wedding reception is at the old mill.', 'The wedding reception is at the golf club.'],
    ['two rooms after "is in the"', 'The budget workshop is in the boardroom.', 'The budget workshop is in the library.'],
    ['online against a room', 'The budget workshop is in the boardroom.', 'The budget workshop is online only this time.'],
    ['a call on Zoom against a room', 'The retro is held in the small meeting room.', 'We moved the retro to Teams, nobody is coming in.'],
    ['home against a ward', 'Grandma is back home and resting.', 'Grandma is still in the care unit.'],
    ['back from a place against still in it', 'Priya returned from Kenya last night.', 'Priya is still in Kenya for another week.'],
  ])('%s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  test.each([
    ['a venue and its town (two levels)', 'The reception is at the old mill.', 'The reception is in the village.'],
    ['a room and its building (two levels)', 'The budget workshop is in the boardroom.', 'The budget workshop is at the head office.'],
    ['home and the town it is in', 'Dad is at home today.', 'Dad is in Leeds today.'],
    ['one place named on both sides', 'The party is at the boathouse.', 'The party is at the boathouse by the lake.'],
    ['a place said not to hold', 'The wedding reception is not at the old mill.', 'The wedding reception is at the golf club.'],
    ['two days, two places', 'The quiz is at the pub on Fridays.', 'The quiz is at the school hall on Mondays.'],
    ['a thing of the subject\'s is elsewhere', 'Omar is back from Oslo.', "Omar's suitcase is still in Oslo."],
    ['a record of an online event', 'The town hall meeting is online.', 'The town hall meeting notes are in the shared folder.'],
    ['the spare set, not the set', 'The van keys are in the drawer.', 'The spare van keys are in the glovebox.'],
    ['no place: a state after "in the"', 'The budget workshop is in the works.', 'The budget workshop is in the boardroom.'],
  ])('compatible, %s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })
})

describe("the speaker's lasting status said twice (judge/checks/speaker-status.ts)", () => {
  test.each([
    ['married against single', 'I am married with two kids.', "i'm single, always have been"],
    ['divorced against a wife', "I'm divorced.", 'My wife and I are flying to Rome in May.'],
    ['left against right hand', "I'm left handed, so scissors are a pain.", 'I am right-handed.'],
  ])('%s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  test.each([
    ['married once, single now (past)', 'I was married for ten years.', 'I am single.'],
    ['someone of the speaker\'s', 'I am married.', 'My sister is single.'],
    ['a child\'s hand', "I'm left-handed.", 'My son is right-handed.'],
    ['two speakers, each of themselves', 'Ana: I am married.', 'Ben: I am single.'],
    ['a passing state, not a lasting one', "I'm busy all day.", "I'm available after lunch."],
  ])('compatible, %s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })
})

describe('an instruction against a rule of anything (judge/claim-frame.ts, EVERY_OBJECT)', () => {
  test.each([
    ['print against print nothing', 'print the agenda for the board', 'do not print anything, we are paperless now'],
    ['shred against shred nothing', 'shred the old contracts in the cabinet', "don't shred anything, legal wants it all kept"],
  ])('%s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  test.each([
    ['the rule names its own object', 'archive emails once you have replied', "don't archive anything from legal"],
    ['a rule broken, told as done', 'Mo deleted the old photos last week', 'never delete anything'],
    ['the rule holds at a place the other does not name', 'I print boarding passes at home', "don't print anything at work"],
  ])('compatible, %s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })
})

describe('one favourite, one order of preference (judge/checks/favourite.ts, read/reading.ts ORDER_PATTERNS)', () => {
  test.each([
    ['two favourites of an everyday kind', 'My favourite season is spring.', 'Winter is my favourite season.'],
    ['a named holder', "Omar's favourite food is ramen.", "Omar's favourite food is lasagne."],
    ['an order said with a verb and a place', "I'd rather eat at home than dine at a restaurant.", "I'd much rather dine at a restaurant than eat at home."],
  ])('%s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  test.each([
    ['one of several favourites', 'One of my favourite foods is ramen.', 'My favourite food is lasagne.'],
    ['someone of the speaker\'s', 'My favourite season is spring.', "My brother's favourite season is winter."],
    ['a change of taste', 'My favourite season is spring.', 'Winter is now my favourite season.'],
    ['a kind, not the one thing', 'My favourite film is a thriller.', 'My favourite film is Heat.'],
    ['one name for two', 'My favourite season is autumn.', 'Fall is my favourite season.'],
    ['two kinds of favourite', 'My favourite season is spring.', 'My favourite month is June.'],
  ])('compatible, %s: %s / %s', (_class, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })
})
