import process from 'node:process'
import type { Readable, Writable } from 'node:stream'
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js'
import { ErrorCode } from '../core/errors.js'
import { EDGE_BYTES, requestIdOf } from './message-watch.js'

/** The SDK's own stdio limit; a message above it is refused, not buffered. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024

/** JSON-RPC 2.0 §5.1 error codes. */
const PARSE_ERROR = -32700
const INVALID_REQUEST = -32600

export interface StdioTransportOptions {
  readonly maxMessageBytes?: number
}

/**
 * A newline-delimited JSON-RPC transport on stdin/stdout, like the SDK's `StdioServerTransport`
 * but answering bad input instead of dying on it. The SDK's transport closes itself when one line
 * passes its 10 MiB buffer (issue 13: an 11 MiB artifact made `memweave mcp` exit 0 silently, or
 * stop answering with stdin still open), and drops unparsable lines without a word. Here a line
 * above `maxMessageBytes` is skipped as it streams (only its first and last 4 KiB are kept, to
 * find the request id) and answered with a JSON-RPC "invalid request" error whose `data.code` is
 * memweave's INVALID_ARGUMENT; an unparsable line is answered with a parse error; both with the
 * request's id when it can be found (else null, JSON-RPC 2.0 §5), and the next line is served.
 */
export class StdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void

  readonly #stdin: Readable
  readonly #stdout: Writable
  readonly #max: number
  /** The current line so far, as chunks (never concatenated until the line is complete). */
  #chunks: Buffer[] = []
  #length = 0
  /** Set while skipping a line that passed the limit: its first bytes and a rolling tail. */
  #overflow: { head: Buffer; tail: Buffer } | null = null
  #started = false

  constructor(stdin: Readable = process.stdin, stdout: Writable = process.stdout, options: StdioTransportOptions = {}) {
    this.#stdin = stdin
    this.#stdout = stdout
    this.#max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioTransport already started')
    this.#started = true
    this.#stdin.on('data', this.#onData)
    this.#stdin.on('error', this.#onError)
  }

  async close(): Promise<void> {
    this.#stdin.off('data', this.#onData)
    this.#stdin.off('error', this.#onError)
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause()
    this.#chunks = []
    this.#overflow = null
    this.onclose?.()
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((ok) => {
      if (this.#stdout.write(serializeMessage(message))) ok()
      else this.#stdout.once('drain', ok)
    })
  }

  readonly #onError = (error: Error): void => {
    this.onerror?.(error)
  }

  readonly #onData = (chunk: Buffer): void => {
    let at = 0
    while (at < chunk.length) {
      const nl = chunk.indexOf(0x0a, at)
      const end = nl === -1 ? chunk.length : nl
      this.#take(chunk.subarray(at, end))
      if (nl === -1) return
      this.#endLine()
      at = nl + 1
    }
  }

  #take(part: Buffer): void {
    if (part.length === 0) return
    if (this.#overflow) {
      this.#overflow.tail = Buffer.concat([this.#overflow.tail, part]).subarray(-EDGE_BYTES)
      this.#length += part.length
      return
    }
    this.#chunks.push(part)
    this.#length += part.length
    if (this.#length > this.#max) {
      const line = Buffer.concat(this.#chunks)
      this.#overflow = { head: line.subarray(0, EDGE_BYTES), tail: line.subarray(-EDGE_BYTES) }
      this.#chunks = []
    }
  }

  #endLine(): void {
    const overflow = this.#overflow
    const length = this.#length
    const chunks = this.#chunks
    this.#chunks = []
    this.#length = 0
    this.#overflow = null
    if (overflow) {
      const id = requestIdOf(overflow.head, overflow.tail)
      this.#refuse(id, INVALID_REQUEST, `memweave mcp: a message of ${length} bytes is over the limit of ${this.#max} bytes; it was not read`, {
        code: ErrorCode.INVALID_ARGUMENT, field: 'message', bytes: length, limit: this.#max,
      })
      return
    }
    const line = Buffer.concat(chunks).toString('utf8').replace(/\r$/, '')
    if (line.trim() === '') return
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(line)
    } catch (err) {
      const bytes = Buffer.from(line)
      this.#refuse(requestIdOf(bytes.subarray(0, EDGE_BYTES), bytes.subarray(-EDGE_BYTES)), PARSE_ERROR, 'memweave mcp: a line that is not a JSON-RPC message', {
        code: ErrorCode.INVALID_ARGUMENT, field: 'message',
      })
      this.onerror?.(err as Error)
      return
    }
    this.onmessage?.(message)
  }

  #refuse(id: RequestId | null, code: number, message: string, data: Record<string, unknown>): void {
    // JSON-RPC 2.0 §5: the id is null when it cannot be read; the SDK's types do not admit that.
    const response = { jsonrpc: '2.0', id, error: { code, message, data } } as unknown as JSONRPCMessage
    this.send(response).catch((err: unknown) => this.onerror?.(err as Error))
  }
}
