import { generateText, streamText, wrapLanguageModel } from 'ai'
import { expect, test } from 'vitest'
import { memoryMiddleware, type MemoryStep } from '../../src/ai/index.js'
import { createIdentity, createMemory } from '../../src/index.js'
import { jsonModel, memoryChatModel, systemText, userText } from '../helpers/ai-model.js'

// memweave/ai memoryMiddleware (issue 29, item 2): recall before each generation into the prompt,
// remember after it (extraction as structured output, supersession, the conflict rules), with the AI
// SDK's own wrapLanguageModel, generateText, streamText and mock model.

const ROME = { subject: 'user', predicate: 'lives_in', object: 'Rome' }

/** A chat that answers from what it was told to remember, and an extraction that knows one move. */
const model = () =>
  memoryChatModel(
    (prompt) => (systemText(prompt).includes('The user lives in Rome') ? 'So you left Rome for Milan!' : 'Welcome to Milan!'),
    (prompt) => {
      const said = userText(prompt)
      if (!said.includes('moved to Milan')) return { facts: [] }
      const m = /(M\d+): The user lives in Rome/.exec(said)
      return { facts: [{ content: 'The user lives in Milan', subject: 'user', predicate: 'lives_in', object: 'Milan', replaces: m ? m[1] : null }] }
    },
  )

async function romeMemory() {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  const rome = await mem.facts.write('The user lives in Rome', { metadata: ROME })
  return { mem, rome }
}

const SAID = 'I do not live in Rome any more: I moved to Milan last week.'

test('generateText: the recalled memory is in the prompt as a system message, and the move supersedes it', async () => {
  const { mem, rome } = await romeMemory()
  const chat = model()
  const wrapped = wrapLanguageModel({ model: chat, middleware: memoryMiddleware(mem) })
  const { text } = await generateText({ model: wrapped, system: 'You are a concise assistant.', prompt: SAID })
  expect(text).toBe('So you left Rome for Milan!')
  // The caller's system message first, then the memories, then the conversation.
  const prompt = chat.chats[0]!
  expect(prompt.map((m) => m.role)).toEqual(['system', 'system', 'user'])
  expect(prompt[0]!.content).toBe('You are a concise assistant.')
  expect(prompt[1]!.content).toContain('- The user lives in Rome')
  expect(chat.extractions).toBe(1)
  const audit = await mem.facts.audit()
  const milan = audit.find((m) => m.content === 'The user lives in Milan')!
  expect(audit.find((m) => m.ref === rome)!.supersededBy).toBe(milan.ref)
  expect(milan.metadata).toMatchObject({ subject: 'user', predicate: 'lives_in', object: 'Milan' })
  expect((await mem.facts.retrieve('where does the user live')).map((m) => m.content)).toEqual(['The user lives in Milan'])
  expect(await mem.facts.conflicts()).toEqual([])
  await mem.close()
})

test('streamText: the text streams as the model sends it, and the stream ends once the move is remembered', async () => {
  const { mem, rome } = await romeMemory()
  const chat = model()
  const result = streamText({ model: wrapLanguageModel({ model: chat, middleware: memoryMiddleware(mem) }), prompt: SAID })
  let streamed = ''
  for await (const piece of result.textStream) streamed += piece
  expect(streamed).toBe('So you left Rome for Milan!')
  expect(systemText(chat.chats[0]!)).toContain('The user lives in Rome')
  expect((await mem.facts.get(rome))!.supersededBy).not.toBeNull()
  expect((await mem.facts.retrieve('where does the user live')).map((m) => m.content)).toEqual(['The user lives in Milan'])
  await mem.close()
})

test('remember.model: a given model extracts, the chat model is asked nothing more', async () => {
  const { mem } = await romeMemory()
  const chat = model()
  const extractor = jsonModel((prompt) => (userText(prompt).includes('M1: The user lives in Rome') ? { facts: [{ content: 'The user lives in Milan', replaces: 'M1' }] } : { facts: [] }))
  await generateText({ model: wrapLanguageModel({ model: chat, middleware: memoryMiddleware(mem, { remember: { model: extractor } }) }), prompt: SAID })
  expect([chat.extractions, extractor.answered]).toEqual([0, 1])
  expect((await mem.facts.retrieve('where does the user live')).map((m) => m.content)).toEqual(['The user lives in Milan'])
  await mem.close()
})

test('the conflict rules apply: a new value not marked as replacing the old one is flagged, and a fact already remembered is not written twice', async () => {
  const { mem } = await romeMemory()
  const chat = memoryChatModel(() => 'Noted.', () => ({
    facts: [
      { content: 'The user lives in Milan', subject: 'user', predicate: 'lives_in', object: 'Milan' },
      { content: 'The user lives in Rome' },
    ],
  }))
  await generateText({ model: wrapLanguageModel({ model: chat, middleware: memoryMiddleware(mem) }), prompt: 'Do you remember that I live in Rome? Also, Milan.' })
  expect((await mem.facts.audit()).map((m) => m.content)).toEqual(['The user lives in Rome', 'The user lives in Milan'])
  const conflicts = await mem.facts.conflicts()
  expect(conflicts.map((c) => [c.kind, c.subject, c.predicate])).toEqual([['single-valued-predicate', 'user', 'lives_in']])
  await mem.close()
})

test('each step is optional: recall false sends the prompt untouched; remember false asks no extraction and writes nothing', async () => {
  const { mem } = await romeMemory()
  const noRecall = model()
  await generateText({ model: wrapLanguageModel({ model: noRecall, middleware: memoryMiddleware(mem, { recall: false }) }), prompt: SAID })
  expect(noRecall.chats[0]!.map((m) => m.role)).toEqual(['user'])
  // Remembering still sees the facts it may replace (it recalls them for itself).
  expect((await mem.facts.retrieve('where does the user live')).map((m) => m.content)).toEqual(['The user lives in Milan'])

  const { mem: other } = await romeMemory()
  const noRemember = model()
  const { text } = await generateText({ model: wrapLanguageModel({ model: noRemember, middleware: memoryMiddleware(other, { remember: false }) }), prompt: SAID })
  expect(text).toBe('So you left Rome for Milan!')
  expect(noRemember.extractions).toBe(0)
  expect((await other.facts.audit()).map((m) => m.content)).toEqual(['The user lives in Rome'])
  await mem.close()
  await other.close()
})

test('a failing memory step never fails the generation: a closed memory, an extraction outside the schema, a throwing model, a throwing onError', async () => {
  const errors: Array<[MemoryStep, string]> = []
  const onError = (err: unknown, step: MemoryStep) => errors.push([step, (err as { code?: string }).code ?? (err as Error).name])

  const { mem: closed } = await romeMemory()
  await closed.close()
  const chat = model()
  const r1 = await generateText({ model: wrapLanguageModel({ model: chat, middleware: memoryMiddleware(closed, { onError }) }), prompt: SAID })
  expect(r1.text).toBe('Welcome to Milan!')
  expect(errors).toEqual([['recall', 'CLOSED'], ['remember', 'CLOSED']])

  errors.length = 0
  const { mem } = await romeMemory()
  const garbage = memoryChatModel(() => 'Noted.', () => ({ facts: 'The user lives in Milan' }))
  const r2 = await generateText({ model: wrapLanguageModel({ model: garbage, middleware: memoryMiddleware(mem, { onError }) }), prompt: SAID })
  expect(r2.text).toBe('Noted.')
  const failing = jsonModel(() => {
    throw new Error('provider down')
  })
  const r3 = streamText({ model: wrapLanguageModel({ model: model(), middleware: memoryMiddleware(mem, { onError, remember: { model: failing } }) }), prompt: SAID })
  expect(await r3.text).toBe('So you left Rome for Milan!')
  await r3.consumeStream()
  expect(errors.map(([step]) => step)).toEqual(['remember', 'remember'])
  expect(errors[0]![1]).toBe('INTERNAL')
  expect((await mem.facts.audit()).map((m) => m.content)).toEqual(['The user lives in Rome'])

  const thrower = () => {
    throw new Error('onError itself failed')
  }
  const r4 = await generateText({ model: wrapLanguageModel({ model: model(), middleware: memoryMiddleware(closed, { onError: thrower }) }), prompt: SAID })
  expect(r4.text).toBe('Welcome to Milan!')
  await mem.close()
})

test("tenant-aware: a tenant recalls and writes its own facts, never another tenant's", async () => {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  await mem.facts.write('The user lives in Rome', { tenantId: 'bob', metadata: ROME })
  const chat = model()
  await generateText({ model: wrapLanguageModel({ model: chat, middleware: memoryMiddleware(mem, { tenantId: 'aria' }) }), prompt: SAID })
  expect(systemText(chat.chats[0]!)).toBe('')
  const audit = await mem.facts.audit()
  expect(audit.map((m) => [m.tenantId, m.content, m.supersededBy])).toEqual([['bob', 'The user lives in Rome', null], ['aria', 'The user lives in Milan', null]])
  await mem.close()
})

test('pool-aware: pool memories are recalled and marked as shared, only from the pools listed, and are never superseded by an extraction', async () => {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  const pool = await mem.pools.create({ name: 'team' })
  await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'standup', predicate: 'starts_at', object: '9:30', context: 'The standup starts at 9:30' } })
  const said = 'When does the standup start? It moved to 10:00, I think.'
  const extractor = jsonModel((prompt) => ({ facts: [{ content: 'The standup starts at 10:00', replaces: /M1:/.test(userText(prompt)) ? 'M1' : null }] }))
  const chat = model()
  await generateText({ model: wrapLanguageModel({ model: chat, middleware: memoryMiddleware(mem, { pools: [pool.id], remember: { model: extractor } }) }), prompt: said })
  expect(systemText(chat.chats[0]!)).toMatch(/standup.*9:30.*\(shared in a pool\)/)
  // The extraction was shown no pool memory to replace: the pool's record stays its truth.
  expect(userText(extractor.doGenerateCalls[0]!.prompt)).toContain('Remembered facts:\n(none)')
  expect((await mem.pools.query(pool.id)).map((m) => m.content.object)).toEqual(['9:30'])

  const none = model()
  await generateText({ model: wrapLanguageModel({ model: none, middleware: memoryMiddleware(mem, { pools: [], remember: false }) }), prompt: said })
  expect(systemText(none.chats[0]!)).not.toContain('9:30')
  expect(systemText(none.chats[0]!)).toContain('The standup starts at 10:00')
  await mem.close()
})

test('bad options are refused with INVALID_ARGUMENT', async () => {
  const mem = await createMemory({ storage: 'memory' })
  const bad = (o: unknown) => () => memoryMiddleware(mem, o as never)
  for (const o of [{ recall: { budgetTokens: 0 } }, { recall: true }, { remember: { maxFacts: 0 } }, { pools: 'team' }, { tenantId: '' }, { onError: 'log' }, { remember: { instructions: ' ' } }]) {
    expect(bad(o)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  }
  expect(() => memoryMiddleware(null as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
  await mem.close()
})
