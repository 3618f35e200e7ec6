import { MemweaveError, ErrorCode } from '../core/errors.js'
import { SmallRule } from './findings.js'
import { SMALL_VERSION } from './layout.js'

/**
 * The SMALL harness block of AGENTS.md (SMALL.md "AGENTS.md Semantics"). Only the text between the
 * markers belongs to SMALL tooling: everything outside is kept byte for byte, a block that exists is
 * replaced in place, and a file with two blocks (or a block of another version, or a marker without
 * its partner) is an error rather than something to guess about.
 */
export const HARNESS_BEGIN = `<!-- BEGIN SMALL HARNESS v${SMALL_VERSION} -->`
export const HARNESS_END = `<!-- END SMALL HARNESS v${SMALL_VERSION} -->`

/** append: after the existing content; prepend: before it; overwrite: the file becomes the block alone. */
export const AGENTS_MD_MODES = ['append', 'prepend', 'overwrite'] as const
export type AgentsMdMode = (typeof AGENTS_MD_MODES)[number]

/** Any SMALL harness marker, whatever its version. */
const MARKER = /<!--\s*(BEGIN|END)\s+SMALL\s+HARNESS\s+v?([^\s>]*)\s*-->/g
const HAS_MARKER = new RegExp(MARKER.source)

export interface HarnessBlock {
  /** Offset of the BEGIN marker. */
  readonly start: number
  /** Offset just past the END marker. */
  readonly end: number
  /** The text between the markers (without the newline after BEGIN and before END). */
  readonly content: string
}

function blockError(message: string): MemweaveError {
  return new MemweaveError(ErrorCode.INVALID_ARGUMENT, `AGENTS.md: ${message}`, { field: 'AGENTS.md', file: 'AGENTS.md', pointer: '', rule: SmallRule.AGENTS_MD })
}

/**
 * Finds the harness block: null when there is none.
 * @throws MemweaveError INVALID_ARGUMENT (rule agents-md-block) for two blocks, a marker without
 * its partner, or markers of another protocol version.
 */
export function findHarnessBlock(text: string): HarnessBlock | null {
  const markers = [...text.matchAll(MARKER)].map((m) => ({ kind: m[1]!, version: m[2]!, at: m.index, end: m.index + m[0].length }))
  for (const m of markers) {
    if (m.version !== SMALL_VERSION) {
      throw blockError(`the ${m.kind} SMALL HARNESS marker says version "${m.version}", but markers must carry the protocol version v${SMALL_VERSION}; fix or remove it by hand`)
    }
  }
  const begins = markers.filter((m) => m.kind === 'BEGIN')
  const ends = markers.filter((m) => m.kind === 'END')
  if (begins.length > 1 || ends.length > 1) throw blockError(`found ${Math.max(begins.length, ends.length)} SMALL harness blocks; a file may have only one (merge or remove the extra ones by hand)`)
  if (begins.length === 0 && ends.length === 0) return null
  const begin = begins[0], end = ends[0]
  if (!begin) throw blockError(`found "${HARNESS_END}" without "${HARNESS_BEGIN}" before it`)
  if (!end || end.at < begin.end) throw blockError(`"${HARNESS_BEGIN}" is not closed by "${HARNESS_END}"`)
  const content = text.slice(begin.end, end.at).replace(/^\r?\n/, '').replace(/\r?\n$/, '')
  return { start: begin.at, end: end.end, content }
}

/** The block for `content`: markers on their own lines around it. */
export function renderHarnessBlock(content: string, eol = '\n'): string {
  if (HAS_MARKER.test(content)) {
    throw blockError('the harness content must not contain SMALL HARNESS markers itself')
  }
  const body = content.replace(/\r?\n/g, eol).replace(new RegExp(`${eol}+$`), '')
  return `${HARNESS_BEGIN}${eol}${body}${eol}${HARNESS_END}`
}

/**
 * Writes the harness block into an AGENTS.md (`existing` null: there is no file yet). With a block
 * present, `append` and `prepend` replace it in place; `overwrite` always leaves the block alone in the file.
 * @throws MemweaveError INVALID_ARGUMENT when the existing file's markers are broken (see findHarnessBlock).
 */
export function applyHarnessBlock(existing: string | null, content: string, mode: AgentsMdMode = 'append'): string {
  if (!(AGENTS_MD_MODES as readonly string[]).includes(mode)) throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, `mode: must be one of ${AGENTS_MD_MODES.join(', ')}`, { field: 'mode' })
  const eol = existing?.includes('\r\n') ? '\r\n' : '\n'
  const block = renderHarnessBlock(content, eol)
  if (existing === null || mode === 'overwrite') {
    if (existing !== null) findHarnessBlock(existing) // a broken file is still reported, not silently replaced
    return `${block}${eol}`
  }
  const found = findHarnessBlock(existing)
  if (found) return existing.slice(0, found.start) + block + existing.slice(found.end)
  if (existing === '') return `${block}${eol}`
  if (mode === 'prepend') return `${block}${eol}${eol}${existing}`
  const sep = existing.endsWith(eol) ? eol : `${eol}${eol}`
  return `${existing}${sep}${block}${eol}`
}

/** Removes the block (and one blank line it added), leaving the rest as it was; unchanged when there is none. */
export function removeHarnessBlock(existing: string): string {
  const found = findHarnessBlock(existing)
  if (!found) return existing
  const eol = existing.includes('\r\n') ? '\r\n' : '\n'
  const before = existing.slice(0, found.start)
  const after = existing.slice(found.end).replace(/^(\r?\n){1,2}/, '')
  // An appended block also brought the blank line before it.
  return after === '' && before.endsWith(eol + eol) ? before.slice(0, -eol.length) : before + after
}

/** The default harness: how an agent works with a SMALL workspace. */
export function defaultHarnessContent(): string {
  return [
    '# SMALL Execution Harness',
    '',
    `This repository keeps its project state in \`.small/\` (SMALL v${SMALL_VERSION}). The files there take precedence over this guidance.`,
    '',
    '1. Resume from `.small/handoff.small.yml`: it names the current task, the next steps and the run\'s replayId. Do not rebuild state from plan and progress yourself.',
    '2. Read `.small/intent.small.yml` and `.small/constraints.small.yml`. They are human-owned: never edit them.',
    '3. Keep `.small/plan.small.yml` current; it is yours and may be rewritten.',
    '4. Record every step in `.small/progress.small.yml` by appending an entry with evidence (a command, a test, a commit, a link): `memweave small progress add --task <id> --status <status> --evidence "..."`. Never edit or remove earlier entries.',
    '5. Before stopping, regenerate the handoff: `memweave small handoff`, then check with `memweave small verify`.',
    '6. Never write secrets (keys, tokens, passwords) into `.small/`.',
  ].join('\n')
}
