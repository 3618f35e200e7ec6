import type { Identity } from '../core/identity.js'
import type { Finding, ValidationReport } from './findings.js'
import type { HandoffOptions } from './handoff.js'
import type { SmallDocName } from './layout.js'
import type { ProgressEntryInput } from './progress.js'
import type { SmallConflict } from './state.js'
import type { HandoffDoc, ProgressEntry, SmallDocs } from './types.js'
import type { ReplayCheck } from './validate.js'

/** Which project's documents (one memory can hold several workspaces). Default `'default'`. */
export interface SmallProjectOptions {
  readonly project?: string
}

export interface SmallWriteOptions extends SmallProjectOptions {
  /** Who writes: default the memory's identity. Only identities listed in `small.humans` may write intent and constraints. */
  readonly identity?: Identity | null
  /**
   * Share the project through this pool: the write's records travel in the pool (mem.sync) and a
   * later write to the project follows them there. In a shared project the pool's owner and its
   * `humans` policy act for people, on every replica alike. Needs write access for the writer.
   */
  readonly pool?: string
}

export interface SmallWriteResult {
  readonly name: SmallDocName
  /** Whether anything was stored (writing the same document again stores nothing). */
  readonly changed: boolean
  /** Ids of the records written. */
  readonly records: readonly string[]
  /** Findings that did not stop the write (a suspected secret outside strict mode). */
  readonly warnings: readonly Finding[]
}

export interface SmallDocument<N extends SmallDocName = SmallDocName> {
  readonly name: N
  readonly data: SmallDocs[N]
  /** The document as YAML, formatted as it was written (what `export()` gives). */
  readonly text: string
  /** The record id of this version (for progress: of the latest entry). */
  readonly version: string | null
  readonly author: string | null
}

export interface SmallValidation extends ValidationReport {
  readonly replay: ReplayCheck | null
}

/**
 * SMALL project state in the memory (specs/SMALL.md): the five canonical documents plus
 * `workspace.small.yml`, stored as immutable records and checked by exactly the validator the
 * `memweave small` command uses on `.small/` folders.
 *
 * @example
 * const mem = await createMemory({ identity: agent, small: { humans: [person.did] } })
 * await mem.small.put('intent', intentYaml, { identity: person })   // human-owned
 * await mem.small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Do it' }] })
 * await mem.small.appendProgress({ task_id: 't1', status: 'in_progress', command: 'npm test' })
 * const handoff = await mem.small.handoff()
 */
export interface SmallStore {
  /**
   * The current version of a document, or null when it was never written.
   * @throws MemweaveError INVALID_ARGUMENT for an unknown document name.
   */
  get<N extends SmallDocName>(name: N, options?: SmallProjectOptions): Promise<SmallDocument<N> | null>
  /**
   * Writes a document, given as YAML text (kept as written) or as data (patched into the previous
   * YAML, so unchanged parts keep their formatting and comments). For `progress`, the document's
   * entries must begin with every stored entry, unchanged: only new entries at the end are appended.
   * @throws MemweaveError INVALID_ARGUMENT when the document fails its schema or an invariant
   * (`details`: file, pointer, rule, findings); PERMISSION_DENIED when an agent writes intent or
   * constraints; CONFLICT when a progress write edits or removes a stored entry.
   */
  put(name: SmallDocName, content: string | object, options?: SmallWriteOptions): Promise<SmallWriteResult>
  /**
   * Appends one progress entry. Without a timestamp it gets one (never earlier than the last
   * entry's); a run-bound entry without a replayId gets the current run's.
   * @throws MemweaveError INVALID_ARGUMENT for an entry without evidence, a bad or non-increasing timestamp, or a schema error.
   */
  appendProgress(entry: ProgressEntryInput, options?: SmallWriteOptions): Promise<ProgressEntry>
  /**
   * Regenerates and stores the handoff from the plan and progress, with the run's replayId.
   * @throws MemweaveError INVALID_ARGUMENT when intent or plan is missing (the replayId needs them).
   */
  handoff(options?: HandoffOptions & SmallWriteOptions): Promise<HandoffDoc>
  /** Validates the project like `memweave small verify` does a folder (strict: the strict rules too). */
  validate(options?: SmallProjectOptions & { readonly strict?: boolean }): Promise<SmallValidation>
  /**
   * Stores a workspace read from files (keys: `intent.small.yml`, `.small/intent.small.yml` or `intent`).
   * Every document is checked (and ownership enforced) before anything is written.
   */
  import(files: Readonly<Record<string, string>>, options?: SmallWriteOptions): Promise<SmallWriteResult[]>
  /** The project's documents as files: `{ 'intent.small.yml': '...', ... }`. */
  export(options?: SmallProjectOptions): Promise<Record<string, string>>
  /** The automatic replayId of the current intent, plan and constraints. */
  replayId(options?: SmallProjectOptions): Promise<string>
  /** Forks (two versions replacing the same one) and refused records (an agent's intent), flagged, never decided silently. */
  conflicts(options?: SmallProjectOptions): Promise<SmallConflict[]>
  /** The projects that have SMALL documents. */
  projects(): Promise<string[]>
  /** Resolves once every write called before it has committed (or failed). */
  flush(): Promise<void>
  /** Commits pending writes. Idempotent. */
  close(): Promise<void>
}
