import fc from 'fast-check'
import { expect, test } from 'vitest'
import { MessageWatch, type LineMessage } from '../../src/mcp/message-watch.js'
import { encodeAttachMessage, parseAttachMessage } from '../../src/mcp/attach-protocol.js'

// The relay of an attached `memweave mcp` (src/mcp/shared-dir.ts) knows which requests are
// unanswered from MessageWatch: every line's id and method, however the stream is cut into chunks.

const request = (id: number | string, method: string, params: unknown = {}) => `${JSON.stringify({ method, params, jsonrpc: '2.0', id })}\n`
const response = (id: number | string, result: unknown) => `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`

function watch(chunks: readonly Buffer[]): { seen: LineMessage[]; midLine: boolean } {
  const seen: LineMessage[] = []
  const w = new MessageWatch((m) => seen.push(m))
  for (const c of chunks) w.push(c)
  return { seen, midLine: w.midLine }
}

/** `text` cut at the given offsets. */
function cut(text: string, at: readonly number[]): Buffer[] {
  const bytes = Buffer.from(text)
  const points = [...new Set(at.map((a) => a % (bytes.length + 1)))].sort((a, b) => a - b)
  const parts: Buffer[] = []
  let from = 0
  for (const p of points) {
    parts.push(bytes.subarray(from, p))
    from = p
  }
  parts.push(bytes.subarray(from))
  return parts
}

test('requests, responses and notifications, small and 1 MiB, in any chunking: id and method of each line', () => {
  const big = 'x'.repeat(1024 * 1024)
  const stream =
    request(1, 'initialize') +
    `${JSON.stringify({ method: 'notifications/initialized', jsonrpc: '2.0' })}\n` +
    request('a"b', 'tools/call', { name: 'gmp_write', arguments: { content: big } }) +
    response(1, { ok: true }) +
    `${JSON.stringify({ jsonrpc: '2.0', id: 7, error: { code: -32000, message: big } })}\n` +
    response(9, { content: [{ type: 'text', text: big }] })
  const expected = [
    { id: 1, method: 'initialize' },
    { id: null, method: 'notifications/initialized' },
    { id: 'a"b', method: 'tools/call' },
    { id: 1, method: null },
    { id: 7, method: null },
    { id: 9, method: null },
  ]
  fc.assert(
    fc.property(fc.array(fc.nat(), { maxLength: 12 }), (at) => {
      const { seen, midLine } = watch(cut(stream, at))
      expect(seen).toEqual(expected)
      expect(midLine).toBe(false)
    }),
    { numRuns: 40 },
  )
})

test('a stream cut part way through a line is mid-line, and finishLine gives back what follows that line', () => {
  const seen: LineMessage[] = []
  const w = new MessageWatch((m) => seen.push(m))
  const line = request(5, 'tools/call')
  w.push(Buffer.from(line.slice(0, 10)))
  expect([w.midLine, seen]).toEqual([true, []])
  expect(w.finishLine(Buffer.from(line.slice(10, 20)))).toEqual({ rest: null })
  const { rest } = w.finishLine(Buffer.from(`${line.slice(20)}{"next":1}`))
  expect([seen, rest?.toString(), w.midLine]).toEqual([[{ id: 5, method: 'tools/call' }], '{"next":1}', false])
})

test('attach protocol: messages round-trip; other versions, types and unknown codes are not messages', () => {
  for (const m of [
    { type: 'attach', v: 1, agent: 'alice' },
    { type: 'attach', v: 1, agent: null },
    { type: 'attached', v: 1, did: 'did:key:z6Mk' },
    { type: 'refused', v: 1, code: 'INVALID_ARGUMENT', message: 'no' },
  ] as const) {
    expect(parseAttachMessage(encodeAttachMessage(m).trim())).toEqual(m)
  }
  expect(parseAttachMessage('{"type":"attach","v":2,"agent":null}')).toBeNull()
  expect(parseAttachMessage('{"type":"refused","v":1,"code":"NOPE","message":"x"}')).toBeNull()
  expect(parseAttachMessage('{"jsonrpc":"2.0","id":1,"method":"initialize"}')).toBeNull()
  expect(parseAttachMessage('not json')).toBeNull()
})
