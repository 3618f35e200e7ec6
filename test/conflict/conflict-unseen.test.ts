import { describe, expect, test } from 'vitest'
import { ConflictDetector, TextConflictDetector } from '../../src/index.js'
import { loadUnseen } from '../../scripts/eval-conflicts.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'
import { testPinnedSet } from '../helpers/pinned-pairs.js'

/**
 * Issue 27, eighth round: test/fixtures/conflict-pairs-unseen.json, a set written for the round in
 * the styles of public human-labelled contradiction data (persona statements, everyday and news
 * facts, compatible pairs of the same styles). Its DEV half pins the figures reached; its holdout
 * is never read here. The rules below were found from dev errors; every pair in them is written
 * apart from the set (other people, other things), and each compatible one was flagged, each
 * contradiction missed, on the code before the round.
 */
const detector = new TextConflictDetector()

describe('unseen set, dev half: the figures reached', () => {
  testPinnedSet({
    load: loadUnseen,
    size: { atLeast: 150, dev: 79, conflicts: 54 },
    // Before the round: 6 false flags (P 0.727), 16 found (R 0.615).
    text: 17,
    // Before the round: 6 false flags (P 0.739), 17 found.
    working: 18,
    // Before the round: 31 listed, 15 false (P 0.516), 16 found (R 0.615); after, 23 listed, 4
    // false (P 0.826), 16 found. The 4 false flags left are between statements of two planted
    // pairs about one person ("I love spicy food" / "i can't handle spicy food at all"),
    // contradictions a person would flag, counted false here.
    planted: { conversation: 'conv-30', seed: 30, tp: 16, fp: 4, timeout: 120_000 },
  })
})

describe('eighth-round rules: two facts, not one fact twice', () => {
  test.each([
    ['days that open the clause', 'The pool opens at 6 am on weekdays.', 'On weekends the pool opens at 8 am.'],
    ['days that open the clause, one day', 'On Saturdays the gym opens at 9 am.', 'The gym opens at 6 am on weekdays.'],
    ['a past verb dates its own event', 'The school board approved the new budget in March.', 'Spending under the new budget begins in July.'],
    ['the way back is another leg', 'The bus to Leeds leaves at 8:10.', 'The bus back from Leeds leaves at 17:30.'],
    ['someone of the speaker\'s', 'I love hiking in the rain.', 'My wife hates hiking in the rain.'],
    ['one has many relatives', 'I share a flat with my older sisters.', 'I have an older brother in Leeds.'],
    ['two occasions of a habit', 'I drink green tea in the morning.', 'I drink coffee after lunch.'],
    ['a skill at another activity', 'Nadia is a great swimmer.', 'Nadia is a beginner at tennis.'],
    ['the pronoun I is no label', 'Building relationships is something I work on every day.', 'Building B has a pool on the roof.'],
  ])('%s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })

  test('the working-memory reader meets the same legs rule', async () => {
    const wm = new ConflictDetector()
    const [a, b] = await wm.analyze(['The ferry to Bergen departs at 9:30.', 'The ferry back from Bergen departs at 18:45.'])
    expect(wm.compare(a!, b!).conflict).toBe(false)
  })
})

describe('eighth-round rules: a holder who has none of what the other text says it has', () => {
  test.each([
    ['a kind against none of its general noun', 'Ana has two cats.', 'Ana has no pets.'],
    ['children', 'we have a toddler and a baby on the way', "we don't have any kids"],
  ])('%s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  test.each([
    ['another kind', 'I have two dogs.', "I don't have any cats."],
    ['a kind the noun does not cover', "I don't have a car.", 'I have a motorcycle.'],
    ['two holders', 'I have a son.', 'My sister has no children.'],
    ['a change said with it', 'I have three kids.', "I don't have any kids anymore."],
  ])('not flagged, %s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })

  test('contradictions the new readings must not take away', () => {
    for (const [a, b] of [
      ['On weekends the pool opens at 8 am.', 'The pool opens at 7 am on weekends.'],
      ['The council approved the budget in May.', 'The council approved the budget in June.'],
      ['The bus to Leeds leaves at 8:10.', 'The bus to Leeds leaves at 9:10.'],
      ['The meeting got pushed back to 3pm.', 'The meeting is at 2pm.'],
      ['I love hiking in the rain.', 'I hate hiking in the rain.'],
      ['Nadia is an expert at chess.', 'Nadia is a beginner at chess.'],
      ['I drink tea at breakfast.', 'I drink coffee at breakfast.'],
      ['Tom is my brother.', 'Tom is my son.'],
    ] as const) expectJudgedBothWays(detector, a, b, true)
  })
})
