import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { ErrorCode, isMemweaveError } from '../core/errors.js'
import { attach, attachPath, refuseSessions, serveAttachments, type Attachments } from '../mcp/shared-dir.js'
import { loadOrCreateIdentity } from '../gmp-http/server-identity.js'
import { loadPeer } from '../core/peer.js'
import { createMemory, type Memory } from '../memory.js'
import { fileStorage } from '../node/file-adapter.js'
import { EXIT, parseCommandFlags, type Command } from './command.js'

const MCP_PACKAGES = ['@modelcontextprotocol/sdk', 'zod'] as const

const FLAGS = {
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/**
 * `memweave mcp`: an MCP server on stdin/stdout (the official SDK's stdio transport) over one
 * durable store, until the client closes stdin or the process gets SIGINT/SIGTERM. Stdout carries
 * the protocol only; diagnostics go to stderr.
 */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve a memweave store to MCP clients over stdio (SMP artifact and GMP tools)',
  usage: `Usage: memweave mcp [--dir D]

Serves one durable memweave store to an MCP client on stdin/stdout, until the client closes stdin
or the process gets SIGINT or SIGTERM. Tools: awp_artifact_read, awp_artifact_write,
awp_artifact_list, awp_artifact_search, awp_artifact_merge (SMP knowledge artifacts); gmp_write,
gmp_retrieve, gmp_supersede, gmp_delete, gmp_audit, gmp_conflicts (GMP facts); pool_create,
pool_list, pool_share, pool_write, pool_query, pool_forget, pool_conflicts, pool_resolve (LCS-004
pools). Unknown argument keys are refused. The store's agent identity (did:key) is kept in
D/identity.json and authors every write. Several agents may share D: the first process serves it,
later ones attach to it (a socket in D), and one of them takes D over if the first is stopped.
A message (one line) above 10 MiB is not read: it is answered with a JSON-RPC error -32600 whose
data.code is INVALID_ARGUMENT, and the server goes on serving.

Options:
  --dir D     The store directory (default: .memweave in the current directory); one process at a time
  -h, --help  Show this help

Example MCP client configuration:
  { "command": "memweave", "args": ["mcp", "--dir", "/path/to/workspace/.memweave"] }
`,
  async run(argv, io) {
    const values = parseCommandFlags(mcpCommand, argv, FLAGS, io)
    if (!values) return EXIT.OK
    const dir = resolve(values.dir ?? join(process.cwd(), '.memweave'))
    let memory: Memory
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 })
      memory = await openStore(dir)
    } catch (err) {
      // Another `memweave mcp` serves this directory: share its memory instead of dying (src/mcp/shared-dir.ts).
      if (isMemweaveError(err) && err.code === ErrorCode.CONFLICT) return attachToServer(dir, io)
      io.stderr(`memweave: cannot open the store in ${dir}: ${message(err)}\n`)
      return EXIT.FAILURE
    }
    return serve(dir, memory, io)
  },
}

type IO = Parameters<Command['run']>[1]

const message = (err: unknown): string => (isMemweaveError(err) ? err.message : String((err as Error)?.message ?? err))

async function openStore(dir: string): Promise<Memory> {
  return createMemory({ storage: fileStorage({ dir }), identity: await loadOrCreateIdentity(dir) })
}

/** Serves `memory` to this process's MCP client on stdio, and to the processes that attach, until the client leaves. */
async function serve(dir: string, memory: Memory, io: IO): Promise<number> {
  // The MCP SDK is an optional peer dependency: only those who run `memweave mcp` install it.
  let server: Awaited<ReturnType<typeof import('../mcp/server.js')['createMcpServer']>>
  let transport: InstanceType<(typeof import('../mcp/stdio-transport.js'))['StdioTransport']>
  let attachments: Attachments | null = null
  try {
    const [{ createMcpServer }, { StdioTransport }] = await loadPeer('memweave mcp', MCP_PACKAGES, () =>
      Promise.all([import('../mcp/server.js'), import('../mcp/stdio-transport.js')]),
    )
    server = createMcpServer(memory, { version: packageVersion() })
    // Not the SDK's StdioServerTransport: it closes itself on one line over 10 MiB (issue 13).
    transport = new StdioTransport()
    // Later `memweave mcp` processes on this directory attach here: one more session each, over the same memory.
    attachments = await serveAttachments(attachPath(dir), async (socket) => {
      const session = createMcpServer(memory, { version: packageVersion() })
      const ended = new Promise<void>((ok) => socket.once('close', () => ok()))
      await session.connect(new StdioTransport(socket, socket))
      await ended
      await session.close().catch(() => undefined)
    }).catch((err: unknown) => {
      io.stderr(`memweave: other processes cannot attach to this store (${message(err)})\n`)
      return null
    })
  } catch (err) {
    await memory.close()
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
    // stdin may have been paused by a relay to a serving process that has since gone (attachToServer).
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
    process.stdin.pause()
  }
  return code
}

/** How long a process whose server went away waits for the directory's lock to come free. */
const TAKEOVER_MS = 10_000

/**
 * A second process on a held directory: relays stdio to the serving one. When that one goes away
 * (its host stopped it) while this client is still here, this process takes the directory over
 * and serves its client itself, and the next ones attach to it. With nothing to attach to, it
 * refuses the MCP handshake saying why.
 */
async function attachToServer(dir: string, io: IO): Promise<number> {
  let outcome: 'client-left' | 'server-left'
  try {
    outcome = await attach(attachPath(dir), process.stdin, process.stdout)
  } catch (err) {
    const reason = `another memweave mcp holds ${dir} and does not accept attachments (${message(err)}); stop it, or give this agent its own --dir`
    io.stderr(`memweave: ${reason}\n`)
    await refuseSessions(process.stdin, process.stdout, reason)
    return EXIT.FAILURE
  }
  if (outcome === 'client-left') return EXIT.OK
  const deadline = Date.now() + TAKEOVER_MS
  for (;;) {
    try {
      return await serve(dir, await openStore(dir), io)
    } catch (err) {
      if (!isMemweaveError(err) || err.code !== ErrorCode.CONFLICT || Date.now() > deadline) {
        io.stderr(`memweave: the serving process left and this one cannot take ${dir} over: ${message(err)}\n`)
        return EXIT.FAILURE
      }
      // Another attached process may have taken it over first: attach to that one instead.
      try {
        if ((await attach(attachPath(dir), process.stdin, process.stdout)) === 'client-left') return EXIT.OK
      } catch {
        await new Promise((ok) => setTimeout(ok, 100))
      }
    }
  }
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
