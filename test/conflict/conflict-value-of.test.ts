import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// What a clashing value is OF (issue 27, session 13, rule 29; src/conflict/judge/value-of.ts and
// both-dayparts.ts). Found on the dev5-2 / dev6 notes about one user, where every line shares the
// subject; these pairs are written apart from them. Each compatible pair was flagged on main; each
// contradiction stays flagged.
const detector = new TextConflictDetector()

describe('values of two nouns are two answers', () => {
  test.each([
    // a count of seedlings, a bed's label
    ['The client sowed eight tomato seedlings in the greenhouse.', "The client's courgettes grow in bed 5 by the shed."],
    // a barn's price, an extension's budget
    ['The client paid £48,000 for the barn.', 'The client has spent £3,100 of the £20,000 extension budget.'],
    // a time of day that names a kind of braces, of texts
    ['The patient wears night braces on both wrists.', 'The patient asked for evening texts about her physio.'],
    // "morning" is the visits' time; the rota is late on both sides
    ['The nurse moved to the late rota at the clinic.', 'The nurse prefers morning visits while on late rotas.'],
    // two cabins, one text naming both
    ["The user's cousin Aldo, in berth 22, will check the ropes on berth 17 while she sails.", 'The user painted her dinghy with Aldo on berth 17.'],
    // the time of rowing, the time of working
    ['Ines rows three mornings a week on the river.', 'Ines works nights one week in three at the hospital.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The meeting is at 3pm.', 'The meeting is at 5pm.'],
    ['Priya bought her flat for £320,000.', 'Priya bought her flat for £295,000.'],
    ["The flat's price is £320,000.", 'The flat costs £295,000.'],
    ['Ida lives in flat 12.', 'Ida lives in flat 7.'],
    ['The nurse works the early rota at the clinic.', 'The nurse works the late rota at the clinic.'],
    ['Marek works nights at the bakery.', 'Marek works mornings at the bakery.'],
    // a time of a noun against a time of an action is not read apart
    ['Marek works the night shift at the bakery.', 'Marek works mornings at the bakery.'],
    ['Our rib takes 9 passengers.', "The rib's licensed for 12 passengers plus the skipper."],
    // two counts of two nouns may be one answer in other words: kept as main reads them (the merge
    // switched the count-against-count reading off: it cost holdout true flags)
    ['The meeting room seats 12 people.', 'The meeting room seats 20 guests.'],
  ])('one thing, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('one text that tells both times of day', () => {
  test.each([
    ['The nurse works the early rota at the clinic.', 'The nurse is on lates until March, then goes back to early rotas.'],
  ])('a change told by one side: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))
})
