import { resolve } from 'node:path'
import { ErrorCode, isMemweaveError } from '../core/errors.js'
import { formatFinding, type Finding } from '../small/findings.js'
import { readWorkspace } from '../node/small-workspace-dir.js'
import { parseYaml } from '../small/yaml-text.js'
import { parseArgs, type FlagSpecs, type ParsedArgs } from './args.js'
import { EXIT, UsageError, type CliIO, type Command } from './command.js'

// What every `memweave small` command shares: its common flags, how it reports, and how it fails.
export const COMMON = {
  dir: { type: 'string' },
  strict: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export function parse<S extends FlagSpecs>(cmd: Command, argv: readonly string[], specs: S): ParsedArgs<S> {
  try {
    return parseArgs(argv, specs)
  } catch (err) {
    throw new UsageError(cmd, (err as Error).message)
  }
}

export function dirOf(values: { dir?: string | boolean }): string {
  return resolve(typeof values.dir === 'string' ? values.dir : process.cwd())
}

/** Prints an error the way a person can act on it; returns the exit code it stands for. */
export function fail(err: unknown, io: CliIO): number {
  if (!isMemweaveError(err)) throw err
  if (err.code === ErrorCode.STORAGE) {
    io.stderr(`memweave small: ${err.message}\n`)
    return EXIT.USAGE // 2: a system error, not a verdict on the workspace
  }
  const findings = (err.details['findings'] as Finding[] | undefined) ?? null
  if (findings) io.stderr(`memweave small: refused:\n${findings.map((f) => `  ${formatFinding(f)}`).join('\n')}\n`)
  else io.stderr(`memweave small: ${err.message}\n`)
  return EXIT.FAILURE
}

export function printWarnings(warnings: readonly Finding[], io: CliIO): void {
  for (const w of warnings) io.stderr(`  ${formatFinding(w)}\n`)
}


export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** A document's data; null (after printing why) when it is missing or malformed, undefined on a system error. */
export async function loadDoc(dir: string, name: 'plan' | 'progress', io: CliIO): Promise<unknown> {
  let files
  try {
    files = (await readWorkspace(dir)).files
  } catch (err) {
    fail(err, io)
    return undefined
  }
  const raw = files[name]
  if (!raw) {
    io.stderr(`memweave small: .small/${name}.small.yml is missing (memweave small init creates it)\n`)
    return null
  }
  const parsed = parseYaml(new TextDecoder().decode(raw as Uint8Array))
  if (parsed.errors.length > 0 || typeof parsed.data !== 'object' || parsed.data === null) {
    io.stderr(`memweave small: .small/${name}.small.yml does not parse; run memweave small validate\n`)
    return null
  }
  return parsed.data
}
