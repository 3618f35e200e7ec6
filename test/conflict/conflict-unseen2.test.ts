import { describe, expect, test } from 'vitest'
import { ConflictDetector, TextConflictDetector } from '../../src/index.js'
import { evaluateRule, loadUnseen, loadUnseen2 } from '../../scripts/eval-conflicts.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'
import { devHalf, testPinnedSet } from '../helpers/pinned-pairs.js'

/**
 * Issue 27, ninth round: test/fixtures/conflict-pairs-unseen2.json, a second set written for the
 * round in the styles the first unseen set generalised worst on (jobs, habits and frequencies,
 * amounts, a person's state, places, times of travel). Its DEV half pins the figures reached; its
 * holdout is never read here. The rules below were found from its dev errors and checked against
 * the first unseen set's dev half; every pair in them is written apart from both sets, and each
 * compatible one was flagged, each contradiction missed, on the code before the round.
 */
const detector = new TextConflictDetector()

describe('second unseen set, dev half: the figures reached', () => {
  testPinnedSet({
    load: loadUnseen2,
    size: { atLeast: 160, dev: 84, conflicts: 59 },
    // Before the round: 3 false flags (P 0.842), 16 found (R 0.571).
    text: 19,
    // Before the round: 4 false flags (P 0.800), 16 found.
    working: 19,
    // Before the round: 27 listed, 7 false (P 0.741), 16 found (R 0.571); after, 28 listed, 4
    // false, 19 found. Three of the 4 are contradictions between two of the set's pairs on one
    // topic ("The bridge is 1.2 km long." / "The bridge spans just 400 metres."), counted false here.
    planted: { conversation: 'conv-30', seed: 28, tp: 19, fp: 4, timeout: 240_000 },
  })

  test('the first unseen set\'s dev half keeps no false flag and gains pairs', () => {
    const r = evaluateRule(devHalf(loadUnseen()), (a, b) => detector.judge(a, b)).overall
    // Before the round: 0 false flags, 17 of 26 found.
    expect(r.fp).toBe(0)
    expect(r.tp).toBeGreaterThanOrEqual(20)
  })
})

describe('ninth-round rules: two facts, not one fact twice', () => {
  test.each([
    ['a value said of some days is their exception', 'The zoo is free on Mondays.', 'Entry to the zoo costs $25.'],
    ['a value said of some days, a time', 'The pool opens at 10 am on Sundays.', 'The pool opens at 6 am.'],
    ['one day\'s amount against the usual', 'The drive to the coast takes about two hours.', 'The drive to the coast took four hours yesterday because of the traffic.'],
    ['one day\'s price against the usual', 'A taxi to the station costs about 15 euros.', 'The taxi to the station cost 32 euros this morning.'],
  ])('%s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })

  test('a postponement against the later day it moved to', () => {
    expectJudgedBothWays(detector, 'The school trip was postponed because of snow.', 'The school trip will go ahead next Friday.', false)
  })

  test.each([
    ['one day\'s amount', 'The drive to the coast takes about two hours.', 'The drive to the coast took four hours yesterday because of the traffic.'],
    ['"next to" says where', 'The florist is next to the post office.', 'The florist is on Mill Street.'],
  ])('working memory, no other answer: %s', async (_rule, x, y) => {
    const wm = new ConflictDetector()
    const [a, b] = await wm.analyze([x, y])
    const v = wm.compare(a!, b!)
    expect(v.conflict, v.reason).toBe(false)
  })

  test('contradictions the new readings must not take away', () => {
    for (const [a, b] of [
      ['The school trip was postponed because of snow.', 'The school trip went ahead despite the snow.'],
      ['The zoo is free on Mondays.', 'Entry to the zoo costs $25 on Mondays.'],
      ['The pool opens at 10 am on Sundays.', 'The pool opens at 7 am on Sundays.'],
      ['The drive to the coast takes about two hours.', 'The drive to the coast takes four hours.'],
      ['The taxi to the station cost 15 euros yesterday.', 'The taxi to the station cost 32 euros yesterday.'],
    ] as const) expectJudgedBothWays(detector, a, b, true)
  })
})

describe('ninth-round rules: frequencies read and compared', () => {
  test.each([
    ['"every day" is a frequency', 'Feed the goldfish every day.', 'Feed the goldfish once a week.'],
    ['"every morning" is once a day', 'She walks the dog every morning.', 'She walks the dog three times a week.'],
    ['two frequencies of one instruction share "a", no item', 'Use the inhaler twice a day.', 'Use the inhaler once a day.'],
    ['the same with what differs after it', 'Take one vitamin twice a day with water.', 'Take one vitamin once a day before bed.'],
  ])('%s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  test.each([
    ['two things done daily and weekly', 'I check my email every day.', 'I call my grandmother once a week.'],
    ['one frequency said twice', 'Feed the goldfish every day.', 'Feed the goldfish once a day.'],
  ])('not flagged, %s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })
})

describe('ninth-round rules: one job each, and a habit denied', () => {
  test.each([
    ['two jobs of one person', 'i am a pilot for a regional airline', 'i work as a pharmacist downtown'],
    ['two jobs of one relative', 'My uncle is a plumber.', 'My uncle works as an electrician in town.'],
    ['never against how often', 'I never go swimming.', 'I swim laps at the pool twice a week.'],
  ])('%s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, true)
  })

  test.each([
    ['two people', 'My uncle is a plumber.', 'My aunt is an electrician.'],
    ['a second job said with "also"', "I'm a nurse.", 'I also work as a barista on weekends.'],
    ['a change said with it', 'I used to be a teacher.', "I'm a librarian now."],
    ['one job said twice', "I'm a nurse.", "I'm a nurse at the city hospital."],
    ['a role beside a job', "I'm a student.", 'I work as a waiter.'],
    ['a habit of someone else', 'I never drink soda.', 'My kids drink soda every day.'],
  ])('not flagged, %s: %s / %s', (_rule, a, b) => {
    expectJudgedBothWays(detector, a, b, false)
  })
})
