import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { ConflictDetector, createMemory, type ConflictJudge } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'

/**
 * Issue 27 in working memory: "keeps its topic gate; apply the same precision rules there". A flag
 * of working memory's claim comparator now meets what a fact's flag meets: the claim gate
 * (statement.ts), the label and subject gates, and the free-text confidence threshold. And with a
 * second-stage judge that has `minCandidateConfidence`, the pairs scored below the threshold are
 * put to it, as facts' are.
 */

const detector = new ConflictDetector()
const compare = async (a: string, b: string) => {
  const [x, y] = await detector.analyze([a, b])
  return detector.compare(x!, y!)
}

async function task(judge?: ConflictJudge, minCandidateConfidence?: number) {
  const mem = await createMemory({ storage: memoryStorage(), ...(judge ? { conflictJudge: { judge, ...(minCandidateConfidence === undefined ? {} : { minCandidateConfidence }) } } : {}) })
  const wm = await mem.working.open('task-1')
  const add = (content: string, agent: string) => wm.addObservation({ content, sourceAgentId: agent, beliefType: 'FACT' })
  return { mem, wm, add }
}

describe('working memory: the claim comparator meets the precision rules of facts', () => {
  test('regression: two people with one favourite is no conflict (the comparator flagged "different name: Gina vs Jon")', async () => {
    const v = await compare("Gina's favorite dance style is contemporary.", "Jon's favorite dance style is contemporary.")
    expect(v.conflict, v.reason).toBe(false)
    expect(v.confidence).toBeLessThan(0.6)
    const { mem, wm, add } = await task()
    await add("Gina's favorite dance style is contemporary.", 'agent-a')
    await add("Jon's favorite dance style is contemporary.", 'agent-b')
    expect(await wm.getConflicts()).toEqual([])
    await mem.close()
  })

  test('numbered notes, greetings, tickets, steps and chapters in one task give no flag; a real contradiction still does, with its confidence', async () => {
    const { mem, wm, add } = await task()
    const texts = [
      ...Array.from({ length: 12 }, (_, i) => `Note number ${i} about project Zephyr`),
      'Hey Joanna! Thanks so much!', 'Hi Joanna, thanks!', 'Thanks, Audrey!', 'Thanks, Deborah!',
      'Ticket 123 is open', 'Ticket 456 is closed', 'Step 1: install node', 'Step 2: run npm install',
      'Chapter 3 covers sync', 'Chapter 4 covers relays',
    ]
    for (const [i, t] of texts.entries()) await add(t, i % 2 ? 'agent-a' : 'agent-b')
    expect(await wm.getConflicts()).toEqual([])
    await add('Room 4B has a projector', 'agent-a')
    await add('4B has no projector, just a wall TV', 'agent-b')
    const listed = await wm.getConflicts()
    expect(listed).toHaveLength(1)
    expect(listed[0]!.reason).toMatch(/projector/)
    expect((await compare('Room 4B has a projector', '4B has no projector, just a wall TV')).confidence).toBeGreaterThanOrEqual(0.6)
    await mem.close()
  })

  test('60 LoCoMo observations of conv-26 in one task (each speaker an agent) give at most 2 flags', async () => {
    const conv = JSON.parse(readFileSync(new URL('../../../shared/data/locomo/conv-26.json', import.meta.url), 'utf8')) as { observation: Record<string, Record<string, Array<[string, string]>>> }
    const obs = Object.values(conv.observation).flatMap((s) => Object.entries(s).flatMap(([who, list]) => list.map(([t]) => [who, t] as const))).slice(0, 60)
    expect(obs).toHaveLength(60)
    const { mem, wm, add } = await task()
    for (const [who, t] of obs) await add(t, who)
    expect((await wm.getConflicts()).length).toBeLessThanOrEqual(2)
    await mem.close()
  })
})

/** A judge that gives one label to every pair, counting what it is asked. */
function fakeJudge(label: 'contradiction' | 'neutral'): ConflictJudge & { asked: Array<readonly [string, string]> } {
  const asked: Array<readonly [string, string]> = []
  return { id: `fake/${label}`, asked, judge: async (pairs) => pairs.map((p) => (asked.push(p), { label, confidence: 0.9 })) }
}

describe('working memory: the judge gets the sub-threshold candidates with minCandidateConfidence (through createMemory)', () => {
  // The model-free stage scores this 0.55, under the listing threshold: one side is a plan.
  const [veg, steak] = ['Joe is vegetarian', 'Joe is planning to order the steak']

  test('asked, and on its contradiction recorded as a conflict (listed, in conflictsWith, resolvable)', async () => {
    const confidence = (await compare(veg, steak)).confidence
    expect(confidence).toBeGreaterThanOrEqual(0.2)
    expect(confidence).toBeLessThan(0.6)
    const judge = fakeJudge('contradiction')
    const { mem, wm, add } = await task(judge, 0.2)
    const a = await add(veg, 'agent-a')
    const b = await add(steak, 'agent-b')
    const listed = await wm.getConflicts({ waitForJudge: true })
    expect(judge.asked).toEqual([[veg, steak]])
    expect(listed).toHaveLength(1)
    expect([listed[0]!.a.id, listed[0]!.b.id]).toEqual([a.id, b.id])
    expect(listed[0]!.judge).toMatchObject({ status: 'judged', label: 'contradiction' })
    expect((await wm.get(a.id))!.conflictsWith).toEqual([b.id])
    // Recorded: a later read lists it without asking again, and it can be reconciled.
    expect(await wm.getConflicts()).toHaveLength(1)
    expect(judge.asked).toHaveLength(1)
    await wm.resolveConflict(a.id, b.id, { keep: a.id })
    expect(await wm.getConflicts()).toEqual([])
    await mem.close()
  })

  test('not listed when the judge clears it; never asked without the floor', async () => {
    const neutral = fakeJudge('neutral')
    const one = await task(neutral, 0.2)
    await one.add(veg, 'agent-a')
    await one.add(steak, 'agent-b')
    expect(await one.wm.getConflicts({ waitForJudge: true })).toEqual([])
    expect(neutral.asked).toEqual([[veg, steak]])
    expect(await one.wm.getConflicts({ waitForJudge: true })).toEqual([])
    expect(neutral.asked).toHaveLength(1)
    await one.mem.close()
    const sure = fakeJudge('contradiction')
    const two = await task(sure)
    await two.add(veg, 'agent-a')
    await two.add(steak, 'agent-b')
    expect(await two.wm.getConflicts({ waitForJudge: true })).toEqual([])
    expect(sure.asked).toEqual([])
    await two.mem.close()
  })
})
