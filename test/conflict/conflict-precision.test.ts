import { describe, expect, test } from 'vitest'
import { ConflictDetector, MemweaveError, TextConflictDetector, createMemory } from '../../src/index.js'
import { DEFAULT_CONFLICT_THRESHOLD, KEEP_CONFIDENCE } from '../../src/conflict/threshold.js'
import { readStatement } from '../../src/conflict/read/statement.js'
import { differentItems, itemLabels } from '../../src/conflict/read/labels.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { enumerationFacts } from '../../scripts/eval-conflict-store.js'

/**
 * Issue 27: flags people can trust. The detector judges claims only, about one subject and one
 * attribute; labels, ordinals and ids name items, not values; every flag has a confidence and a
 * reason a person can read. Before this issue the enumeration store below gave 220 flags and each
 * "never" pair here but the plan was flagged.
 */
const detector = new TextConflictDetector()
const judge = (a: string, b: string) => detector.judge(a, b)

describe('conflict precision: what is not a claim is never flagged', () => {
  test.each([
    ['greetings and thanks', 'Hey Joanna! Thanks so much!', 'Hi Joanna, thanks!'],
    ['a greeting naming someone', 'Thanks, Audrey!', 'Thanks, Deborah!'],
    ['questions', 'Is the standup at 9:30?', 'Is the standup at 10?'],
    ['reactions to the listener', "You're so talented, your painting is amazing!", 'Your painting is not amazing at all!'],
    ['hypotheticals', 'If it rains we might move the picnic to Sunday', 'the picnic is on Saturday'],
    ['two speakers each about themselves', 'Caroline: I love hiking in the mountains', 'Melanie: I hate hiking in the mountains'],
    ['opinions of and advice to someone else', 'Gina encourages Jon not to give up on the studio', 'Jon gave up on the studio'],
  ])('%s', (_name, a, b) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
    expect(judge(b, a).conflict).toBe(false)
  })

  test('a statement keeps the claim sentences of a chat turn and says who speaks', () => {
    const s = readStatement("Melanie: Wow, Caroline! That's stunning! I painted the lake last week. What made you paint it?")
    expect(s.text).toBe('I painted the lake last week.')
    expect(s.speaker).toBe('Melanie')
    expect(s.dropped).toEqual(expect.arrayContaining(['greeting', 'reaction', 'question']))
    expect(readStatement('Thanks, Jon! Appreciate it!').text).toBe('')
  })
})

describe('conflict precision: a negation or retraction is of what it governs', () => {
  test.each([
    ['a particle makes another verb', "I'm feeling confident and won't give up", "I'm feeling good and ready to give it my best"],
    ['speak up is not speak', "Bruno doesn't speak any Spanish", "Bruno, you're so brave to speak up for the community"],
    ['a dash ends a negation', 'Pottery is not just a hobby - it helps me express my emotions', 'guitar is a great way to express my emotions'],
    ['the one who mutes is not muted', 'user muted comment notifications, @mentions only', "user's timezone is America/Chicago"],
    ['a phrase after a preposition is not what is switched off', 'flag new_checkout was switched off in production after the incident', 'incident #311 resolved'],
    ['a phrase after a preposition before the retraction is not retracted', 'new product designer starts Sept 2', "Feature flag new_checkout was switched off in production after last night's incident and is still off."],
    ['a retraction word used as a noun', 'stumbling blocks can be opened doors', 'I lost my job at Door Dash'],
    ["don't stop is going on", "keep going and don't stop dreaming", 'my successes keep me dreaming on the dance floor'],
  ])('%s', (_name, a, b) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
    expect(judge(b, a).conflict).toBe(false)
  })
  test.each([
    ['giving up against going on', 'Jon gave up on the studio', "Jon didn't give up on the studio"],
    ['a refusal retracts the one who refuses', 'We hired the backend candidate (Okoye)', 'Okoye declined our offer'],
    ['a retracted object', 'the app supports iOS 15', 'we dropped iOS 15 support'],
    ['a passive retraction', 'the 7am ferry to Hull is running', 'the 7am ferry to Hull is cancelled'],
  ])('still flags %s', (_name, a, b) => {
    expect(judge(a, b).conflict, judge(a, b).reason).toBe(true)
  })
})

describe('conflict precision: "only" keeps one kind of thing', () => {
  test.each([
    ['a thing of another kind', 'lunch & learn is virtual only this wk', "I'm getting creative too, just learning the piano"],
    ['the one a clause is about', 'lunch & learn is virtual only this wk', 'Colm booked the 6:50 departure again, likes getting in by lunch'],
    ['read-only is a mode, not a restriction', 'reporting agent has a read-only Snowflake role', 'Sarah reports to Kevin'],
  ])('%s', (_name, a, b) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
    expect(judge(b, a).conflict).toBe(false)
  })
  test.each([
    ['another admin', 'Alice is the only admin in our Okta tenant', 'Okta admins: Alice and Bob'],
    ['another way to pay', 'Tidewater Supply only accepts wire transfers', 'tidewater said paying by credit card is fine'],
  ])('still flags %s', (_name, a, b) => {
    expect(judge(a, b).conflict, judge(a, b).reason).toBe(true)
  })
})

describe('conflict precision: a noun told apart by the word before it is two subjects', () => {
  test.each([
    ['an -ing word before a noun', 'Pricing review Wed 3pm ET', 'roadmap review is Thursday'],
    ['a plural noun before a verb', 'retro notes go in Confluence', 'meeting notes go in Notion'],
    ['a plural noun before a noun', 'Q2 earnings release Jul 24', 'v2.3 release date: Thursday, May 8'],
  ])('%s', (_name, a, b) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
    expect(judge(b, a).conflict).toBe(false)
  })
  test('one noun with one modifier is still one subject', () => {
    expect(judge('roadmap review is Wednesday', 'the roadmap review is on Thursday').conflict).toBe(true)
    expect(judge('retro notes go in Confluence', 'retro notes go in Notion').conflict).toBe(true)
  })
})

describe('conflict precision: a name before a noun says which one, it is no answer', () => {
  test.each([
    ['a name modifying a noun against a place', "today's 07:52 to Leeds: platform 4", "Melanie: Wow, Caroline, that's awesome! Can't wait to see your show - the LGBTQ community needs more platforms like this!"],
    ['a company name before a department', 'Sony Music legal sent over the licensing terms', 'loop in legal on any NDA'],
  ])('%s', (_name, a, b) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
    expect(judge(b, a).conflict).toBe(false)
  })
  test('a name before a word that says when is still an answer', () => {
    expect(judge('Sarah reports to Kevin', "sarah's manager is Omar since the reorg").conflict).toBe(true)
  })
})

describe('conflict precision: labels, ordinals and ids name different items', () => {
  test.each([
    ['Note number 4 about project Zephyr', 'Note number 50 about project Zephyr'],
    ['Ticket 123 is open', 'Ticket 456 is closed'],
    ['Step 1: install node', 'Step 2: run npm install'],
    ['Chapter 3 covers sync', 'Chapter 4 covers relays'],
    ['Version 1.2 added dark mode', 'Version 1.3 removed the legacy API'],
    ['Invoice INV-0042 is paid', 'Invoice INV-0043 is outstanding'],
    ['server db-01 is up', 'server db-02 is down'],
    ['Q1 revenue was $2M', 'Q2 revenue was $3M'],
    ['Plan A is to take the train', 'Plan B is to fly'],
    ['Shopping list, first: coffee', 'Shopping list, second: tea'],
  ])('%s / %s', (a, b) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
    expect(judge(b, a).conflict).toBe(false)
  })

  test.each([
    ['a version against an order', 'orders db is MySQL 8', 'Refund issued to J. Alvarez for order 3320'],
    ['a version against a count with a unit', 'pw policy: min 12 chars', 'min deployment target for the watch app: watchOS 10.0'],
  ])('a number after a name labels it: %s', (_name, a, b) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(false)
  })
  test('an amount after a verb is still a value', () => {
    expect(judge('Biscuit is 3', 'biscuit turns 5 next week').conflict).toBe(true)
  })
  test('only the label of the subject names the item', () => {
    expect(differentItems(itemLabels(['Room 4B has a projector']), itemLabels(['Room 4C has no projector']))).not.toBeNull()
    expect(differentItems(itemLabels(['Room 4B has a projector']), itemLabels(['Room 4B has no projector']))).toBeNull()
  })
})

describe('conflict precision: real contradictions are still flagged, with a confidence and a readable reason', () => {
  test.each([
    ['Room 4B has a projector', '4B has no projector, just a wall TV', /projector/],
    ['Sarah reports to Kevin', "sarah's manager is Omar since the reorg", /Kevin|Omar/],
    ['Kim lives in Toronto', 'Kim moved to Vancouver in March and is settling in nicely', /Toronto|Vancouver/],
    ['Daily standup starts at 9:30', 'standup is at 10 every morning', /time/],
    ['Okoye declined our offer', 'We hired the backend candidate (Okoye)', /retract/],
    ['Ola merged PR 310', 'Ola merged PR 312', /pr number/],
    ['Caroline: I love hiking', 'Caroline: I hate hiking', /hik/],
  ])('%s / %s', (a, b, reason) => {
    const v = judge(a, b)
    expect(v.conflict, v.reason).toBe(true)
    expect(v.confidence).toBeGreaterThanOrEqual(DEFAULT_CONFLICT_THRESHOLD)
    expect(v.confidence).toBeLessThanOrEqual(1)
    expect(v.reason).toMatch(reason)
    // Never an empty label such as `different : "0" vs "2"`.
    expect(v.reason).not.toMatch(/different\s*:/)
  })

  test('a lower threshold lists what the default holds back, with its confidence', () => {
    const [a, b] = ['Caroline is going to paint the fence red next week', 'Caroline painted the fence blue']
    const strict = judge(a, b)
    const loose = new TextConflictDetector({ threshold: KEEP_CONFIDENCE }).judge(a, b)
    expect(strict.conflict).toBe(false)
    expect(loose.conflict, loose.reason).toBe(true)
    expect(loose.confidence).toBeGreaterThanOrEqual(KEEP_CONFIDENCE)
    expect(loose.confidence).toBeLessThan(DEFAULT_CONFLICT_THRESHOLD)
    expect(loose.reason).toMatch(/plan/)
  })
})

describe('conflict precision: through the public API', () => {
  test('the enumeration set (test/fixtures/conflict-enumerations.json) in one store gives no flag', async () => {
    const mem = await createMemory({ storage: memoryStorage() })
    const facts = enumerationFacts()
    expect(facts.length).toBeGreaterThanOrEqual(100)
    for (const f of facts) await mem.facts.write(f.content)
    expect((await mem.facts.conflicts()).filter((c) => c.kind === 'free-text')).toEqual([])
    await mem.close()
  })

  test('planted contradictions among chat are listed, with confidences; the chat is not', async () => {
    const mem = await createMemory({ storage: memoryStorage() })
    const chat = [
      'Caroline: Hey Mel! Good to see you! How have you been?',
      "Melanie: Hey Caroline! I'm swamped with the kids & work. What's up with you?",
      'Caroline: I went to an LGBTQ support group yesterday and it was so powerful.',
      "Melanie: Wow, that's cool, Caroline! What happened that was so awesome?",
      'Caroline: Thanks, Mel! The stories were inspiring.',
      'Melanie: Thanks, Caroline! I painted a lake sunrise last year.',
    ]
    const refs = new Map<string, string>()
    const write = async (t: string): Promise<void> => void refs.set(await mem.facts.write(t), t)
    await write(chat[0]!)
    await write('Room 4B has a projector')
    for (const t of chat.slice(1, 4)) await write(t)
    await write('Kim lives in Toronto')
    for (const t of chat.slice(4)) await write(t)
    await write('4B has no projector, just a wall TV')
    await write('Kim moved to Vancouver in March')
    await write('Kim is going to visit Montreal in May')
    const listed = (await mem.facts.conflicts()).filter((c) => c.kind === 'free-text')
    const pairs = listed.map((c) => c.refs.map((r) => refs.get(r)!).sort().join(' | ')).sort()
    expect(pairs).toEqual(['4B has no projector, just a wall TV | Room 4B has a projector', 'Kim lives in Toronto | Kim moved to Vancouver in March'])
    for (const c of listed) expect(c.confidence).toBeGreaterThanOrEqual(DEFAULT_CONFLICT_THRESHOLD)
    // A lower threshold lists at least as much, each pair at or above it.
    const loose = (await mem.facts.conflicts({ minConfidence: KEEP_CONFIDENCE })).filter((c) => c.kind === 'free-text')
    expect(loose.length).toBeGreaterThanOrEqual(listed.length)
    for (const c of loose) expect(c.confidence).toBeGreaterThanOrEqual(KEEP_CONFIDENCE)
    // A fact's conflictsWith follows the default threshold.
    const [fourB] = [...refs].find(([, t]) => t === 'Room 4B has a projector')!
    expect((await mem.facts.get(fourB))!.conflictsWith).toHaveLength(1)
    await mem.close()
  })

  test('minConfidence out of range is refused with INVALID_ARGUMENT, and nothing changes', async () => {
    const mem = await createMemory({ storage: memoryStorage() })
    await mem.facts.write('Room 4B has a projector')
    await mem.facts.write('4B has no projector')
    for (const bad of [2, -1, 0.1, Number.NaN, '0.5' as unknown as number]) {
      const err = await mem.facts.conflicts({ minConfidence: bad }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(MemweaveError)
      expect((err as MemweaveError).code).toBe('INVALID_ARGUMENT')
    }
    expect(await mem.facts.conflicts()).toHaveLength(1)
    await mem.close()
  })
})

describe('conflict precision: working memory applies the same rules', () => {
  const wm = new ConflictDetector()
  const compare = async (a: string, b: string) => {
    const [x, y] = await wm.analyze([a, b])
    return wm.compare(x!, y!)
  }
  test('greetings, labels and plans are not flagged; a real contradiction is', async () => {
    expect((await compare('Thanks, Audrey!', 'Thanks, Deborah!')).conflict).toBe(false)
    expect((await compare('Ticket 123 is open', 'Ticket 456 is closed')).conflict).toBe(false)
    expect((await compare('Step 1: install node', 'Step 2: run npm install')).conflict).toBe(false)
    expect((await compare('Room 4B has a projector', '4B has no projector, just a wall TV')).conflict).toBe(true)
  })
})
