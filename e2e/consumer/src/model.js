// The consumer test's stand-in for a real model (the README's agent imports `model` from here): the
// AI SDK's own mock, scripted to remember what it is told ("Remember: ...") and otherwise recall,
// answering from what the memory tools returned.
import { MockLanguageModelV3 } from 'ai/test'

const usage = { inputTokens: { total: 1, noCache: 1 }, outputTokens: { total: 1, text: 1 } }
const said = (prompt) => prompt.find((m) => m.role === 'user').content.map((p) => p.text ?? '').join('')
const lastResult = (prompt) => prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content).at(-1)

let calls = 0
const reply = (turn) => ({
  content: turn.text !== undefined
    ? [{ type: 'text', text: turn.text }]
    : [{ type: 'tool-call', toolCallId: `call-${++calls}`, toolName: turn.call, input: JSON.stringify(turn.input) }],
  finishReason: { unified: turn.text !== undefined ? 'stop' : 'tool-calls', raw: undefined },
  usage,
  warnings: [],
})

export const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    const result = lastResult(prompt)
    if (result?.toolName === 'remember') return reply({ text: 'Noted.' })
    if (result?.toolName === 'recall') return reply({ text: result.output.value.memories.map((m) => m.content).join(' | ') || 'I do not know.' })
    const text = said(prompt)
    if (text.startsWith('Remember:')) return reply({ call: 'remember', input: { content: text.slice('Remember:'.length).trim() } })
    return reply({ call: 'recall', input: { query: text } })
  },
})
