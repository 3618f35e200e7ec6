import { createHash } from 'node:crypto'
import { chmod, rm } from 'node:fs/promises'
import { createConnection, createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'

/**
 * Several agents on one workspace is the normal case, but a store directory has one writer (its
 * file lock). So the first `memweave mcp` of a directory serves it and also listens on a local
 * socket; a later one finds the lock taken, attaches to that socket and relays its stdio there,
 * and the first process runs one more MCP session over the same memory for it. The socket lives
 * in the directory (0600), so only who may read the store may attach.
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

/**
 * Listens for attaching processes; `session(socket)` runs one MCP session over the socket and
 * resolves when it ends.
 */
export async function serveAttachments(path: string, session: (socket: Socket) => Promise<void>): Promise<Attachments> {
  // We hold the directory's lock, so a socket file left there is a crashed server's.
  if (process.platform !== 'win32') await rm(path, { force: true })
  const sockets = new Set<Socket>()
  let waiters: Array<() => void> = []
  const settle = (): void => {
    if (sockets.size > 0) return
    for (const w of waiters) w()
    waiters = []
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
 * Relays this process's stdio to the serving process's socket until either side ends: resolves
 * `'client-left'` when this process's client closed its stdin, `'server-left'` when the serving
 * process went away first. Rejects when nothing listens there.
 */
export async function attach(path: string, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<'client-left' | 'server-left'> {
  const socket = createConnection(path)
  await new Promise<void>((ok, fail) => {
    socket.once('connect', ok)
    socket.once('error', fail)
  })
  let clientLeft = false
  const onEnd = (): void => {
    clientLeft = true
    socket.end()
  }
  await new Promise<void>((ok) => {
    socket.on('error', () => ok())
    socket.on('close', () => ok())
    input.once('end', onEnd)
    input.pipe(socket)
    socket.pipe(output, { end: false })
  })
  input.unpipe(socket)
  input.off('end', onEnd)
  // Leave stdin paused: what the client sends next waits for whoever serves it now.
  input.pause()
  return clientLeft ? 'client-left' : 'server-left'
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
