import { invalidArgument } from '../core/errors.js'

/**
 * A tiny command-line parser (no dependency): `--name value`, `--name=value`, boolean
 * `--flag`, short aliases (`-h`), and `--` to end the flags. Unknown flags are errors.
 */

export interface FlagSpec {
  readonly type: 'string' | 'boolean'
  /** One-letter alias, without the dash. */
  readonly short?: string
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>

export type FlagValues<S extends FlagSpecs> = { -readonly [K in keyof S]?: S[K]['type'] extends 'boolean' ? boolean : string }

export interface ParsedArgs<S extends FlagSpecs> {
  readonly values: FlagValues<S>
  readonly positionals: readonly string[]
}

/**
 * Parses `argv` (without the program and command names) against `specs`; a repeated flag keeps its last value.
 * @throws MemweaveError INVALID_ARGUMENT for an unknown flag, a missing value, or a value given to a boolean flag.
 */
export function parseArgs<S extends FlagSpecs>(argv: readonly string[], specs: S): ParsedArgs<S> {
  const values: Record<string, string | boolean> = {}
  const positionals: string[] = []
  const byShort = new Map(Object.entries(specs).filter(([, s]) => s.short).map(([name, s]) => [s.short!, name]))
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1))
      break
    }
    let name: string | undefined
    let inline: string | undefined
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq)
      inline = eq < 0 ? undefined : arg.slice(eq + 1)
    } else if (/^-[A-Za-z]$/.test(arg)) {
      name = byShort.get(arg.slice(1))
      if (name === undefined) throw invalidArgument(arg, 'unknown option')
    } else {
      positionals.push(arg)
      continue
    }
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined
    if (!spec) throw invalidArgument(`--${name}`, 'unknown option')
    if (spec.type === 'boolean') {
      if (inline !== undefined) throw invalidArgument(`--${name}`, 'takes no value')
      values[name] = true
    } else if (inline !== undefined) {
      values[name] = inline
    } else {
      const next = argv[i + 1]
      if (next === undefined) throw invalidArgument(`--${name}`, 'needs a value')
      values[name] = next
      i++
    }
  }
  return { values: values as FlagValues<S>, positionals }
}
