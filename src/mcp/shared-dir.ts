import { createHash } from 'node:crypto'
import { chmod, rm } from 'node:fs/promises'
import { createConnection, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import { ATTACH_PROTOCOL_VERSION, MAX_ATTACH_LINE_BYTES, encodeAttachMessage, parseAttachMessage } from './attach-protocol.js'
import { MessageWatch, type JsonRpcId } from './message-watch.js'

/**
 * Several agents on one workspace is the normal case, but a store directory has one writer (its
 * file lock). So the first `memweave mcp` of a directory serves it and also listens on a local
 * socket; a later one finds the directory held, attaches to that socket and relays its stdio
 * there, and the first process runs one more MCP session over the same memory for it, signing as
 * the agent the attaching process names. The socket lives in the directory (0600), so only who
 * may read the store may attach. Who serves, who waits and who takes over: src/cli/mcp.ts.
 */

/** Where the serving process of `dir` listens. Unix socket paths are short (~104 bytes): long ones go to the temp dir, named by a hash. */
export function attachPath(dir: string): string {
  const id = createHash('sha256').update(dir).digest('hex').slice(0, 16)
  if (process.platform === 'win32') return `\\\\.\\pipe\\memweave-mcp-${id}`
  const inDir = join(dir, 'mcp.sock')
  return Buffer.byteLength(inDir) < 100 ? inDir : join(tmpdir(), `memweave-mcp-${id}.sock`)
}

export interface Attachments {
  /** Sessions currently attached. */
  readonly count: number
  /** Resolves once no session is attached. */
  idle(): Promise<void>
  /** Stops accepting, ends every attached session. */
  close(): Promise<void>
}

/** What the serving process runs for one attached agent, once it has accepted it. */
export interface AttachedSession {
  /** The did the session signs as (null: the store has no identity). */
  readonly did: string | null
  /** Runs the MCP session over the socket, which is paused until it resumes it; resolves when the session ends. */
  run(socket: Socket): Promise<void>
}

/** An attaching process that says nothing within this long is dropped (it is not `memweave mcp`). */
const HELLO_MS = 10_000

/**
 * Listens for attaching processes. Each says first which agent it acts for (src/mcp/attach-protocol.ts);
 * `accept(agent)` makes its session, or throws a MemweaveError that is sent back as the refusal.
 */
export async function serveAttachments(path: string, accept: (agent: string | null) => Promise<AttachedSession>): Promise<Attachments> {
  // We hold the directory's mcp lock, so a socket file left there is a crashed server's.
  if (process.platform !== 'win32') await rm(path, { force: true })
  const sockets = new Set<Socket>()
  let waiters: Array<() => void> = []
  const settle = (): void => {
    if (sockets.size > 0) return
    for (const w of waiters) w()
    waiters = []
  }
  const session = async (socket: Socket): Promise<void> => {
    const hello = parseAttachMessage((await firstLine(socket, HELLO_MS)) ?? '')
    if (hello?.type !== 'attach') {
      socket.end(encodeAttachMessage({ type: 'refused', v: ATTACH_PROTOCOL_VERSION, code: ErrorCode.INVALID_ARGUMENT, message: `not a memweave mcp attachment (protocol version ${ATTACH_PROTOCOL_VERSION})` }))
      return
    }
    let attached: AttachedSession
    try {
      attached = await accept(hello.agent)
    } catch (err) {
      const code = isMemweaveError(err) ? err.code : ErrorCode.INTERNAL
      socket.end(encodeAttachMessage({ type: 'refused', v: ATTACH_PROTOCOL_VERSION, code, message: (err as Error)?.message ?? String(err) }))
      return
    }
    socket.write(encodeAttachMessage({ type: 'attached', v: ATTACH_PROTOCOL_VERSION, did: attached.did }))
    await attached.run(socket)
  }
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => undefined)
    void session(socket)
      .catch(() => undefined)
      .finally(() => {
        socket.destroy()
        sockets.delete(socket)
        settle()
      })
  })
  await new Promise<void>((ok, fail) => {
    server.once('error', fail)
    server.listen(path, () => {
      server.off('error', fail)
      ok()
    })
  })
  if (process.platform !== 'win32') await chmod(path, 0o600)
  return {
    get count() {
      return sockets.size
    },
    idle: () => (sockets.size === 0 ? Promise.resolve() : new Promise<void>((ok) => waiters.push(ok))),
    async close() {
      // net.Server.close() waits for open connections: end the attached sessions first.
      const closed = new Promise<void>((ok) => server.close(() => ok()))
      for (const s of sockets) s.destroy()
      await closed
      if (process.platform !== 'win32') await rm(path, { force: true })
    },
  }
}

/**
 * The first line of `socket` (without its newline), or null when the socket ends, passes
 * MAX_ATTACH_LINE_BYTES or says nothing for `ms`. What follows the line is put back for the next reader.
 */
function firstLine(socket: Socket, ms: number): Promise<string | null> {
  return new Promise((ok) => {
    let got = Buffer.alloc(0)
    const done = (line: string | null, rest?: Buffer): void => {
      clearTimeout(timer)
      socket.off('data', onData)
      socket.off('end', onEnd)
      socket.off('close', onEnd)
      socket.pause()
      if (rest && rest.length > 0) socket.unshift(rest)
      ok(line)
    }
    const onData = (chunk: Buffer): void => {
      got = Buffer.concat([got, chunk])
      const nl = got.indexOf(0x0a)
      if (nl !== -1) done(got.subarray(0, nl).toString('utf8'), got.subarray(nl + 1))
      else if (got.length > MAX_ATTACH_LINE_BYTES) done(null)
    }
    const onEnd = (): void => done(null)
    const timer = setTimeout(onEnd, ms)
    socket.on('data', onData)
    socket.once('end', onEnd)
    socket.once('close', onEnd)
  })
}

/** How an attached process's relay ended: its client closed stdin, or the serving process went away. */
export type AttachOutcome = 'client-left' | 'server-left'

/**
 * Attaches to the serving process at `path` as `agent`, then relays this process's stdio there
 * until either side ends. Requests the serving process had not answered when it went away are
 * answered here with a JSON-RPC error (data.code CLOSED): a call in flight fails at once instead of
 * waiting out the client's timeout, and what the client sends next waits in stdin for whoever
 * serves next. `dir` names the directory in that error.
 *
 * Rejects, before relaying anything: with the connect error (ENOENT, ECONNREFUSED: nothing listens
 * yet or any more); with MemweaveError CLOSED when the socket closed before answering; with the
 * serving process's refusal as a MemweaveError of its code (e.g. INVALID_ARGUMENT for the agent name).
 */
export async function attach(path: string, agent: string | null, input: NodeJS.ReadableStream, output: NodeJS.WritableStream, dir: string): Promise<AttachOutcome> {
  const socket = createConnection(path)
  socket.on('error', () => undefined)
  await new Promise<void>((ok, fail) => {
    const onError = (err: Error): void => fail(err)
    socket.once('error', onError)
    socket.once('connect', () => {
      socket.off('error', onError)
      ok()
    })
  })
  socket.write(encodeAttachMessage({ type: 'attach', v: ATTACH_PROTOCOL_VERSION, agent }))
  const reply = parseAttachMessage((await firstLine(socket, HELLO_MS)) ?? '')
  if (reply?.type === 'refused') {
    socket.destroy()
    throw new MemweaveError(reply.code, reply.message, { attach: path })
  }
  if (reply?.type !== 'attached') {
    socket.destroy()
    throw new MemweaveError(ErrorCode.CLOSED, `the memweave mcp at ${path} closed the attachment before accepting it`, { attach: path })
  }
  return relay(socket, input as Readable, output, dir)
}

/** Relays stdio to and from the socket; see attach(). */
async function relay(socket: Socket, input: Readable, output: NodeJS.WritableStream, dir: string): Promise<AttachOutcome> {
  const key = (id: JsonRpcId): string => JSON.stringify(id)
  const pending = new Map<string, { id: JsonRpcId; method: string }>()
  const fromClient = new MessageWatch((m) => {
    if (m.id !== null && m.method !== null) pending.set(key(m.id), { id: m.id, method: m.method })
  })
  const fromServer = new MessageWatch((m) => {
    if (m.id !== null && m.method === null) pending.delete(key(m.id))
  })
  let over = false
  let clientLeft = false
  const onInput = (chunk: Buffer): void => {
    // Watched before it is sent, so its answer can never arrive before it is pending.
    fromClient.push(chunk)
    if (!socket.write(chunk)) {
      input.pause()
      socket.once('drain', () => {
        if (!over) input.resume()
      })
    }
  }
  const onOutput = (chunk: Buffer): void => {
    fromServer.push(chunk)
    if (!output.write(chunk)) {
      socket.pause()
      output.once('drain', () => socket.resume())
    }
  }
  const onEnd = (): void => {
    clientLeft = true
    socket.end()
  }
  await new Promise<void>((ok) => {
    socket.on('close', () => ok())
    socket.on('data', onOutput)
    // firstLine() paused it explicitly, and a new 'data' listener does not undo that.
    socket.resume()
    input.once('end', onEnd)
    input.on('data', onInput)
    input.resume()
  })
  over = true
  input.off('data', onInput)
  input.off('end', onEnd)
  // Leave stdin paused: what the client sends next waits for whoever serves it now.
  input.pause()
  if (clientLeft) return 'client-left'
  // An answer cut short by the serving process's death: end its line, so the next one is whole.
  if (fromServer.midLine) output.write('\n')
  // A request cut short on its way: the rest of its line is dropped here (it went to no one) and it is answered below.
  if (fromClient.midLine && !(await finishLine(input, fromClient))) return 'client-left'
  for (const { id, method } of pending.values()) {
    const message = `memweave mcp: the process serving ${dir} stopped during this call (${method}); it may or may not have taken effect, so read before repeating a write. The next call goes to the process that serves ${dir} next.`
    output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message, data: { code: ErrorCode.CLOSED } } })}\n`)
  }
  return 'server-left'
}

/** Reads `input` to the end of its current line for `watch`, putting back what follows. False when input ended first. */
function finishLine(input: Readable, watch: MessageWatch): Promise<boolean> {
  return new Promise((ok) => {
    const onData = (chunk: Buffer): void => {
      const { rest } = watch.finishLine(chunk)
      if (rest === null) return
      input.off('data', onData)
      input.off('end', onEnd)
      input.pause()
      if (rest.length > 0) input.unshift(rest)
      ok(true)
    }
    const onEnd = (): void => {
      input.off('data', onData)
      ok(false)
    }
    input.on('data', onData)
    input.once('end', onEnd)
    input.resume()
  })
}

/**
 * When the directory is held and nothing can be attached to: answer every request of the MCP
 * client (its `initialize` first) with a JSON-RPC error carrying `message`, instead of dying with
 * "Connection closed" on the client's side.
 */
export async function refuseSessions(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, message: string): Promise<void> {
  const lines = createInterface({ input })
  for await (const line of lines) {
    let id: unknown
    try {
      id = (JSON.parse(line) as { id?: unknown }).id
    } catch {
      continue
    }
    if (id === undefined || id === null) continue
    output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message } })}\n`)
  }
}
