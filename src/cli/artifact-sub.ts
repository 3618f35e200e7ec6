import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ErrorCode, isMemweaveError, type MemweaveError } from '../core/errors.js'
import { ArtifactWorkspace, type SkippedFile, type WorkspaceArtifact } from '../node/artifact-workspace.js'
import { decodeUtf8 } from '../artifacts/utf8.js'
import { parseArgs, type FlagSpecs, type FlagValues } from './args.js'
import { EXIT, UsageError, type CliIO, type Command } from './command.js'

/**
 * The frame of every `memweave artifact` subcommand: flags (its own plus --dir, --json, --help),
 * positional counts, usage errors (exit 2), and failures (exit 1) printed as a line on stderr or,
 * with --json, as `{"error": {...}}` on stdout.
 */

const COMMON = {
  dir: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies FlagSpecs

const COMMON_HELP = `  --dir D       The workspace (default: the current directory)
  --json        Print JSON on stdout
  -h, --help    Show this help`

export interface Context<S extends FlagSpecs> {
  readonly values: FlagValues<S> & FlagValues<typeof COMMON>
  readonly positionals: readonly string[]
  readonly io: CliIO
  readonly json: boolean
  readonly workspace: () => ArtifactWorkspace
  print(data: unknown, human: string): void
}

export interface SubSpec<S extends FlagSpecs> {
  readonly name: string
  readonly summary: string
  readonly args: string
  readonly help: string
  /** Help lines for the command's own flags. */
  readonly options: string
  readonly flags: S
  readonly positionals: readonly [min: number, max: number]
  run(ctx: Context<S>): Promise<number>
}

export function sub<S extends FlagSpecs>(spec: SubSpec<S>): Command {
  const command: Command = {
    name: spec.name,
    summary: spec.summary,
    usage: `Usage: memweave artifact ${spec.name} ${spec.args}\n\n${spec.summary}.\n\n${spec.help ? `${spec.help}\n\n` : ''}Options:\n${spec.options}${COMMON_HELP}\n`,
    async run(argv, io) {
      let parsed
      try {
        parsed = parseArgs(argv, { ...spec.flags, ...COMMON })
      } catch (err) {
        throw new UsageError(command, (err as Error).message)
      }
      const values = parsed.values as FlagValues<S> & FlagValues<typeof COMMON>
      if (values.help) {
        io.stdout(command.usage)
        return EXIT.OK
      }
      const [min, max] = spec.positionals
      if (parsed.positionals.length < min) throw new UsageError(command, `"artifact ${spec.name}" needs ${spec.args.split(' [')[0]}`)
      if (parsed.positionals.length > max) throw new UsageError(command, `unexpected argument "${parsed.positionals[max]}"`)
      const json = values.json === true
      const ctx: Context<S> = {
        values,
        positionals: parsed.positionals,
        io,
        json,
        workspace: () => new ArtifactWorkspace({ dir: resolve(values.dir ?? '.'), agent: io.env['MEMWEAVE_AGENT'] || undefined }),
        print: (data, human) => io.stdout(json ? `${JSON.stringify(data, null, 2)}\n` : human),
      }
      try {
        return await spec.run(ctx)
      } catch (err) {
        if (err instanceof UsageError) throw err
        return fail(ctx, err)
      }
    },
  }
  return command
}

/** A failure as exit 1, printed as JSON or a line on stderr. System errors keep their errno code. */
export function fail(ctx: { io: CliIO; json: boolean }, err: unknown): number {
  const e = err as MemweaveError & NodeJS.ErrnoException
  const code = isMemweaveError(err) ? err.code : (e?.code ?? ErrorCode.INTERNAL)
  const message = isMemweaveError(err) ? err.message : `${e?.code ? `${e.code} ` : ''}${e?.message ?? String(err)}`
  if (ctx.json) {
    const details = isMemweaveError(err) ? err.details : {}
    ctx.io.stdout(`${JSON.stringify({ error: { code, message, ...details } }, null, 2)}\n`)
  } else {
    ctx.io.stderr(`memweave: ${message}\n`)
  }
  return EXIT.FAILURE
}

/** A flag that must be a number, or a usage error. */
export function number(command: () => Command, flag: string, text: string | undefined, integer = false): number | undefined {
  if (text === undefined) return undefined
  const ok = integer ? /^\d+$/.test(text) : /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)
  if (!ok) throw new UsageError(command(), `--${flag} must be ${integer ? 'a whole number' : 'a number'}, got "${text}"`)
  return Number(text)
}

export const tagList = (text: string | undefined): string[] | undefined =>
  text === undefined ? undefined : text.split(',').map((t) => t.trim()).filter(Boolean)

/** `--body TEXT` is Markdown content written as AWP's tools write it (`\n<content>\n`); `--body-file` is the exact body. */
export async function bodyFrom(values: { body?: string; 'body-file'?: string }, command: () => Command): Promise<string | undefined> {
  if (values.body !== undefined && values['body-file'] !== undefined) throw new UsageError(command(), 'give --body or --body-file, not both')
  if (values.body !== undefined) return `\n${values.body}\n`
  if (values['body-file'] !== undefined) return decodeUtf8(await readFile(values['body-file']), '--body-file')
  return undefined
}

export const saved = (verb: string, a: WorkspaceArtifact): string => `${verb} ${a.path} (version ${a.version})\n`
export const view = (a: WorkspaceArtifact) => ({ slug: a.slug, path: a.path, version: a.version, frontmatter: a.frontmatter, body: a.body })

export function warnSkipped(ctx: { io: CliIO; json: boolean }, skipped: readonly SkippedFile[]): void {
  if (ctx.json) return
  for (const s of skipped) for (const p of s.problems) ctx.io.stderr(`memweave: skipped ${s.path}: ${p.field}: ${p.message}\n`)
}

