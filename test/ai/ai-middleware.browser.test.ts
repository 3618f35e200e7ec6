import { generateText, streamText, wrapLanguageModel } from 'ai'
import { expect, test } from 'vitest'
import { memoryMiddleware, type MemoryStep } from '../../src/ai/index.js'
import { createIdentity, openMemory } from '../../src/index.js'
import { memoryChatModel, systemText, userText } from '../helpers/ai-model.js'

// memweave/ai memoryMiddleware in Chromium through openMemory (issue 29): the middleware's recall
// and writes go to the worker; what one conversation remembered (streamed) is in IndexedDB and is
// recalled into the prompt of a later one, after the memory is closed and opened again.

const worker = new URL('../../worker/memory-worker.ts', import.meta.url)

const model = () =>
  memoryChatModel(
    (prompt) => (systemText(prompt).includes('The user is allergic to peanuts') ? 'No peanuts, then: try the lentil soup.' : 'Noted.'),
    (prompt) => (userText(prompt).includes('allergic to peanuts') && !userText(prompt).includes('M1:') ? { facts: [{ content: 'The user is allergic to peanuts', subject: 'user', predicate: 'allergy', object: 'peanuts' }] } : { facts: [] }),
  )

test('a streamed conversation is remembered through openMemory and recalled into a later generation after a reopen', async () => {
  const name = `ai-mw-${crypto.randomUUID()}`
  const identity = await createIdentity()
  const errors: MemoryStep[] = []
  const onError = (_: unknown, step: MemoryStep) => errors.push(step)

  const first = await openMemory({ name, identity, worker, persist: false })
  const told = streamText({ model: wrapLanguageModel({ model: model(), middleware: memoryMiddleware(first, { onError }) }), prompt: 'Please note: I am allergic to peanuts.' })
  expect(await told.text).toBe('Noted.')
  await told.consumeStream()
  await first.close()

  const again = await openMemory({ name, identity, worker, persist: false })
  const chat = model()
  const { text } = await generateText({ model: wrapLanguageModel({ model: chat, middleware: memoryMiddleware(again, { onError }) }), prompt: 'What should I order? I am allergic to peanuts, remember.' })
  expect(text).toBe('No peanuts, then: try the lentil soup.')
  expect(systemText(chat.chats[0]!)).toContain('- The user is allergic to peanuts')
  // Already remembered: not written a second time.
  expect((await again.facts.audit()).map((m) => m.content)).toEqual(['The user is allergic to peanuts'])
  expect(errors).toEqual([])
  await again.close()
})

test('a closed openMemory fails the memory steps, not the generation', async () => {
  const mem = await openMemory({ name: `ai-mw-${crypto.randomUUID()}`, identity: await createIdentity(), worker, persist: false })
  await mem.close()
  const errors: MemoryStep[] = []
  const { text } = await generateText({
    model: wrapLanguageModel({ model: model(), middleware: memoryMiddleware(mem, { onError: (err, step) => errors.push(step) }) }),
    prompt: 'I am allergic to peanuts.',
  })
  expect(text).toBe('Noted.')
  // (Which error: a closed openMemory's modules answer comlink's "Proxy has been released", not CLOSED; a client matter.)
  expect(errors).toEqual(['recall', 'remember'])
})
