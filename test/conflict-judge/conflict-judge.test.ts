import { describe, expect, test } from 'vitest'
import { createMemory, nliConflictJudge, type ConflictJudge, type ConflictJudgeOptions, type JudgeVerdict } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoragePort } from '../../src/storage/port.js'
import { fakeNliPipeline } from './fake-nli.js'

/**
 * Issue 27, the model path: a second-stage judge (`conflictJudge` on createMemory) asked about the
 * pairs the model-free detector proposes. Two pairs the detector flags: the projector pair is a
 * contradiction to the fake model, the standup pair is not (so a judged list drops it).
 */
const projector = 'Room 4B has a projector'
const noProjector = '4B has no projector, just a wall TV'
const standup = 'Daily standup starts at 9:30'
const standupLater = 'standup is at 10 every morning'

const fakeModel = () => fakeNliPipeline({ topic: 'projector', negation: 'no' })

/** A judge that counts the pairs it is asked about (one per pair, whatever the model does inside). */
function counted(judge: ConflictJudge): ConflictJudge & { asked: number; calls: number } {
  const out = {
    id: judge.id,
    asked: 0,
    calls: 0,
    judge(pairs: ReadonlyArray<readonly [string, string]>) {
      out.asked += pairs.length
      out.calls++
      return judge.judge(pairs)
    },
  }
  return out
}

async function open(storage: StoragePort, conflictJudge: ConflictJudgeOptions) {
  return createMemory({ storage, conflictJudge })
}

async function writeBoth(mem: Awaited<ReturnType<typeof open>>) {
  const refs = [await mem.facts.write(projector), await mem.facts.write(noProjector), await mem.facts.write(standup), await mem.facts.write(standupLater)]
  return refs
}

describe('conflict judge: facts through createMemory', () => {
  test('the model-free verdict is listed pending until the judge answers; then the judge decides what is listed', async () => {
    const model = fakeModel()
    const judge = counted(nliConflictJudge(model, { id: 'fake/nli-v1' }))
    const mem = await open(memoryStorage(), { judge })
    const [a, b, c, d] = await writeBoth(mem)

    const first = await mem.facts.conflicts()
    expect(first.map((x) => x.judge?.status)).toEqual(['pending', 'pending'])
    expect(first.every((x) => x.kind === 'free-text' && x.reason.length > 0)).toBe(true)

    const judged = await mem.facts.conflicts({ waitForJudge: true })
    expect(judged).toHaveLength(1)
    expect([...judged[0]!.refs].sort()).toEqual([a, b].sort())
    expect(judged[0]!.judge).toMatchObject({ id: 'fake/nli-v1', status: 'judged', label: 'contradiction' })
    expect(judged[0]!.reason).toMatch(/fake\/nli-v1 judges it a contradiction \(0\.94\)/)
    // The pair the judge cleared leaves conflictsWith too; the confirmed one stays.
    expect((await mem.facts.get(c!))!.conflictsWith).toEqual([])
    expect((await mem.facts.get(d!))!.conflictsWith).toEqual([])
    expect((await mem.facts.get(a!))!.conflictsWith).toEqual([b])
    // Two pairs asked once each (the NLI adapter runs both orders: four model inputs).
    expect(judge.asked).toBe(2)
    expect(model.pairs).toBe(4)
    // Asking again asks nobody.
    await mem.facts.conflicts({ waitForJudge: true })
    expect(judge.asked).toBe(2)
    await mem.close()
  })

  test('verdicts are stored: a reload on the same storage asks the judge nothing; another judge id asks again', async () => {
    const storage = memoryStorage()
    const first = counted(nliConflictJudge(fakeModel(), { id: 'fake/nli-v1' }))
    const mem = await open(storage, { judge: first })
    await writeBoth(mem)
    const before = await mem.facts.conflicts({ waitForJudge: true })
    await mem.close()
    expect(first.asked).toBe(2)

    const again = counted(nliConflictJudge(fakeModel(), { id: 'fake/nli-v1' }))
    const reopened = await open(storage, { judge: again })
    // Stored verdicts are read before listing: no pending state, no call.
    const after = await reopened.facts.conflicts()
    const seen = (list: typeof before) => list.map((c) => [c.refs, c.judge])
    expect(seen(after)).toEqual(seen(before))
    expect(again.asked).toBe(0)
    await reopened.close()

    const upgraded = counted(nliConflictJudge(fakeModel(), { id: 'fake/nli-v2' }))
    const third = await open(storage, { judge: upgraded })
    expect((await third.facts.conflicts()).map((x) => x.judge?.status)).toEqual(['pending', 'pending'])
    await third.facts.conflicts({ waitForJudge: true })
    expect(upgraded.asked).toBe(2)
    await third.close()
  })

  test('a failing judge never fails a write; it is asked again at later reads, retries times at most, then left unjudged', async () => {
    let calls = 0
    const failing: ConflictJudge = { id: 'broken', judge: async () => { calls++; throw new Error('model offline') } }
    const mem = await open(memoryStorage(), { judge: failing, retries: 1 })
    await writeBoth(mem)
    const one = await mem.facts.conflicts({ waitForJudge: true })
    // The model-free verdict stands, marked pending (a retry is left).
    expect(one.map((x) => x.judge?.status)).toEqual(['pending', 'pending'])
    expect(calls).toBe(1)
    const two = await mem.facts.conflicts({ waitForJudge: true })
    expect(calls).toBe(2)
    expect(two.map((x) => x.judge)).toEqual([{ id: 'broken', status: 'unjudged', why: 'failed' }, { id: 'broken', status: 'unjudged', why: 'failed' }])
    await mem.facts.conflicts({ waitForJudge: true })
    expect(calls).toBe(2)
    // Writing goes on as before.
    await mem.facts.write('the office is closed on Friday')
    await mem.close()
  })

  test('a judge that never answers times out; writes and reads do not wait for it', async () => {
    const hanging: ConflictJudge = { id: 'hangs', judge: () => new Promise<never>(() => undefined) }
    const mem = await open(memoryStorage(), { judge: hanging, timeoutMs: 5, retries: 0 })
    await writeBoth(mem)
    expect((await mem.facts.conflicts()).map((x) => x.judge?.status)).toEqual(['pending', 'pending'])
    const later = await mem.facts.conflicts({ waitForJudge: true })
    expect(later.map((x) => x.judge)).toEqual([{ id: 'hangs', status: 'unjudged', why: 'failed' }, { id: 'hangs', status: 'unjudged', why: 'failed' }])
    await mem.close()
  })

  test('at most maxPairsPerWrite pairs of one write are asked; at most `concurrency` calls run at once', async () => {
    let inFlight = 0
    let most = 0
    let asked = 0
    const slow: ConflictJudge = {
      id: 'counts',
      async judge(pairs) {
        asked += pairs.length
        most = Math.max(most, ++inFlight)
        await new Promise((r) => setTimeout(r, 1))
        inFlight--
        return pairs.map((): JudgeVerdict => ({ label: 'contradiction', confidence: 0.9 }))
      },
    }
    const storage = memoryStorage()
    const bounds = { maxPairsPerWrite: 1, batchSize: 1, concurrency: 2 }
    const mem = await open(storage, { judge: slow, ...bounds })
    // Each standup time contradicts every other: the last write alone proposes three pairs.
    for (const t of ['9:30', '11am', '2pm', '10am']) await mem.facts.write(`the daily standup is at ${t}`)
    const listed = await mem.facts.conflicts({ waitForJudge: true })
    const proposed = listed.length
    const writers = new Set(listed.map((x) => x.refs[1])).size
    expect(proposed).toBeGreaterThan(writers)
    // One pair per write asked, the rest listed on the model-free verdict, marked as over the bound.
    expect(asked).toBe(writers)
    expect(listed.filter((x) => x.judge?.status === 'judged')).toHaveLength(writers)
    expect(listed.filter((x) => x.judge?.status === 'unjudged' && x.judge.why === 'bound')).toHaveLength(proposed - writers)
    expect(most).toBeLessThanOrEqual(2)
    await mem.close()
    // After a reload a write's stored verdicts count against its budget: the pairs over it stay unasked.
    const reopened = await open(storage, { judge: slow, ...bounds })
    const again = await reopened.facts.conflicts({ waitForJudge: true })
    expect(asked).toBe(writers)
    expect(again.filter((x) => x.judge?.status === 'unjudged')).toHaveLength(proposed - writers)
    await reopened.close()
  })

  test('a hard delete drops the stored verdicts of its pairs', async () => {
    const storage = memoryStorage()
    const mem = await open(storage, { judge: nliConflictJudge(fakeModel(), { id: 'fake/nli-v1' }) })
    const [, b] = await writeBoth(mem)
    await mem.facts.conflicts({ waitForJudge: true })
    const rows = async () => (await storage.read(['meta'], (tx) => tx.all<{ key: string; v?: number }>('meta'))).filter((r) => r.key.startsWith('conflictJudge:'))
    expect((await rows()).map((r) => r.v)).toEqual([1, 1])
    await mem.facts.delete(b!)
    expect(await rows()).toHaveLength(1)
    await mem.close()
  })

  test('minCandidateConfidence: a pair below the listing threshold is asked, and listed only on the judge\'s contradiction', async () => {
    // "one side is a plan" puts this pair below the default listing threshold (0.6), above 0.2.
    const vegetarian = 'Joe is vegetarian'
    const steak = 'Joe is planning to order the steak'
    const says = (label: JudgeVerdict['label']): ConflictJudge & { asked: number; calls: number } =>
      counted({ id: `fixed/${label}`, judge: async (pairs) => pairs.map(() => ({ label, confidence: 0.9 })) })
    const band = async (judge: ConflictJudge | null, minCandidateConfidence?: number) => {
      const mem = await createMemory({ storage: memoryStorage(), ...(judge ? { conflictJudge: { judge, ...(minCandidateConfidence === undefined ? {} : { minCandidateConfidence }) } } : {}) })
      const refs = [await mem.facts.write(vegetarian), await mem.facts.write(steak)]
      // (A listing at a lower minConfidence puts what it lists to a judge too: only without one here.)
      const loose = judge ? [] : (await mem.facts.conflicts({ minConfidence: 0.2 })).filter((c) => c.kind === 'free-text')
      const listed = (await mem.facts.conflicts({ waitForJudge: true })).filter((c) => c.kind === 'free-text')
      await mem.close()
      return { refs, loose, listed }
    }
    // Without a judge the pair is a candidate (below the threshold) and is not listed.
    const plain = await band(null)
    expect(plain.loose).toHaveLength(1)
    expect(plain.loose[0]!.confidence).toBeLessThan(0.6)
    expect(plain.listed).toEqual([])
    // A judge at the default floor is never asked about it.
    const idle = says('contradiction')
    expect((await band(idle)).listed).toEqual([])
    expect(idle.asked).toBe(0)
    // Asked from 0.2: listed when the judge calls it a contradiction, not when it calls it neutral.
    const yes = says('contradiction')
    const judged = await band(yes, 0.2)
    expect(yes.asked).toBe(1)
    expect(judged.listed.map((c) => [...c.refs].sort())).toEqual([[...judged.refs].sort()])
    expect(judged.listed[0]!.judge).toMatchObject({ status: 'judged', label: 'contradiction' })
    const no = says('neutral')
    expect((await band(no, 0.2)).listed).toEqual([])
    expect(no.asked).toBe(1)
  })

  test('bad options are refused with INVALID_ARGUMENT', async () => {
    await expect(createMemory({ conflictJudge: { judge: { id: '', judge: async () => [] } } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    await expect(createMemory({ conflictJudge: { judge: nliConflictJudge(fakeModel(), { id: 'x' }), minCandidateConfidence: 0.1 } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    await expect(createMemory({ conflictJudge: { judge: nliConflictJudge(fakeModel(), { id: 'x' }), maxPairsPerWrite: -1 } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })
})

describe('conflict judge: working memory through createMemory', () => {
  test("the detector's flags go to the judge; what it clears leaves getConflicts and conflictsWith", async () => {
    const model = fakeModel()
    const mem = await createMemory({ storage: memoryStorage(), conflictJudge: { judge: nliConflictJudge(model, { id: 'fake/nli-v1' }) } })
    const wm = await mem.working.open('task-1')
    const obs = async (content: string, agent: string) => wm.addObservation({ content, sourceAgentId: agent, beliefType: 'FACT' })
    const p = await obs(projector, 'agent-a')
    const q = await obs(noProjector, 'agent-b')
    const s = await obs(standup, 'agent-a')
    await obs(standupLater, 'agent-b')
    expect((await wm.getConflicts()).map((c) => c.judge?.status)).toEqual(['pending', 'pending'])
    const judged = await wm.getConflicts({ waitForJudge: true })
    expect(judged).toHaveLength(1)
    expect([judged[0]!.a.id, judged[0]!.b.id]).toEqual([p.id, q.id])
    expect(judged[0]!.judge).toMatchObject({ status: 'judged', label: 'contradiction' })
    expect((await wm.get(s.id))!.conflictsWith).toEqual([])
    expect(model.pairs).toBe(4)
    await mem.close()
  })
})

describe('nliConflictJudge as a ConflictJudge', () => {
  test.each([['CONTRADICTION', 'ENTAILMENT', 'NEUTRAL'], ['contradiction', 'entailment', 'neutral']])('labels %s/%s/%s give NLI verdicts with a confidence', async (...labels) => {
    const judge = nliConflictJudge(fakeNliPipeline({ topic: 'projector', negation: 'no' }, labels), { id: 'fake' })
    const [contra, other] = await judge.judge([[projector, noProjector], [standup, standupLater]])
    expect(contra).toMatchObject({ label: 'contradiction', confidence: 0.94, conflict: true })
    expect(other).toMatchObject({ label: 'entailment', confidence: 0.97, conflict: false })
  })
})
