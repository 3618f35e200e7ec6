import { describe, expect, test } from 'vitest'
import { llmConflictJudge } from '../../src/ai/index.js'
import { nliConflictJudge, openMemory, type ConflictJudge, type RemoteMemory } from '../../src/index.js'
import { projectorJudgeModel } from '../helpers/ai-model.js'
import { fakeNliPipeline } from './fake-nli.js'

/**
 * Issue 27, the model path through openMemory in Chromium: the judge lives in the page, the worker
 * asks it through a comlink proxy and keeps its verdicts in IndexedDB, so a memory opened again
 * (a new worker in dedicated mode) asks nothing.
 */
const worker = new URL('../../worker/memory-worker.ts', import.meta.url)
const texts = ['Room 4B has a projector', '4B has no projector, just a wall TV', 'Daily standup starts at 9:30', 'standup is at 10 every morning']

async function writeAll(mem: RemoteMemory): Promise<string[]> {
  const refs: string[] = []
  for (const t of texts) refs.push(await mem.facts.write(t))
  return refs
}

describe.each(['shared', 'dedicated'] as const)('conflict judge through openMemory (%s)', (mode) => {
  test('an NLI pipeline in the page judges the worker\'s candidates; a reopened memory asks it nothing', async () => {
    const name = `judge-${mode}-${crypto.randomUUID()}`
    const model = fakeNliPipeline({ topic: 'projector', negation: 'no' })
    const judge = nliConflictJudge(model, { id: 'fake/nli-v1' })
    const mem = await openMemory({ name, mode, worker, persist: false, conflictJudge: { judge } })
    const [a, b, c] = await writeAll(mem)
    expect((await mem.facts.conflicts()).map((x) => x.judge?.status)).toEqual(['pending', 'pending'])
    const judged = await mem.facts.conflicts({ waitForJudge: true })
    expect(judged.map((x) => [[...x.refs].sort(), x.judge?.status, x.judge && 'label' in x.judge ? x.judge.label : null])).toEqual([[[a, b].sort(), 'judged', 'contradiction']])
    expect((await mem.facts.get(c!))!.conflictsWith).toEqual([])
    expect(model.pairs).toBe(4)
    await mem.close()

    const again = fakeNliPipeline({ topic: 'projector', negation: 'no' })
    const reopened = await openMemory({ name, mode, worker, persist: false, conflictJudge: { judge: nliConflictJudge(again, { id: 'fake/nli-v1' }) } })
    expect((await reopened.facts.conflicts()).map((x) => x.judge)).toEqual(judged.map((x) => x.judge))
    expect(again.pairs).toBe(0)
    await reopened.close()
  })

  test('the AI SDK mock model as judge, in the page; working memory too', async () => {
    const name = `judge-ai-${mode}-${crypto.randomUUID()}`
    const model = projectorJudgeModel()
    const mem = await openMemory({ name, mode, worker, persist: false, conflictJudge: { judge: llmConflictJudge({ model }) } })
    await writeAll(mem)
    const judged = await mem.facts.conflicts({ waitForJudge: true })
    expect(judged.map((x) => x.judge)).toEqual([{ id: 'llm:mock-provider/mock-model-id/p1', status: 'judged', label: 'contradiction', confidence: 0.91 }])
    expect(model.answered).toBe(2)

    const wm = await mem.working.open('task-1')
    for (const [i, t] of texts.entries()) await wm.addObservation({ content: t, sourceAgentId: i % 2 ? 'agent-b' : 'agent-a', beliefType: 'FACT' })
    const flags = await wm.getConflicts({ waitForJudge: true })
    expect(flags.map((f) => [f.a.content, f.b.content, f.judge?.status])).toEqual([[texts[0], texts[1], 'judged']])
    // Same texts as the facts: the verdicts are shared, the model is not asked again.
    expect(model.answered).toBe(2)
    await mem.close()
  })

  test('a judge that throws in the page leaves the model-free verdict and never fails a write', async () => {
    const name = `judge-broken-${mode}-${crypto.randomUUID()}`
    let calls = 0
    const broken: ConflictJudge = { id: 'broken', judge: async () => { calls++; throw new Error('model offline') } }
    const mem = await openMemory({ name, mode, worker, persist: false, conflictJudge: { judge: broken, retries: 0 } })
    await writeAll(mem)
    const list = await mem.facts.conflicts({ waitForJudge: true })
    expect(list.map((x) => x.judge)).toEqual([{ id: 'broken', status: 'unjudged', why: 'failed' }, { id: 'broken', status: 'unjudged', why: 'failed' }])
    expect(calls).toBe(1)
    await mem.facts.write('the office is closed on Friday')
    await mem.close()
  })
})
