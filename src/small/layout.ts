/**
 * The shape of a SMALL v1.0.0 workspace (specs/SMALL.md "Canonical Artifacts", "Ownership Rules",
 * "Strict Layout Boundary"): which documents exist, what their files are called, who owns them.
 */

/** The protocol version every canonical document carries, as an exact string. */
export const SMALL_VERSION = '1.0.0' as const

/** The directory that holds the canonical documents, relative to the workspace root. */
export const SMALL_DIR = '.small' as const
/** Where operational data lives (outside `.small/`, SMALL.md §8). memweave keeps its progress ledger here. */
export const SMALL_CACHE_DIR = '.small-cache' as const
/** The one subdirectory of `.small/` that strict mode allows: extensions. */
export const SMALL_EXT_DIR = 'ext' as const

/** The five canonical documents, in the order a person reads them. */
export const CANONICAL_DOCS = ['intent', 'constraints', 'plan', 'progress', 'handoff'] as const
export type CanonicalDocName = (typeof CANONICAL_DOCS)[number]

/** The canonical documents plus `workspace.small.yml` (run identity, SMALL.md §6). */
export const SMALL_DOCS = [...CANONICAL_DOCS, 'workspace'] as const
export type SmallDocName = (typeof SMALL_DOCS)[number]

/** Who may write a document: intent and constraints are the humans', plan and progress the agents'. */
export const OWNERSHIP = {
  intent: 'human',
  constraints: 'human',
  plan: 'agent',
  progress: 'agent',
  handoff: 'shared',
  workspace: 'shared',
} as const satisfies Record<SmallDocName, 'human' | 'agent' | 'shared'>

/** `intent` -> `intent.small.yml`. */
export function fileNameOf(name: SmallDocName): string {
  return `${name}.small.yml`
}

/** `intent` -> `.small/intent.small.yml`: how findings name a file. */
export function filePathOf(name: SmallDocName): string {
  return `${SMALL_DIR}/${fileNameOf(name)}`
}

/** `intent.small.yml` (or `.small/intent.small.yml`) -> `intent`; null for anything else. */
export function docNameOf(file: string): SmallDocName | null {
  const base = file.startsWith(`${SMALL_DIR}/`) ? file.slice(SMALL_DIR.length + 1) : file
  const m = /^([a-z]+)\.small\.yml$/.exec(base)
  return m && (SMALL_DOCS as readonly string[]).includes(m[1]!) ? (m[1] as SmallDocName) : null
}

export function isSmallDocName(value: unknown): value is SmallDocName {
  return typeof value === 'string' && (SMALL_DOCS as readonly string[]).includes(value)
}
