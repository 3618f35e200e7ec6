import { describe, expect, test } from 'vitest'
import { llmConflictJudge, memoryTools } from '../../src/ai/index.js'
import { createMemory } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { jsonModel, projectorJudgeModel, userText } from '../helpers/ai-model.js'

/** Issue 27: the agent's own model as the second-stage conflict judge (memweave/ai), with the AI SDK's mock model. */
describe('llmConflictJudge', () => {
  test('asks the model for a structured verdict per pair, with both texts in the prompt', async () => {
    const prompts: string[] = []
    const model = jsonModel((prompt) => {
      prompts.push(userText(prompt))
      return { label: 'contradiction', confidence: 0.7 }
    })
    const judge = llmConflictJudge({ model })
    expect(judge.id).toBe('llm:mock-provider/mock-model-id/p1')
    expect(await judge.judge([['a', 'b'], ['c', 'd']])).toEqual([{ label: 'contradiction', confidence: 0.7 }, { label: 'contradiction', confidence: 0.7 }])
    expect(prompts).toEqual(['Statement A: a\nStatement B: b', 'Statement A: c\nStatement B: d'])
  })

  test('an answer outside the schema fails the call (the stage then keeps the model-free verdict)', async () => {
    const judge = llmConflictJudge({ model: jsonModel(() => ({ label: 'maybe', confidence: 2 })), maxRetries: 0 })
    await expect(judge.judge([['a', 'b']])).rejects.toThrow()
  })

  test('no model, an empty id: INVALID_ARGUMENT', () => {
    expect(() => llmConflictJudge({} as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    expect(() => llmConflictJudge({ model: projectorJudgeModel(), id: '' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  })

  test('through createMemory: facts list what the model calls a contradiction; a reload asks the model nothing', async () => {
    const storage = memoryStorage()
    const model = projectorJudgeModel()
    const mem = await createMemory({ storage, conflictJudge: { judge: llmConflictJudge({ model }) } })
    await mem.facts.write('Room 4B has a projector')
    await mem.facts.write('4B has no projector, just a wall TV')
    await mem.facts.write('Daily standup starts at 9:30')
    await mem.facts.write('standup is at 10 every morning')
    expect((await mem.facts.conflicts()).map((c) => c.judge?.status)).toEqual(['pending', 'pending'])
    const judged = await mem.facts.conflicts({ waitForJudge: true })
    expect(judged.map((c) => c.judge)).toEqual([{ id: 'llm:mock-provider/mock-model-id/p1', status: 'judged', label: 'contradiction', confidence: 0.91 }])
    expect(model.answered).toBe(2)
    // The listConflicts tool tells the model the judge's mark too.
    const listed = (await memoryTools(mem).listConflicts!.execute!({}, { toolCallId: 'call-1', messages: [], context: {} } as never)) as { conflicts: Array<{ judge?: unknown }> }
    expect(listed.conflicts.map((c) => c.judge)).toEqual(judged.map((c) => c.judge))
    await mem.close()

    const again = projectorJudgeModel()
    const reopened = await createMemory({ storage, conflictJudge: { judge: llmConflictJudge({ model: again }) } })
    // (The model-free part of a reason may name the two texts in the other order after a reload.)
    const seen = (list: typeof judged) => list.map((c) => [c.refs, c.judge])
    expect(seen(await reopened.facts.conflicts())).toEqual(seen(judged))
    expect(again.answered).toBe(0)
    await reopened.close()
  })
})
