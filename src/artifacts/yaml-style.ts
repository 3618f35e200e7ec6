import { Scalar } from 'yaml'

/**
 * How memweave writes a new YAML string: the way AWP's own tool writes artifact files (gray-matter
 * over js-yaml 3's `safeDump`), so a file written by either tool reads the same and the tool's
 * files re-serialize to the same bytes (shared/specs/smp/fixtures/repo-artifacts):
 *
 * - plain when js-yaml 3 allows it: no `, [ ] { } : #` anywhere, no indicator first, no
 *   leading/trailing blank, and nothing a YAML 1.1 reader would take for another type
 *   (`'1.0'`, `'2026-05-12T16:54:56.947Z'`, `'yes'`, `'null'`);
 * - single-quoted otherwise (double-quoted in a file that uses double quotes only);
 * - double-quoted when it holds a character YAML cannot print;
 * - a literal block (`|`) when it spans lines.
 *
 * Deviation, on purpose: js-yaml folds strings longer than 80 columns (`>-`); memweave keeps
 * them on one line, so a long commit message stays greppable.
 */
export type QuoteStyle = typeof Scalar.QUOTE_SINGLE | typeof Scalar.QUOTE_DOUBLE

// js-yaml 3 `isPlainSafeFirst`: the c-indicators and white space.
const UNSAFE_FIRST = new Set([...'-?:,[]{}#&*!|>\'"%@`'])
// js-yaml 3 `isPlainSafe`: the flow indicators, ':' and '#', anywhere.
const UNSAFE_ANYWHERE = new Set([...',[]{}:#'])

// What YAML 1.1 (js-yaml's DEFAULT_SAFE_SCHEMA, and its deprecated booleans) or YAML 1.2 core
// would read as something other than a string. Quoting one of these is never wrong.
const AMBIGUOUS: readonly RegExp[] = [
  /^(?:~|null|Null|NULL)$/,
  /^(?:true|True|TRUE|false|False|FALSE)$/,
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/,
  /^[-+]?(?:0b[01_]+|0x[0-9a-fA-F_]+|0o[0-7]+|0[0-7_]+|[0-9][0-9_]*)$/,
  /^[-+]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)?$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
  /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt ].*)?$/,
  /^<<$/,
]

/** js-yaml 3 `isPrintable`, by code point (so an emoji is printable). */
function isPrintable(c: number): boolean {
  return (
    (c >= 0x20 && c <= 0x7e) ||
    (c >= 0xa1 && c <= 0xd7ff && c !== 0x2028 && c !== 0x2029) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) ||
    (c >= 0x10000 && c <= 0x10ffff)
  )
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t'

/** Whether js-yaml 3 would write `value` plain, in a block context. */
export function isPlainSafe(value: string): boolean {
  if (value === '') return false
  const first = value[0]!
  if (UNSAFE_FIRST.has(first) || isBlank(first) || isBlank(value.at(-1))) return false
  for (const ch of value) {
    if (UNSAFE_ANYWHERE.has(ch) || !isPrintable(ch.codePointAt(0)!)) return false
  }
  return !AMBIGUOUS.some((re) => re.test(value))
}

/**
 * The scalar type for a string written by memweave. `keep` is the type the node had in the file,
 * kept when it can hold the new value (a file's own quoting survives an edit).
 */
export function stringStyle(value: string, quote: QuoteStyle, keep?: Scalar.Type): Scalar.Type {
  let multiline = false
  for (const ch of value) {
    if (ch === '\n') multiline = true
    else if (!isPrintable(ch.codePointAt(0)!)) return Scalar.QUOTE_DOUBLE
  }
  if (multiline) return keep === Scalar.BLOCK_FOLDED || keep === Scalar.QUOTE_DOUBLE ? keep : Scalar.BLOCK_LITERAL
  if (keep === Scalar.QUOTE_SINGLE || keep === Scalar.QUOTE_DOUBLE) return keep
  return isPlainSafe(value) ? Scalar.PLAIN : quote
}
