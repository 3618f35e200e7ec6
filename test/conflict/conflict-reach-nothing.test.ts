import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

// Negations and retractions that reach nothing the other text states (issue 27, session 12,
// reach32). Found on dev4's flags "one side negates or retracts what the other states"; the pairs
// here are written apart from them. Each compatible pair was flagged on main (checked by running
// this file against main's src/conflict); each contradiction stays flagged.
const detector = new TextConflictDetector()

describe('a retraction word used as a life event or a noun retracts nothing', () => {
  test.each([
    ['Odile paints a watercolour every week since retiring.', 'Odile painted the harbour at dawn in May.'],
    ['Odile paints a watercolour every week since retiring.', 'Odile is teaching a watercolour class at the library.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))
})

describe('a cancelled thing is the head of its phrase, not the words that say whose or which', () => {
  test.each([
    ['The library book sale was cancelled.', 'The library book club meets on Tuesdays.'],
    ["Tomasz's coach trip was cancelled.", 'Tomasz runs the coach company with his brother.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The library book sale was cancelled.', 'The library book sale is on Saturday.'],
    ["Inge's ferry to Bergen was cancelled by the storm.", 'Inge is taking the ferry to Bergen on Friday.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('"not just X" and "not only X" add to X, they do not deny it', () => {
  test.each([
    ['Rhian speaks not only Welsh but also Breton.', 'Rhian speaks Welsh at home.'],
    ['The cafe serves not just coffee but hot lunches.', 'The cafe serves coffee from 7am.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Rhian does not speak Welsh.', 'Rhian speaks Welsh at home.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a negated word inside a longer name denies that name, not a shorter one', () => {
  test.each([
    ['Anwen sings at the carol service but not on Christmas Eve.', 'Anwen flies home to Cardiff for Christmas.'],
    ['Dmitri covers the Saturday shift, not Easter Saturday.', 'Dmitri is hosting his parents for Easter.'],
    ["Imogen works most bank holidays but not on New Year's Day.", 'Imogen is hosting a party for New Year.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["Imogen works most bank holidays but not on New Year's Day.", "Imogen is hosting a party on New Year's Day."],
  ])('the same name, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe("a retraction whose only target is a person's or an animal's name is no claim", () => {
  test.each([
    ['Biscuit was retired to a farm in Kent.', 'Our old lurcher is called Biscuit.'],
    ['Rowena is retired and lives in Whitby.', 'Rowena is seventy-one.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Harriet retired in 2020.', 'Harriet works as a nurse.'],
    ['Priya resigned.', 'Priya works at Acme.'],
    ['Tom was dropped from the team.', 'Tom plays for the team on Saturdays.'],
  ])('against working, taking part or what the name was retracted from, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a diet said of "I" and a food said of "he", "she" or "they" are two people\'s', () => {
  test.each([
    ["I'm vegetarian, so the curry night is easy for me.", 'At curry night she always orders the chicken korma.'],
    ["I'm coeliac, so I skip the bakery run.", 'He wants a bagel from the bakery run.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ["I'm coeliac, so I skip the bakery run.", 'I had a bagel from the bakery run.'],
    ["She's vegetarian, so the curry night is easy.", 'At curry night she always orders the chicken korma.'],
  ])('one person, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
