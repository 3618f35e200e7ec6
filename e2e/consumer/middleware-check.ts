// The consumer test's memoryMiddleware page (issue 29), from the packed package: a model wrapped with
// memory (openMemory, the worker and IndexedDB), the AI SDK's own mock standing in for a real model.
// Type-checked too (tsconfig.ai.json). One streamed turn tells it a move; a generated turn after
// a reopen must see the new fact in its prompt, the old one superseded.
import { generateText, streamText, wrapLanguageModel } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { createIdentity, openMemory, type RemoteMemory } from 'memweave'
import { memoryMiddleware, type MemoryMiddlewareOptions, type MemoryStep } from 'memweave/ai'

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt']
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } }
const stop = { unified: 'stop' as const, raw: undefined }
const systemText = (prompt: Prompt): string => prompt.filter((m) => m.role === 'system').map((m) => m.content).join('\n')
const reply = (prompt: Prompt): string => (systemText(prompt).includes('The user lives in Milan') ? 'You live in Milan.' : 'Noted.')

// Chats answer in text; the middleware's extraction (a JSON call) names the move, replacing M1 when it was recalled.
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt, responseFormat }) => {
    if (responseFormat?.type !== 'json') return { content: [{ type: 'text', text: reply(prompt) }], finishReason: stop, usage, warnings: [] }
    const asked = JSON.stringify(prompt)
    const facts = asked.includes('moved to Milan') ? [{ content: 'The user lives in Milan', replaces: asked.includes('M1: The user lives in Rome') ? 'M1' : null }] : []
    return { content: [{ type: 'text', text: JSON.stringify({ facts }) }], finishReason: stop, usage, warnings: [] }
  },
  doStream: async ({ prompt }) => ({
    stream: new ReadableStream({
      start(c) {
        for (const part of [
          { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: reply(prompt) }, { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: stop, usage },
        ] as const) c.enqueue(part)
        c.close()
      },
    }),
  }),
})

const errors: MemoryStep[] = []
const options: MemoryMiddlewareOptions = { recall: { budgetTokens: 500 }, onError: (_err, step) => errors.push(step) }
const name = `consumer-mw-${crypto.randomUUID()}`
const identity = await createIdentity()

const first: RemoteMemory = await openMemory({ name, identity })
const rome = await first.facts.write('The user lives in Rome')
const streamed = streamText({ model: wrapLanguageModel({ model, middleware: memoryMiddleware(first, options) }), prompt: 'I left Rome: the user lives in Milan now, I moved to Milan.' })
const told = await streamed.text
await streamed.consumeStream()
await first.close()

const again = await openMemory({ name, identity })
const { text } = await generateText({ model: wrapLanguageModel({ model, middleware: memoryMiddleware(again, options) }), prompt: 'Where does the user live?' })
const romeNow = await again.facts.get(rome)
const current = (await again.facts.retrieve('where does the user live', { matchesOnly: true })).map((m) => m.content)
await again.close()

document.querySelector('#result')!.textContent = JSON.stringify({ told, text, romeSuperseded: romeNow?.supersededBy != null, current, errors })
