import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ErrorCode, isMemweaveError } from '../core/errors.js'
import { attach, attachPath, refuseSessions, serveAttachments, type Attachments } from '../mcp/shared-dir.js'
import { assertAgentName, loadAgentIdentity } from '../mcp/agent-identity.js'
import { loadOrCreateIdentity } from '../gmp-http/server-identity.js'
import type { Identity } from '../core/identity.js'
import { loadPeer } from '../core/peer.js'
import { createMemory, type Memory } from '../memory.js'
import { fileStorage } from '../node/file-adapter.js'
import { acquireLock, type FileLock } from '../node/file-lock.js'
import { EXIT, UsageError, parseCommandFlags, type Command } from './command.js'

const MCP_PACKAGES = ['@modelcontextprotocol/sdk', 'zod'] as const

const FLAGS = {
  dir: { type: 'string' },
  agent: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/** Taken before the store's own lock by every `memweave mcp` that serves a directory: a process holding it is one, and will accept attachments. */
const MCP_LOCK = 'mcp.lock'

/**
 * How long an attaching process waits for a live holder of the mcp lock to accept it. The holder
 * listens once it has loaded the store and the MCP SDK, seconds at most on a loaded machine; past
 * this it is wedged, and the client is told so.
 */
const HOLDER_WAIT_MS = 60_000

/** Between two looks at a holder that is not listening yet. */
const RETRY_MS = 25

/**
 * `memweave mcp`: an MCP server on stdin/stdout (the official SDK's stdio transport) over one
 * durable store, until the client closes stdin or the process gets SIGINT/SIGTERM. Stdout carries
 * the protocol only; diagnostics go to stderr.
 */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve a store to MCP clients on stdio: awp_artifact_*, gmp_* and pool_* tools; agents may share a --dir',
  usage: `Usage: memweave mcp [--dir D] [--agent NAME]

Serves one durable memweave store to an MCP client on stdin/stdout, until the client closes stdin
or the process gets SIGINT or SIGTERM. Tools: awp_artifact_read, awp_artifact_write,
awp_artifact_list, awp_artifact_search, awp_artifact_merge (SMP knowledge artifacts); gmp_write,
gmp_retrieve, gmp_supersede, gmp_delete, gmp_audit, gmp_conflicts (GMP facts); pool_create,
pool_list, pool_share, pool_write, pool_query, pool_forget, pool_conflicts, pool_resolve (LCS-004
pools). Unknown argument keys are refused. A message (one line) above 10 MiB is not read: it is
answered with a JSON-RPC error -32600 whose data.code is INVALID_ARGUMENT, and the server goes on
serving.

Several agents may share D, started together or not: the first process serves it, later ones
attach to it (a socket in D) and wait for it while it starts; when it stops, one of them takes D
over. A call in flight when the serving process dies is answered with a JSON-RPC error whose
data.code is CLOSED (it may or may not have taken effect), and the next call is served again.

Identity: without --agent, the store's own identity (did:key, kept in D/identity.json) signs and
authors every write. With --agent NAME, the facts this agent writes (gmp_write, gmp_supersede) are
signed by NAME's own key, kept in D/agents/NAME.json, so a contradiction between two agents shows
two authors; artifacts and pools still act as the store's identity.

Options:
  --dir D        The store directory (default: .memweave in the current directory)
  --agent NAME   The agent this client is (1-64 of A-Z a-z 0-9 _ -): its facts are signed by its key
  -h, --help     Show this help

Example MCP client configuration:
  { "command": "memweave", "args": ["mcp", "--dir", "/path/to/workspace/.memweave", "--agent", "planner"] }
`,
  async run(argv, io) {
    const values = parseCommandFlags(mcpCommand, argv, FLAGS, io)
    if (!values) return EXIT.OK
    const agent = values.agent ?? null
    if (agent !== null) {
      try {
        assertAgentName(agent)
      } catch (err) {
        throw new UsageError(mcpCommand, `--agent ${message(err).replace(/^agent: /, '')}`)
      }
    }
    const dir = resolve(values.dir ?? join(process.cwd(), '.memweave'))
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 })
    } catch (err) {
      io.stderr(`memweave: cannot create ${dir}: ${message(err)}\n`)
      return EXIT.FAILURE
    }
    return serveOrAttach(dir, agent, io)
  },
}

type IO = Parameters<Command['run']>[1]

const message = (err: unknown): string => (isMemweaveError(err) ? err.message : String((err as Error)?.message ?? err))
const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms))

async function openStore(dir: string): Promise<Memory> {
  return createMemory({ storage: fileStorage({ dir }), identity: await loadOrCreateIdentity(dir) })
}

/**
 * Serves `dir`, or attaches to the process that does, for as long as this process's client stays.
 * The mcp lock says who serves: its holder is a live `memweave mcp` that listens on the
 * attachment socket once it has loaded the store (MCP hosts start their servers together, so the
 * socket is often not up yet: wait while the holder lives). When the serving process goes away,
 * loop: take the lock, or attach to whoever took it first.
 */
async function serveOrAttach(dir: string, agent: string | null, io: IO): Promise<number> {
  const socketPath = attachPath(dir)
  let waitingSince: number | null = null
  for (;;) {
    let lock: FileLock
    try {
      lock = await acquireLock(join(dir, MCP_LOCK), `memweave mcp of ${dir}`)
    } catch (err) {
      const holder = isMemweaveError(err) && err.code === ErrorCode.CONFLICT && typeof err.details['pid'] === 'number' ? err.details['pid'] : null
      if (holder === null) return giveUp(io, `cannot take ${join(dir, MCP_LOCK)}: ${message(err)}`)
      try {
        if ((await attach(socketPath, agent, process.stdin, process.stdout, dir)) === 'client-left') return EXIT.OK
        waitingSince = null
      } catch (attachErr) {
        // The holder refused this agent (a bad name, its key unreadable): that is final.
        if (isMemweaveError(attachErr) && attachErr.code !== ErrorCode.CLOSED) return giveUp(io, `the memweave mcp serving ${dir} (process ${holder}) refused this agent: ${attachErr.message}`)
        // Not listening yet (it is loading the store) or any more (it is stopping): wait while it lives.
        waitingSince ??= Date.now()
        if (Date.now() - waitingSince > HOLDER_WAIT_MS) {
          return giveUp(io, `process ${holder} serves ${dir} (it holds ${MCP_LOCK}) but has not accepted an attachment on ${socketPath} in ${HOLDER_WAIT_MS / 1000} s (${message(attachErr)}); its own stderr says why. Stop it, or give this agent its own --dir`)
        }
        await sleep(RETRY_MS)
      }
      continue
    }
    let memory: Memory
    try {
      memory = await openStore(dir)
    } catch (err) {
      await lock.release()
      if (!(isMemweaveError(err) && err.code === ErrorCode.CONFLICT)) {
        io.stderr(`memweave: cannot open the store in ${dir}: ${message(err)}\n`)
        return EXIT.FAILURE
      }
      // Held, though no `memweave mcp` holds the mcp lock: a `memweave gmp`, a script, or a
      // memweave mcp older than this one; none of them accepts an attachment.
      const pid = typeof err.details['pid'] === 'number' ? `process ${err.details['pid']}` : 'another process'
      return giveUp(io, `${pid} holds the store in ${dir} and is not a memweave mcp that accepts attachments (${message(err)}); stop it, or give this agent its own --dir`)
    }
    return serve(dir, memory, lock, agent, io)
  }
}

/** Says why on stderr and answers the MCP client's every request with it, instead of dying with "Connection closed". */
async function giveUp(io: IO, reason: string): Promise<number> {
  io.stderr(`memweave: ${reason}\n`)
  await refuseSessions(process.stdin, process.stdout, reason)
  return EXIT.FAILURE
}

/** Serves `memory` to this process's MCP client on stdio, and to the processes that attach, until the client leaves. */
async function serve(dir: string, memory: Memory, lock: FileLock, agent: string | null, io: IO): Promise<number> {
  // The MCP SDK is an optional peer dependency: only those who run `memweave mcp` install it.
  let server: Awaited<ReturnType<typeof import('../mcp/server.js')['createMcpServer']>>
  let transport: InstanceType<(typeof import('../mcp/stdio-transport.js'))['StdioTransport']>
  let attachments: Attachments | null = null
  // One key per agent name, loaded once whichever session asks first.
  const identities = new Map<string, Promise<Identity>>()
  const identityOf = async (name: string | null): Promise<Identity | null> => {
    if (name === null) return memory.identity
    let id = identities.get(name)
    if (!id) {
      id = loadAgentIdentity(dir, name)
      identities.set(name, id)
      id.catch(() => identities.delete(name))
    }
    return id
  }
  try {
    const [{ createMcpServer }, { StdioTransport }] = await loadPeer('memweave mcp', MCP_PACKAGES, () =>
      Promise.all([import('../mcp/server.js'), import('../mcp/stdio-transport.js')]),
    )
    server = createMcpServer(memory, { version: packageVersion(), identity: await identityOf(agent) })
    // Not the SDK's StdioServerTransport: it closes itself on one line over 10 MiB (issue 13).
    transport = new StdioTransport()
    // Later `memweave mcp` processes on this directory attach here: one more session each, over the same memory, as their own agent.
    attachments = await serveAttachments(attachPath(dir), async (name) => {
      const identity = await identityOf(name)
      return {
        did: identity?.did ?? null,
        async run(socket) {
          const session = createMcpServer(memory, { version: packageVersion(), identity })
          const ended = new Promise<void>((ok) => socket.once('close', () => ok()))
          await session.connect(new StdioTransport(socket, socket))
          socket.resume()
          await ended
          await session.close().catch(() => undefined)
        },
      }
    }).catch((err: unknown) => {
      io.stderr(`memweave: other processes cannot attach to this store (${message(err)})\n`)
      return null
    })
  } catch (err) {
    await memory.close().catch(() => undefined)
    await lock.release()
    io.stderr(`memweave: ${message(err)}\n`)
    return EXIT.FAILURE
  }
  const shutdown = io.shutdown()
  const done = new Promise<void>((ok) => {
    server.server.onclose = () => ok()
    process.stdin.once('end', () => ok())
    if (shutdown.aborted) ok()
    else shutdown.addEventListener('abort', () => ok(), { once: true })
  })
  let code: number = EXIT.OK
  try {
    await server.connect(transport)
    // stdin was paused by a relay to a serving process that has since gone (serveOrAttach).
    process.stdin.resume()
    await done
    // Attached agents keep working after this process's own client has gone (until it is stopped).
    if (attachments && attachments.count > 0 && !shutdown.aborted) {
      await Promise.race([attachments.idle(), new Promise<void>((ok) => shutdown.addEventListener('abort', () => ok(), { once: true }))])
    }
  } catch (err) {
    io.stderr(`memweave: MCP server failed: ${message(err)}\n`)
    code = EXIT.FAILURE
  } finally {
    await attachments?.close().catch(() => undefined)
    await server.close().catch(() => undefined)
    await memory.close().catch((err: unknown) => {
      io.stderr(`memweave: error while closing the store: ${message(err)}\n`)
      code = EXIT.FAILURE
    })
    // Last, once the store's own lock is released: the next holder can open it at once.
    await lock.release()
    process.stdin.pause()
  }
  return code
}

/** The package version, from package.json above this file (src/cli/ or dist/src/cli/). */
function packageVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string }
      if (pkg.name === 'memweave' && typeof pkg.version === 'string') return pkg.version
    } catch {
      // not at this level
    }
  }
  return '0.0.0'
}
