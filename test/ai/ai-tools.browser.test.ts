import { generateText, stepCountIs } from 'ai'
import { expect, test } from 'vitest'
import { memoryTools } from '../../src/ai/index.js'
import { createIdentity, openMemory } from '../../src/index.js'
import { lastToolResult, scriptedModel, userText } from '../helpers/ai-model.js'

// memweave/ai in Chromium through openMemory: the tools call the worker; what the model
// remembered is in IndexedDB and recalled after the memory is closed and opened again.

const worker = new URL('../../worker/memory-worker.ts', import.meta.url)

const model = () =>
  scriptedModel((prompt) => {
    const result = lastToolResult(prompt)
    if (result?.toolName === 'remember') return { text: 'Noted.' }
    if (result?.toolName === 'recall') return { text: (result.output as { memories: Array<{ content: string }> }).memories.map((m) => m.content).join(' | ') }
    const said = userText(prompt)
    return said.startsWith('Remember:') ? { call: 'remember', input: { content: said.slice(9).trim() } } : { call: 'recall', input: { query: said } }
  })

test('a model remembers through openMemory and recalls after the memory is reopened', async () => {
  const name = `ai-${crypto.randomUUID()}`
  const identity = await createIdentity()
  const first = await openMemory({ name, identity, worker, persist: false })
  const noted = await generateText({ model: model(), tools: memoryTools(first), prompt: 'Remember: My name is Ada', stopWhen: stepCountIs(3) })
  expect(noted.text).toBe('Noted.')
  await first.close()

  const again = await openMemory({ name, identity, worker, persist: false })
  const answer = await generateText({ model: model(), tools: memoryTools(again), prompt: 'What is my name?', stopWhen: stepCountIs(3) })
  expect(answer.text).toBe('My name is Ada')
  await again.close()
})
