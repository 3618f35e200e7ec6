import { MockLanguageModelV3 } from 'ai/test'

/** One turn of a scripted model: a tool call, or a final text. */
export type Turn = { readonly text: string } | { readonly call: string; readonly input: Record<string, unknown> }

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt']

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
}

/** The text of the first user message of a prompt. */
export function userText(prompt: Prompt): string {
  for (const m of prompt) if (m.role === 'user') return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('')
  return ''
}

/** The output of the last tool result in a prompt (what the tools returned to the model), or null before any. */
export function lastToolResult(prompt: Prompt): { toolName: string; output: unknown } | null {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!
    if (m.role !== 'tool') continue
    for (const part of m.content) if (part.type === 'tool-result') return { toolName: part.toolName, output: (part.output as { value?: unknown }).value ?? part.output }
  }
  return null
}

/**
 * A language model that follows a script (the AI SDK's own MockLanguageModelV3): each call sees
 * the prompt so far, tool results included, and answers with a tool call or a text.
 */
export function scriptedModel(decide: (prompt: Prompt) => Turn): MockLanguageModelV3 {
  let calls = 0
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const turn = decide(prompt)
      const content = 'text' in turn
        ? [{ type: 'text' as const, text: turn.text }]
        : [{ type: 'tool-call' as const, toolCallId: `call-${++calls}`, toolName: turn.call, input: JSON.stringify(turn.input) }]
      return { content, finishReason: { unified: 'text' in turn ? 'stop' : 'tool-calls', raw: undefined }, usage, warnings: [] }
    },
  })
}

/**
 * A language model that answers every call with the JSON text `answer(prompt)` returns (what a
 * provider sends for a structured-output call), counting its calls.
 */
export function jsonModel(answer: (prompt: Prompt) => unknown): MockLanguageModelV3 & { answered: number } {
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      model.answered++
      return { content: [{ type: 'text' as const, text: JSON.stringify(answer(prompt)) }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }
    },
  }) as MockLanguageModelV3 & { answered: number }
  model.answered = 0
  return model
}

/** A model judging contradictions as the conflict-judge tests expect: a projector with and without, nothing else. */
export function projectorJudgeModel(): MockLanguageModelV3 & { answered: number } {
  return jsonModel((prompt) => {
    const said = userText(prompt)
    const both = (said.match(/projector/gi) ?? []).length >= 2
    return both && /\bno projector\b/i.test(said) ? { label: 'contradiction', confidence: 0.91 } : { label: 'neutral', confidence: 0.8 }
  })
}

/** The text of every system message of a prompt, joined (what a memory middleware put there shows up here). */
export function systemText(prompt: Prompt): string {
  return prompt.filter((m) => m.role === 'system').map((m) => m.content as string).join('\n')
}

/**
 * One model for both a chat and the memory middleware's extraction (the AI SDK's MockLanguageModelV3):
 * a structured-output call (responseFormat json) gets `extract(prompt)` as its JSON answer, any other
 * call `reply(prompt)` as text, by doGenerate or, streamed in three pieces, by doStream. `chats`
 * keeps the prompts of the chat calls, `extractions` counts the extraction calls.
 */
export function memoryChatModel(reply: (prompt: Prompt) => string, extract: (prompt: Prompt) => unknown): MockLanguageModelV3 & { chats: Prompt[]; extractions: number } {
  const model = new MockLanguageModelV3({
    doGenerate: async ({ prompt, responseFormat }) => {
      if (responseFormat?.type === 'json') {
        model.extractions++
        return { content: [{ type: 'text' as const, text: JSON.stringify(extract(prompt)) }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }
      }
      model.chats.push(prompt)
      return { content: [{ type: 'text' as const, text: reply(prompt) }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }
    },
    doStream: async ({ prompt }) => {
      model.chats.push(prompt)
      const text = reply(prompt)
      const third = Math.ceil(text.length / 3)
      const pieces = [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)]
      const parts = [
        { type: 'stream-start' as const, warnings: [] },
        { type: 'text-start' as const, id: 't' },
        ...pieces.map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
        { type: 'text-end' as const, id: 't' },
        { type: 'finish' as const, finishReason: { unified: 'stop' as const, raw: undefined }, usage },
      ]
      return { stream: new ReadableStream({ start(c) { for (const p of parts) c.enqueue(p); c.close() } }) }
    },
  }) as MockLanguageModelV3 & { chats: Prompt[]; extractions: number }
  model.chats = []
  model.extractions = 0
  return model
}
