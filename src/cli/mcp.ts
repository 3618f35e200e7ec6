import { readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { isMemweaveError } from '../core/errors.js'
import { loadOrCreateIdentity } from '../gmp-http/server-identity.js'
import { createMcpServer } from '../mcp/server.js'
import { StdioTransport } from '../mcp/stdio-transport.js'
import { createMemory, type Memory } from '../memory.js'
import { fileStorage } from '../storage/file-adapter.js'
import { EXIT, parseCommandFlags, type Command } from './command.js'

const FLAGS = {
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

/**
 * `memweave mcp`: an MCP server on stdin/stdout (newline-delimited JSON-RPC, as the SDK's) over one
 * durable store, until the client closes stdin or the process gets SIGINT/SIGTERM. Stdout carries
 * the protocol only; diagnostics go to stderr.
 */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Serve a memweave store to MCP clients over stdio (SMP artifact and GMP tools)',
  usage: `Usage: memweave mcp [--dir D]

Serves one durable memweave store to an MCP client on stdin/stdout, until the client closes stdin
or the process gets SIGINT or SIGTERM. Tools: awp_artifact_read, awp_artifact_write,
awp_artifact_list, awp_artifact_search, awp_artifact_merge (SMP knowledge artifacts), and
gmp_write, gmp_retrieve, gmp_supersede, gmp_delete, gmp_audit (GMP facts) over the same store.
The store's agent identity (did:key) is kept in D/identity.json and authors every write.
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
      memory = await createMemory({ storage: fileStorage({ dir }), identity: await loadOrCreateIdentity(dir) })
    } catch (err) {
      io.stderr(`memweave: cannot open the store in ${dir}: ${isMemweaveError(err) ? err.message : String((err as Error)?.message ?? err)}\n`)
      return EXIT.FAILURE
    }
    const server = createMcpServer(memory, { version: packageVersion() })
    // Not the SDK's StdioServerTransport: it closes itself on one line over 10 MiB (issue 13).
    const transport = new StdioTransport()
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
      await done
    } catch (err) {
      io.stderr(`memweave: MCP server failed: ${String((err as Error)?.message ?? err)}\n`)
      code = EXIT.FAILURE
    } finally {
      await server.close().catch(() => undefined)
      await memory.close().catch((err: unknown) => {
        io.stderr(`memweave: error while closing the store: ${String((err as Error)?.message ?? err)}\n`)
        code = EXIT.FAILURE
      })
      process.stdin.pause()
    }
    return code
  },
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
