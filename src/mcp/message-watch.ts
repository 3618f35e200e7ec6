/**
 * Reading a newline-delimited JSON-RPC stream as it passes, without holding its lines: what the
 * relay of an attached `memweave mcp` needs to know which requests are still unanswered
 * (src/mcp/shared-dir.ts), and what the stdio transport needs to answer a line it will not read
 * (src/mcp/stdio-transport.ts). A line is known by its first and last 4 KiB, so a 10 MiB message
 * costs no copy. No SDK import here: `memweave mcp` loads the SDK (an optional peer) lazily.
 */

/** JSON-RPC 2.0 request ids. */
export type JsonRpcId = string | number

/** How much of the start and the end of a line is kept to find its id and method. */
export const EDGE_BYTES = 4096

const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,256}")/
/** The SDK client writes `{...request, jsonrpc, id}`: the id is the last top-level key, one `}` from the end. */
const ID_LAST = /"id"\s*:\s*(-?\d{1,16}|"(?:[^"\\]|\\.){0,256}")\s*\}\s*$/
/** The SDK writes a request's method first (`{method, params, jsonrpc, id}`). */
const METHOD_FIRST = /^\s*\{\s*"method"\s*:\s*"((?:[^"\\]|\\.){1,256})"/

/** The request id of a line known only by its edges, or null when neither edge shows it. */
export function requestIdOf(head: Buffer, tail: Buffer): JsonRpcId | null {
  const found = ID_FIRST.exec(head.toString('utf8')) ?? ID_LAST.exec(tail.toString('utf8'))
  if (!found) return null
  try {
    const id = JSON.parse(found[1]!) as unknown
    return typeof id === 'number' || typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

/** What a line says about itself: a request has both, a response an id only, a notification a method only. */
export interface LineMessage {
  readonly id: JsonRpcId | null
  readonly method: string | null
}

/** Id and method of one whole line (exact when the line is small enough to parse, else from its edges). */
function describe(head: Buffer, tail: Buffer, whole: Buffer | null): LineMessage {
  if (whole) {
    try {
      const m = JSON.parse(whole.toString('utf8')) as { id?: unknown; method?: unknown }
      const id = typeof m?.id === 'number' || typeof m?.id === 'string' ? m.id : null
      return { id, method: typeof m?.method === 'string' ? m.method : null }
    } catch {
      return { id: null, method: null }
    }
  }
  const method = METHOD_FIRST.exec(head.toString('utf8'))
  let name: string | null = null
  try {
    name = method ? (JSON.parse(`"${method[1]!}"`) as string) : null
  } catch {
    name = null
  }
  return { id: requestIdOf(head, tail), method: name }
}

/**
 * Follows a byte stream of newline-delimited JSON-RPC messages: `push` each chunk as it passes,
 * `onLine` hears each complete line's id and method. Keeps at most 4 KiB of head and 4 KiB of
 * tail of the current line.
 */
export class MessageWatch {
  readonly #onLine: (message: LineMessage) => void
  #head: Buffer = Buffer.alloc(0)
  #tail: Buffer = Buffer.alloc(0)
  #length = 0

  constructor(onLine: (message: LineMessage) => void) {
    this.#onLine = onLine
  }

  /** True when the stream stopped part way through a line. */
  get midLine(): boolean {
    return this.#length > 0
  }

  push(chunk: Buffer): void {
    let at = 0
    while (at < chunk.length) {
      const nl = chunk.indexOf(0x0a, at)
      this.#take(chunk.subarray(at, nl === -1 ? chunk.length : nl))
      if (nl === -1) return
      this.#end()
      at = nl + 1
    }
  }

  /**
   * Bytes up to the end of the current line, and the rest, for a reader that takes over the
   * stream part way through a line: the part goes to `onLine`'s line, the rest is not looked at.
   */
  finishLine(chunk: Buffer): { rest: Buffer | null } {
    const nl = chunk.indexOf(0x0a)
    this.#take(chunk.subarray(0, nl === -1 ? chunk.length : nl))
    if (nl === -1) return { rest: null }
    this.#end()
    return { rest: chunk.subarray(nl + 1) }
  }

  #take(part: Buffer): void {
    if (part.length === 0) return
    if (this.#head.length < EDGE_BYTES) this.#head = Buffer.concat([this.#head, part.subarray(0, EDGE_BYTES - this.#head.length)])
    this.#tail = Buffer.concat([this.#tail, part.subarray(-EDGE_BYTES)]).subarray(-EDGE_BYTES)
    this.#length += part.length
  }

  #end(): void {
    const [head, tail, length] = [this.#head, this.#tail, this.#length]
    this.#head = Buffer.alloc(0)
    this.#tail = Buffer.alloc(0)
    this.#length = 0
    if (length === 0) return
    // A line that fits in its head is parsed whole: exact for every small message.
    this.#onLine(describe(head, tail, length <= EDGE_BYTES ? head : null))
  }
}
