import { describe, test } from 'vitest'
import { TextConflictDetector } from '../../src/index.js'
import { expectJudgedBothWays } from '../helpers/conflict-probes.js'

/**
 * Issue 27, eleventh round: an observation stream is a diary. Each rule below is a cause that
 * recurred in the false flags of test/fixtures/conversations-synthetic.json's observations (dates,
 * times, amounts of events); every pair here is written apart from the conversations, and each
 * pair under "failed before" was flagged on the code before the rule.
 */
const detector = new TextConflictDetector()

describe('two events told in the past, each amount after its own verb', () => {
  test.each([
    ['Ivo sprained his ankle at mile eight of a training run.', 'Ivo felt dizzy at mile eleven.'],
    ['Ivo hurt his back at mile eight of a long walk.', 'Ivo got tired at mile eleven.'],
    ['Omar sold the family cabin for 310,000 dollars.', 'Omar gave his sister 50,000 dollars from the cabin sale.'],
    ['Mei sold the piano for 2,000 dollars.', 'Mei offered her brother 500 dollars from the piano money.'],
    // A phrasal verb ("sold out") is read as one word; its verb tells the event.
    ['Rui sold out of 60 tacos in three hours at lunch.', 'Rui\'s cart served 500 tacos at the carnival over four days.'],
  ])('two occurrences, failed before: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    // With the counts set aside, the two events' dates are not one event's two dates either.
    ['Ada wrote 3 chapters in March.', 'Ada deleted 2 chapters in April.'],
  ])('two occurrences: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Omar sold the family cabin for 310,000 dollars.', 'Omar sold the family cabin for 290,000 dollars.'],
    ['Lena ran the trail race in 52 minutes.', 'Lena ran the trail race in 61 minutes.'],
    // A verb that measures answers one question, whichever verb the other side uses.
    ['Jun paid 40 dollars for the concert tickets.', 'The concert tickets cost 55 dollars.'],
    // A level reached is an answer, not an occurrence.
    ['Inflation in the region fell to 3 percent.', 'Inflation in the region climbed to 8 percent.'],
    // One side in the present is not told as an event.
    ['Tom is 34.', 'Tom turned 36 in May.'],
    // An update gives the one occurrence a new date.
    ['The wedding was on 5 May.', 'The wedding was moved to 12 May.'],
  ])('one occurrence or one answer, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('the period of a rate is what it is per, not a length of time', () => {
  test.each([
    ['Lucia averages about 40 customers a day.', 'Lucia\'s stall served 300 customers at the fair over three days.'],
    ['Lucia sells about 40 pies a day.', 'Lucia sold 25 pies in two hours at the market.'],
  ])('a rate and an event\'s length, failed before: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['Lucia sells about 40 pies a day.', 'Lucia sells about 90 pies a day.'],
    ['Rent for the studio is 900 euros a month.', 'Rent for the studio is 1,200 euros a month.'],
    ['The course lasts a day.', 'The course lasts two days.'],
  ])('two rates, or two lengths, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})

describe('the date of a start belongs to what starts', () => {
  test.each([
    ['The community garden is starting a compost club in March.', 'The community garden will open on weekday evenings starting in May.'],
    ['Omar\'s MBA starts in July.', 'A clinic offered Omar a locum job at 90,000 dollars a year starting in March.'],
  ])('two starts, failed before: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, false))

  test.each([
    ['The course starts on 5 May.', 'The course starts on 12 May.'],
    ['Ana starts her new job in May.', 'Ana\'s new job starts in June.'],
    ['The sprint starts on Monday.', 'The sprint begins on Wednesday.'],
  ])('one start, still flagged: %s / %s', (a, b) => expectJudgedBothWays(detector, a, b, true))
})
