import { describe, expect, test } from 'vitest'
import { TextConflictDetector, createMemory, type Memory } from '../../src/index.js'
import { DEFAULT_CONFLICT_THRESHOLD, KEEP_CONFIDENCE } from '../../src/conflict/threshold.js'
import { FRAME_FACTORS } from '../../src/conflict/judge/claim-frame.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'

/**
 * Issue 27, third round: the claim frame (src/conflict/claim-frame.ts). A flag needs the two texts
 * to share a thing beside what differs, and the values to be said of it. In a store each fact
 * meets neighbours that share one word with it; each pair below was flagged at the default
 * threshold before the frame (0.7 to 0.9), and is now below it, still reachable with a lower
 * `minConfidence` and with the frame's reading in its reason.
 */
const detector = new TextConflictDetector()
// Low enough that a pair several readings lowered is still seen, with its reason.
const loose = new TextConflictDetector({ threshold: 0.01 })

/** A pair the frame lowers: the rule that lowers it, the two texts, what its reason says. */
type Lowered = readonly [rule: string, a: string, b: string, why: RegExp]

/** One test a pair, titled by its rule: below the default threshold, and lowered, not vetoed. */
function testLowered(cases: readonly Lowered[]): void {
  test.each(cases)('%s: %s / %s', (_rule, a, b, why) => {
    const v = detector.judge(a, b)
    expect(v.conflict).toBe(false)
    expect(v.confidence).toBeLessThan(DEFAULT_CONFLICT_THRESHOLD)
    // Lowered, not vetoed: a lower threshold still reaches it, and the reason says why it is low.
    const l = loose.judge(a, b)
    expect(l.conflict).toBe(true)
    expect(l.reason).toMatch(why)
  })
}

/** A new store with `texts` written into it in order, and the way back from a fact's ref to its text. */
async function storeOf(texts: readonly string[]): Promise<{ mem: Memory; text: (ref: string) => string }> {
  const mem = await createMemory({ storage: memoryStorage() })
  const refs = new Map<string, string>()
  for (const t of texts) refs.set(await mem.facts.write(t), t)
  return { mem, text: (ref) => refs.get(ref)! }
}

describe('claim frame: pairs that share a word, not a claim, are below the default threshold', () => {
  testLowered([
    ['nothing shared but the word that differs', 'Korean BBQ place on 5th has a 2-hour wait on Fridays', 'Melanie: Can\'t wait to see your show - the LGBTQ community needs more platforms like this!', /share only the word that differs/],
    ['nothing shared but the word that differs', 'we dropped iOS 15 support, min is 16 now', 'Caroline: The support group has made me feel accepted and given me courage to embrace myself.', /share only the word that differs/],
    ['each names its own thing', 'AWS bill last month: $18k', 'Sato Design invoice: $1,250 incl. VAT', /each names its own thing/],
    ['each names its own thing', 'zero units of A-17 left in the Reno warehouse', 'We have forty B-9 units, all in aisle 12.', /each names its own thing/],
    ['each names its own thing', 'Brightline kickoff moved to the 10th', 'kickoff w/ Northwind on the 3rd', /each names its own thing/],
    ['the number says which one', 'room 311 booked for the interview loop', 'terraform workshop 1–3pm in Room 5', /two items/],
    ['the shared word is a unit on one side', 'we dropped iOS 15 support, min is 16 now', 'Mirela ran Sunday\'s 10k in 47 min', /part of a value/],
    ['another kind of one thing', 'Ben wants a window seat', 'ben doesn\'t want a middle seat', /another kind on each side/],
    ['another kind of one thing', 'never share the admin password over email', 'share the guest wifi password with visitors', /another kind on each side/],
    ['two times', 'Anya moved to Denver in 2021', 'anya lived in Austin before that', /what was, the other what is/],
    ['two times', 'the car was serviced in March', 'car\'s next service is due in September', /what was, the other what is/],
    ['a change is no total', 'our team has 8 engineers', 'the team hired 2 more engineers in May', /a change, not a total/],
    ['eagerness is no negation', 'Jon: Opening the dance studio\'s been a great experience.', 'Jon: Your words keep me motivated. Can\'t wait \'til my studio starts welcoming dancers of all ages!', /can't wait/],
    ['a value is of its clause', 'this week\'s lunch & learn: noon in the kitchen', 'Colm booked the 6:50 departure again, likes getting in by lunch', /clause about something else/],
    ['one root, two words', 'print 400 copies of the flyer', 'printer on 2 is out of toner', /two words of one root/],
  ])

  test('every factor lowers a check of base 0.9 or less below the default threshold', () => {
    for (const f of Object.values(FRAME_FACTORS)) expect(0.9 * f).toBeLessThan(DEFAULT_CONFLICT_THRESHOLD)
  })
})

describe('claim frame: contradictions that share a thing stay flagged', () => {
  test.each([
    // A name, a subject both open with, one speaker's "I": an anchor even when it is what differs.
    ['We hired the backend candidate (Okoye)', 'Okoye declined our offer'],
    ['The refund was approved', 'The refund was denied'],
    ['The heating is turned on', 'The heating is turned off'],
    ['Caroline: I love hiking', 'Caroline: I hate hiking'],
    ['Mo hates olives', 'mo ordered extra olives'],
    // A modifier on one side only, or a word before a noun it modifies, is no other kind.
    ['Dana hates cilantro', 'dana asked for extra cilantro on her tacos again'],
    ['Mei is our strongest Go dev', 'mei has never written Go, she\'s all Java'],
    ['Ilse plays cello from sheet music', 'ilse cannot read music'],
    // A clause with no subject of its own goes on with the one before.
    ['AC 857 is on time, departs YYZ 18:45', 'AC857 leaves Toronto at 21:10 tonight'],
    ['HOA vote on the fence passed 7–2', 'fence motion failed, only 4 in favor'],
    // A past marker reaches its own clause only; a participle is no simple past.
    ['Piotr knows Kubernetes inside out, ran clusters at his last job', 'piotr\'s never touched k8s'],
    ['(Thu 12 June) team photo is tomorrow', 'team photo scheduled for Monday 16 June'],
    // Hyphenated words are no names; time zones are no names.
    ['the role is full-time', 'that role is part-time'],
    ['board meeting 10am PT Thursday', 'board mtg thursday 11am ET'],
    // One stem a letter longer is the same word ("allergic" / "allergies").
    ['Tom\'s allergic to peanuts, carries an EpiPen', 'tom has no food allergies'],
  ])('%s / %s', (a, b) => {
    const v = detector.judge(a, b)
    expect(v.conflict).toBe(true)
    expect(v.confidence).toBeGreaterThanOrEqual(DEFAULT_CONFLICT_THRESHOLD)
  })
})

describe('claim frame: through the public API', () => {
  test('neighbours that share one word are not listed; the contradiction among them is', async () => {
    const { mem, text } = await storeOf([
      'Brightline kickoff moved to the 10th',
      'room 311 booked for the interview loop',
      'Korean BBQ place on 5th has a 2-hour wait on Fridays',
      'kickoff w/ Northwind on the 3rd',
      'terraform workshop 1–3pm in Room 5',
      'Melanie: Can\'t wait to see your show!',
      'northwind pushed the kickoff to the 10th',
    ])
    const listed = (await mem.facts.conflicts()).filter((c) => c.kind === 'free-text')
    expect(listed.map((c) => c.refs.map(text).sort().join(' | '))).toEqual(['kickoff w/ Northwind on the 3rd | northwind pushed the kickoff to the 10th'])
    // The pairs the frame lowered are kept below the threshold, for a caller that asks.
    const all = (await mem.facts.conflicts({ minConfidence: KEEP_CONFIDENCE })).filter((c) => c.kind === 'free-text')
    expect(all.length).toBeGreaterThan(listed.length)
    for (const c of all) if (!listed.some((l) => l.refs.join() === c.refs.join())) expect(c.reason).toMatch(/each names its own thing|two items|share only/)
    await mem.close()
  })
})

/**
 * Issue 27, ninth round: false flags between statements of two different planted pairs, found by
 * planting the dev pairs of the realistic and unseen sets and the blind batches 1-2 together in
 * conv-26's turns and conv-30's observations (`eval:conflicts --wide` and by hand). Each pair was
 * flagged at 0.8 to 0.9 before.
 */
describe('claim frame, ninth round: a rule is of what qualifies it; one word before two things', () => {
  testLowered([
    ['a rule qualified by what the other side does not name', 'never deploy on fridays', 'deploy went out at 14:00', /the rule is of "fridays"/],
    ['a rule qualified by what the other side does not name', 'never deploy on fridays', 'prod deploys on Tuesdays only', /the rule is of "fridays"/],
    ['a rule qualified by what the other side does not name', 'Jazz, our Slack bot, posts the deploy summary', 'never deploy on fridays', /the rule is of "fridays"/],
    ['a rule qualified by what the other side does not name', 'Colm booked the 6:50 departure again, likes getting in by lunch', 'never book me on Delta again', /the rule is of "delta"/],
    ['one word before a different thing on each side', 'GraphQL gateway is on Apollo Server v4', 'bumped Apollo Client to 3.9 in the web app', /two things: "apollo server" \/ "apollo client"/],
    // A planted statement against an observation of conv-30 and of conv-26.
    ['whose thing, what is acted on', 'The marketing team isn\'t keen on the new logo.', 'Jon started learning marketing and analytics tools to push his business forward.', /a possessive names whose thing/],
    ['whose thing, what is acted on', 'Caroline is creating a library for when she has kids, as she looks forward to reading to them and opening up their minds.', 'The library closes at 8 pm on weekdays.', /the opposite is said of "their minds"/],
  ])

  test.each([
    // The rule's object or qualifier named on the other side: still against it.
    ['never squash commits', 'squash the fixup commits before review'],
    ['Don\'t book Delta', 'booked Colm on Delta for Tuesday'],
    ['never deploy on fridays', 'ship the hotfix this Friday'],
    ['do not cc legal on vendor contracts', 'cc legal on the vendor contract renewal'],
    // One word before one thing on both sides, or before nothing; lower-case heads are often two words for one thing.
    ['the Apollo Server is on v4', 'Apollo Server runs 3.9'],
    ['build server has 64 GB RAM', 'ran free -h on the build box: 31Gi total'],
    ['the kitchen reno is done', 'kitchen renovation still in progress, tiles next week'],
    ['The refund was approved', 'The refund was denied'],
    // A member that is the value; an opposite verb acting on what both name.
    ['Acme is on the Business plan', 'Acme moved to the Team plan'],
    ['the shop opened its doors at 9 today', 'the shop\'s doors are closed all day'],
  ])('still flagged: %s / %s', (a, b) => {
    const v = detector.judge(a, b)
    expect(v.conflict).toBe(true)
  })

  test('an irregular simple past ends a subject: two people named before "drives" and "drove" are two subjects', () => {
    // Two cars, so the names are one kind and the subjects are what is left to tell them apart;
    // "a Tesla" / "around Sicily" (a car, an island) is no name pair since names27 (judge/name-role.ts).
    const v = loose.judge('Jordan from accounting drives a Tesla.', 'Pilar drove a rented Fiat around the island')
    expect(v.reason).toMatch(/two subjects: "jordan" vs "pilar"/)
    expect(detector.judge('Jordan from accounting drives a Tesla.', 'Pilar drove a rented Fiat around the island').conflict).toBe(false)
    expect(detector.judge('Jordan from accounting drives a Tesla.', 'Pilar drove the manual rental around Sicily').conflict).toBe(false)
    // One person: still a contradiction.
    expect(detector.judge('Kim drove the Honda to work', 'Kim drives a Tesla').conflict).toBe(true)
  })

  test('through mem.facts.write: the rule and the events beside it are not listed, the deploy on a Friday is (twice)', async () => {
    const { mem, text } = await storeOf(['never deploy on fridays', 'deploy went out at 14:00', 'prod deploys on Tuesdays only', 'we deploy the hotfix this Friday'])
    const listed = (await mem.facts.conflicts()).filter((c) => c.kind === 'free-text')
    expect(listed.map((c) => c.refs.map(text).sort().join(' | '))).toEqual([
      'never deploy on fridays | we deploy the hotfix this Friday',
      // "only" Tuesdays: a Friday deploy is against it too.
      'prod deploys on Tuesdays only | we deploy the hotfix this Friday',
    ])
    await mem.close()
  })
})
