import { generateText, stepCountIs } from 'ai'
import { expect, test } from 'vitest'
import { memoryTools } from '../../src/ai/index.js'
import { createIdentity, createMemory } from '../../src/index.js'
import { lastToolResult, scriptedModel, userText } from '../helpers/ai-model.js'

// memweave/ai (issue 17): the memory tools driven by the AI SDK's own generateText and mock model.

/** What the SDK hands execute() besides the input; the tools use none of it. */
const EXEC = { toolCallId: 't', messages: [] } as unknown as Parameters<NonNullable<ReturnType<typeof memoryTools>['recall']['execute']>>[1]

const SYSTEM = 'Use your memory tools: remember what the user tells you, recall before answering.'

/** A model that remembers what it is told and recalls when asked, answering from the tool result. */
const rememberingModel = () =>
  scriptedModel((prompt) => {
    const said = userText(prompt)
    const result = lastToolResult(prompt)
    if (result?.toolName === 'remember') return { text: 'Noted.' }
    if (result?.toolName === 'recall') {
      const memories = (result.output as { memories: Array<{ content: string }> }).memories
      return { text: memories.length > 0 ? `You told me: ${memories[0]!.content}` : 'I do not know.' }
    }
    if (said.startsWith('Remember:')) return { call: 'remember', input: { content: said.slice('Remember:'.length).trim() } }
    return { call: 'recall', input: { query: said } }
  })

test('a model remembers through the tools and recalls in a later conversation', async () => {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  const tools = memoryTools(mem)
  const first = await generateText({ model: rememberingModel(), tools, system: SYSTEM, prompt: 'Remember: The user prefers dark mode', stopWhen: stepCountIs(3) })
  expect(first.text).toBe('Noted.')
  expect((await mem.facts.audit()).map((m) => m.content)).toEqual(['The user prefers dark mode'])
  const second = await generateText({ model: rememberingModel(), tools, system: SYSTEM, prompt: 'Which theme does the user prefer?', stopWhen: stepCountIs(3) })
  expect(second.text).toBe('You told me: The user prefers dark mode')
  await mem.close()
})

test('a tool input with an unknown or misplaced field is refused before anything is written; the model sees why', async () => {
  const mem = await createMemory({ storage: 'memory' })
  let seen: unknown = null
  const model = scriptedModel((prompt) => {
    const last = prompt.at(-1)
    if (last?.role === 'tool') {
      seen = last.content[0]
      return { text: 'sorry' }
    }
    return { call: 'remember', input: { text: 'misnamed field', content: 'The sky is green' } }
  })
  const result = await generateText({ model, tools: memoryTools(mem), prompt: 'go', stopWhen: stepCountIs(3) })
  expect(result.steps[0]!.content.some((p) => p.type === 'tool-error')).toBe(true)
  expect(JSON.stringify(seen)).toMatch(/unknown field \\"text\\"/)
  expect(await mem.facts.audit()).toEqual([])
  await mem.close()
})

test('supersede, forget and listConflicts act on the memory; a refusal comes back as the library error code', async () => {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  const tools = memoryTools(mem, { budgetTokens: 500 })
  const call = async (name: keyof typeof tools, input: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const execute = tools[name].execute!
    return (await execute(input, EXEC)) as Record<string, unknown>
  }
  const rome = (await call('remember', { content: 'Aria lives in Rome', subject: 'Aria', predicate: 'lives_in', object: 'Rome' }))['ref'] as string
  await call('remember', { content: 'Aria lives in Paris', subject: 'Aria', predicate: 'lives_in', object: 'Paris' })
  const conflicts = (await call('listConflicts', {}))['conflicts'] as Array<{ reason: string }>
  expect(conflicts).toHaveLength(1)
  const milan = (await call('supersede', { ref: rome, content: 'Aria lives in Milan', subject: 'Aria', predicate: 'lives_in', object: 'Milan' }))['ref'] as string
  const recalled = (await call('recall', { query: 'where does Aria live' }))['memories'] as Array<{ content: string }>
  expect(recalled.map((m) => m.content)).toContain('Aria lives in Milan')
  expect(recalled.map((m) => m.content)).not.toContain('Aria lives in Rome')
  expect(await call('forget', { ref: milan })).toEqual({ ok: true, deleted: true })
  expect((await mem.facts.audit()).map((m) => m.content)).not.toContain('Aria lives in Milan')
  expect(await call('shareToPool', { pool: 'no-such-pool', subject: 'a', predicate: 'b', object: 'c' })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
  await mem.close()
})

test('options: a subset of tools, a shared-pool allow list, and bad options refused with a code', async () => {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  expect(Object.keys(memoryTools(mem, { tools: ['recall'] }))).toEqual(['recall'])
  const pool = await mem.pools.create({ name: 'team' })
  const limited = memoryTools(mem, { pools: [] })
  const refused = await limited.shareToPool.execute!({ pool: pool.id, subject: 'a', predicate: 'b', object: 'c' }, EXEC)
  expect(refused).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENT' } })
  const allowed = memoryTools(mem, { pools: [pool.id] })
  expect(await allowed.shareToPool.execute!({ pool: pool.id, subject: 'standup', predicate: 'starts_at', object: '9:30' }, EXEC)).toMatchObject({ ok: true })
  expect(() => memoryTools(mem, { tools: ['teleport' as 'recall'] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  expect(() => memoryTools(mem, { budgetTokens: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  await mem.close()
})
