import { invalidArgument } from '../core/errors.js'
import { parseArgs, type FlagSpecs, type FlagValues } from './args.js'

/** What a command may touch of the outside world; injected so commands run in tests without a process. */
export interface CliIO {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly env: Readonly<Record<string, string | undefined>>
  /** Aborts when the process is asked to stop (SIGINT, SIGTERM); long-running commands wind down on it. */
  readonly shutdown: () => AbortSignal
  /** What the command reads as its input (`memweave import`); default `process.stdin`. */
  readonly stdin?: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>
}

/** One `memweave` command, or a group of subcommands (`gmp serve`). Usage errors throw INVALID_ARGUMENT. */
export interface Command {
  readonly name: string
  /** One line for the command list. */
  readonly summary: string
  /** The full help text, ending in a newline. */
  readonly usage: string
  /** Runs with the arguments after the command's name; resolves to the exit code. */
  run(argv: readonly string[], io: CliIO): Promise<number>
}

/** Exit codes: success, failure while running, and a usage error (as Node's own CLI uses 2 for bad arguments). */
export const EXIT = { OK: 0, FAILURE: 1, USAGE: 2 } as const

/** Thrown by a command for a usage error, after which the command's usage is printed. */
export class UsageError extends Error {
  readonly command: Command
  constructor(command: Command, message: string) {
    super(message)
    this.name = 'UsageError'
    this.command = command
  }
}

/**
 * A command made of subcommands: `memweave <group> <sub> [options]`. Its help opens with
 * `description` (default: the one-line `summary` of the command list).
 */
export function commandGroup(name: string, summary: string, subcommands: readonly Command[], options: { readonly description?: string } = {}): Command {
  const width = Math.max(...subcommands.map((c) => c.name.length))
  const group: Command = {
    name,
    summary,
    usage:
      `Usage: memweave ${name} <command> [options]\n\n${options.description ?? summary}\n\nCommands:\n` +
      subcommands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
      `\n\nRun "memweave ${name} <command> --help" for a command's options.\n`,
    async run(argv, io) {
      const [first, ...rest] = argv
      if (first === '-h' || first === '--help') {
        io.stdout(group.usage)
        return EXIT.OK
      }
      if (first === undefined) throw new UsageError(group, `"memweave ${name}" needs a command`)
      const sub = subcommands.find((c) => c.name === first)
      if (!sub) throw new UsageError(group, `unknown command "${name} ${first}"`)
      return sub.run(rest, io)
    },
  }
  return group
}

/** A comma-separated list flag (`--allow-origin a,b`), or undefined when not given. */
export function listFlag(text: string | undefined): string[] | undefined {
  return text === undefined ? undefined : text.split(',').map((t) => t.trim()).filter((t) => t !== '')
}

/** The flags and the --help paragraph of every server a web browser can reach (request-guard.ts). */
export const WEB_FLAGS = {
  'allow-host': { type: 'string' },
  'allow-origin': { type: 'string' },
} as const

export const WEB_PAGE_HELP = `What a web page can do: any page you open can make your browser send requests to
this machine. The server refuses those a page on another origin makes (403 forbidden_origin:
an Origin or Sec-Fetch-Site header naming another site), those addressed to a name other than
its own address and the loopback names (403 forbidden_host: a DNS-rebinding page), and bodies
that are not "Content-Type: application/json" (415). Programs that send no Origin (curl, SDKs,
agents) are not affected; without --token any of them on this machine can use the server.
  --allow-host H[,H]       Also answer to these Host names (a reverse proxy's; .example.com for
                           subdomains; * for any)
  --allow-origin O[,O]     Let web pages of these origins call it (https://app.example; * for any)
`

/** Parses a TCP port (0..65535). @throws MemweaveError INVALID_ARGUMENT. */
export function parsePort(text: string, flag = '--port'): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw invalidArgument(flag, `must be a port number 0..65535, got "${text}"`)
  return Number(text)
}

/**
 * The flags of a leaf command that takes no positional arguments. A parse error becomes a
 * UsageError for `command`; with `--help` the usage is printed and the result is null (exit 0).
 */
export function parseCommandFlags<S extends FlagSpecs>(command: Command, argv: readonly string[], specs: S, io: CliIO): FlagValues<S> | null {
  let args
  try {
    args = parseArgs(argv, specs)
  } catch (err) {
    throw new UsageError(command, (err as Error).message)
  }
  if ((args.values as Record<string, unknown>)['help']) {
    io.stdout(command.usage)
    return null
  }
  if (args.positionals.length > 0) throw new UsageError(command, `unexpected argument "${args.positionals[0]}"`)
  return args.values
}

/** parsePort for a command's flag, as a UsageError of that command. */
export function portFlag(command: Command, text: string, flag = '--port'): number {
  try {
    return parsePort(text, flag)
  } catch (err) {
    throw new UsageError(command, (err as Error).message)
  }
}
