import { readFileSync } from 'node:fs'
import { isMemweaveError } from '../core/errors.js'
import { EXIT, UsageError, type CliIO, type Command } from './command.js'
import { gmpCommand } from './gmp.js'
import { smallCommand } from './small.js'
import { artifactCommand } from './artifact.js'
import { mcpCommand } from './mcp.js'
import { relayCommand } from './relay.js'
import { startCommand } from './start.js'
import { exportCommand, importCommand } from './backup.js'

/**
 * The `memweave` command (Node only). Each top-level command is one entry of COMMANDS; a new
 * one (`relay`, `artifact`, `small`, `mcp`) is a `Command` added there.
 */
const COMMANDS: readonly Command[] = [gmpCommand, relayCommand, startCommand, smallCommand, artifactCommand, mcpCommand, exportCommand, importCommand]

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length))
  return `Usage: memweave <command> [options]

Local-first memory for AI agents.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n')}

Options:
  -h, --help     Show this help
  -v, --version  Show the version

Run "memweave <command> --help" for a command's options.
`
}

function version(): string {
  // src/cli/main.ts runs from the sources (tsx) or from dist/src/cli/main.js: find package.json upward.
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version: string }
      if (pkg.name === 'memweave') return pkg.version
    } catch {
      // not at this level
    }
  }
  return '0.0.0'
}

/**
 * SIGINT and SIGTERM as an AbortSignal: the first asks the command to wind down, a second one
 * exits at once (for a shutdown that hangs). Handlers are installed on first use only.
 */
function processShutdown(): { signal: () => AbortSignal; dispose: () => void } {
  let controller: AbortController | undefined
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller!.signal.aborted) process.exit(name === 'SIGINT' ? 130 : 143)
    controller!.abort(name)
  }
  return {
    signal() {
      if (!controller) {
        controller = new AbortController()
        process.on('SIGINT', onSignal)
        process.on('SIGTERM', onSignal)
      }
      return controller.signal
    },
    dispose() {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
}

/**
 * Runs `memweave` with `argv` (the arguments after the program name) and resolves to the exit
 * code; it never calls `process.exit` itself except on a second stop signal. `io` is injected by tests.
 *
 * @example
 * // bin/memweave.js
 * process.exitCode = await runCli(process.argv.slice(2))
 */
export async function runCli(argv: readonly string[], io: Partial<CliIO> = {}): Promise<number> {
  const signals = io.shutdown ? undefined : processShutdown()
  const full: CliIO = {
    stdout: io.stdout ?? ((text) => void process.stdout.write(text)),
    stderr: io.stderr ?? ((text) => void process.stderr.write(text)),
    env: io.env ?? process.env,
    shutdown: io.shutdown ?? signals!.signal,
    ...(io.stdin ? { stdin: io.stdin } : {}),
  }
  try {
    const [first, ...rest] = argv
    if (first === '-h' || first === '--help') {
      full.stdout(usage())
      return EXIT.OK
    }
    if (first === '-v' || first === '--version') {
      full.stdout(`${version()}\n`)
      return EXIT.OK
    }
    if (first === undefined) {
      full.stderr(usage())
      return EXIT.USAGE
    }
    const command = COMMANDS.find((c) => c.name === first)
    if (!command) {
      full.stderr(`memweave: unknown command "${first}"\n\n${usage()}`)
      return EXIT.USAGE
    }
    return await command.run(rest, full)
  } catch (err) {
    if (err instanceof UsageError) {
      full.stderr(`memweave: ${err.message}\n\n${err.command.usage}`)
      return EXIT.USAGE
    }
    full.stderr(`memweave: ${isMemweaveError(err) ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
    return EXIT.FAILURE
  } finally {
    signals?.dispose()
  }
}
