import { describe, expect, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { labelledChanges, locomoObservations, locomoTurns, runStore, syntheticNames } from '../../scripts/eval-conflict-store.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, tenth round: test/fixtures/conversations-synthetic.json, four conversations written by
 * hand in LoCoMo's shape (test/fixtures/README.md), as dev backgrounds for flags per 100 facts.
 * Each rule below is a cause that recurred in their flags; every pair here is written apart from
 * the conversations, and each compatible one was flagged on the code before the rule.
 */
const detector = new TextConflictDetector()

describe('a name given to a noun is that noun\'s name', () => {
  test.each([
    ['Lena had a beagle named Max when she was a kid.', 'Lena\'s husband is named Jonah.'],
    ['Omar hired an assistant called Bea.', 'Omar\'s sister is called Nadia.'],
  ])('two nouns, two names: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Her dog is named Max.', 'Her dog is named Rex.'],
    ['The cat is called Mochi.', 'Our cat is named Tofu.'],
  ])('one noun, two names, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('an amount is of what it measures, not of the person both name', () => {
  test.each([
    ['Priya has saved 8,000 dollars for a car.', 'Priya took out a student loan of 25,000 dollars.'],
    ['Leo swam the lake in 40 minutes.', 'Leo finished the marathon in four hours.'],
    ['Nadia still keeps three spare keys by the door.', 'Nadia turned sixty-one in March.'],
  ])('two things measured: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Tom is 34.', 'Tom turned 36 in May.'],
    ['Maya earns 85,000 dollars a year.', 'Maya makes 95,000 dollars a year.'],
    ['Priya\'s rent is 1,200 dollars.', 'Priya pays 1,500 dollars in rent.'],
  ])('one thing measured, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a refusal is against taking part, and answers an offer', () => {
  test.each([
    ['Okoye declined our offer', 'Okoye is from Lagos'],
    ['Ravi declined the promotion.', 'Ravi felt tired after the long meeting.'],
    ['The firm offered Lucia a partnership.', 'Lucia turned down the partnership.'],
    ['Jonah applied for the fellowship in Oslo.', 'Jonah refused the fellowship in Oslo.'],
  ])('compatible: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['We hired the backend candidate (Okoye)', 'Okoye declined our offer'],
    ['Lucia turned down the partnership.', 'Lucia accepted the partnership.'],
    ['Ravi declined the promotion.', 'Ravi took the promotion.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a named person and "I" are two people unless the text says otherwise', () => {
  test.each([
    ['Tom never drinks coffee', 'I drink coffee'],
    ['Ana hates flying.', 'I love flying.'],
  ])('two people: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Tom never drinks coffee', 'Tom: I drink coffee'],
    ['We hired the backend candidate (Okoye)', 'Okoye declined our offer'],
    ['Tom never drinks coffee', 'Tom drinks coffee every morning'],
  ])('one person, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a retraction word before a noun says what kind of thing it is', () => {
  test.each([
    ['Ali found a retired police dog named Rex.', 'Ali walks Rex every morning.'],
    ['Mina bought a discontinued camera model from Lars.', 'Mina met Lars at the market.'],
  ])('the retracted thing is not named on the other side: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Nina booked the cancelled flight to Oslo.', 'Nina\'s flight to Oslo boarded on time.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

// Second round of issue 27: a planned change, a campaign, an offer's request. Each compatible pair
// was flagged on the code before its rule (checked by running it there).
describe('a change planned from a date follows the present state', () => {
  test.each([
    ['Abena\'s library is currently closed on Sundays.', 'Abena\'s library will open on Sundays from 1 to 5 starting in July for a six-month trial.'],
    ['The pool is closed for repairs.', 'The pool will reopen next month.'],
    ['The cafe is open on Mondays.', 'The cafe will close on Mondays beginning in March.'],
    // A state asked for as a noun is not stated.
    ['Abena\'s library is currently closed on Sundays.', 'Abena collected 400 signatures for Sunday opening.'],
  ])('a sequence: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Abena\'s library is currently closed on Sundays.', 'Abena\'s library now opens on Sundays.'],
    ['The cafe is open on Mondays.', 'The cafe will be closed on Mondays.'],
    ['The cafe will stay closed on Mondays through the summer.', 'The cafe will open on Mondays starting in June.'],
  ])('told as done, with no date, or two futures, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('what an offer asks is not taking part', () => {
  test.each([
    ['The Portland hospital offered Marisol the job and wanted her to start in three weeks.', 'Marisol turned down the job at the Portland hospital.'],
    ['The club invited Tariq to join and asked him to attend Friday\'s practice.', 'Tariq declined the club\'s invitation.'],
    ['The studio offered Ines the role and wanted her to start rehearsals in May.', 'Ines turned down the role at the studio.'],
  ])('an offer and its refusal: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Marisol took the job at the Portland hospital.', 'Marisol turned down the job at the Portland hospital.'],
    ['Ines started rehearsals at the studio in May.', 'Ines turned down the role at the studio.'],
  ])('taking part and refusing, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a number word starts a word', () => {
  test.each([
    ['We have a real kitchen now, four burners and an oven.', 'The contractor found the floor is rotten under the old bakery ovens.'],
  ])('"rotten" holds no "ten": %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The kitchen has four burners.', 'The kitchen has ten burners.'],
    ['Priya often bakes three loaves on Sundays.', 'Priya bakes ten loaves on Sundays.'],
  ])('two counts still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('a bare number a thousand times a count is another quantity', () => {
  test.each([
    ['I made an extra payment with my tax refund, so I\'m down to about 6,800.', 'And the loans? Two payments left.'],
  ])('a balance against a count: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The company has about 40 employees.', 'The company has 2,000.'],
    ['Nadia has three cats.', 'Nadia has 3,000 cats.'],
  ])('still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('what one amount pays for and where another comes from are two amounts', () => {
  test.each([
    ['They offered 420,000 for the business and the building. He wants 480,000.', 'A bank loan for most of it. My father offered 100,000 from the store sale.'],
  ])('two things: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Dmitri\'s buyer offered 420,000 for the pharmacy.', 'Dmitri\'s buyer offered 380,000 for the pharmacy.'],
    ['Lena paid $400 for the bike.', 'Lena paid $600 for the bike from the shop.'],
  ])('one thing, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('the hand-written conversations in a store: flags per 100 facts', () => {
  // At or under what the round reached (docs/conflicts.md has the table, before and after). A flag
  // between the two sides of a labelled change (a plan or a value that changed) is a real change.
  const reached: Record<string, { observations: number; turns: number; text: number }> = {
    // before the round: observations 10 / 15 / 13 / 17, turns 1 / 5 / 2 / 1, text only 2 / 5 / 0 / 2
    // twelfth round: calibration (threshold 0.8) observations 2 / 8 / 4 / 9 -> 1 / 6 / 4 / 5, synthetic-2's turns 4 -> 1;
    // with a store's dates (diary rule) observations -> 1 / 5 / 4 / 4
    // second round: an offer's request, a change planned from a date -> 0 / 4 / 4 / 4;
    // a number word starts a word ("rotten" holds no "ten"): synthetic-4's text 2 -> 1; an amount
    // for one thing against one from another: synthetic-4's turns 1 -> 0, text 1 -> 0; a bare
    // number a thousand times a count: synthetic-1's text 2 -> 1
    // negation scope: observations -> 1 / 4 / 1 / 3, synthetic-3's turns 2 -> 0; all of the round
    // together: observations 0 / 3 / 1 / 3 (synthetic-1's pinned at 1: one run of the merge read 1)
    // session 10, a hub subject (store/hub-subject.ts): synthetic-3's observations 1 -> 0
    // states over time (store/states.ts): synthetic-4 observations 3 -> 1 (labelled
    // changes told as news: internet got, climbing twice a week since a shoulder healed); synthetic-2's
    // healed ankle clears, and its place is taken by "Kofi walks with Abena" / "cannot walk", so 3
    // change27, a value at its own date: synthetic-2's A1C read twice and metformin cut to once a day
    // clear, observations 3 -> 1, turns and text 1 -> 0 (the A1C turns)
    // session 11, a thing told over time (store/recurring-slot.ts): synthetic-2's "Kofi walks with
    // Abena" / "cannot walk" (walking told of Abena on 4 days) clears, observations 1 -> 0
    'synthetic-1': { observations: 1, turns: 1, text: 1 },
    'synthetic-2': { observations: 0, turns: 0, text: 0 },
    'synthetic-3': { observations: 0, turns: 0, text: 0 },
    'synthetic-4': { observations: 1, turns: 0, text: 0 },
  }

  test('four conversations of about 200 turns and 110-130 observations each', () => {
    expect(syntheticNames()).toEqual(Object.keys(reached))
    for (const name of syntheticNames()) {
      expect(locomoTurns(name).length).toBeGreaterThanOrEqual(199)
      expect(locomoObservations(name).length).toBeGreaterThanOrEqual(110)
    }
  })

  test.each(Object.keys(reached))('%s: observations, turns and turns as text at or under the reached counts', async (name) => {
    const r = reached[name]!
    const changes = labelledChanges(name)
    expect(changes.length).toBeGreaterThan(0)
    for (const [facts, most] of [[locomoObservations(name), r.observations], [locomoTurns(name), r.turns], [locomoTurns(name, false), r.text]] as const) {
      const run = await runStore(facts)
      expect(run.flags.length, run.flags.map((f) => `${f.reason}: ${f.a} / ${f.b}`).join('\n')).toBeLessThanOrEqual(most)
      // Every labelled change is two texts of the conversation.
      for (const [x, y] of changes) expect(x.size > 0 && y.size > 0).toBe(true)
    }
  }, 60_000)
})
