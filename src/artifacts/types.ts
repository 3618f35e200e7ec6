import type { ArtifactSlug } from './slug.js'

/** The id of one immutable artifact version record. Compare with `===`; never parse it. */
export type ArtifactVersionId = string & { readonly __brand: 'ArtifactVersionId' }

/** SMP §2.6 actions (`synced` is the schema's addition for workspace sync). */
export const ProvenanceAction = {
  CREATED: 'created',
  UPDATED: 'updated',
  MERGED: 'merged',
  SYNCED: 'synced',
} as const

export type ProvenanceAction = (typeof ProvenanceAction)[keyof typeof ProvenanceAction]

/** One entry of the append-only provenance log (SMP §2.6). Unknown keys are kept. */
export interface ProvenanceEntry {
  readonly agent: string
  readonly action: ProvenanceAction
  /** ISO 8601, kept as the string that was written. */
  readonly timestamp: string
  readonly message?: string
  readonly confidence?: number
  readonly syncSource?: string
  readonly [key: string]: unknown
}

/** Knowledge-artifact frontmatter (SMP §2.2, §2.3). Timestamps stay strings; unknown keys are kept. */
export interface ArtifactFrontmatter {
  readonly awp: string
  readonly smp: string
  readonly type: 'knowledge-artifact'
  /** `artifact:<slug>`. */
  readonly id: string
  readonly title: string
  readonly authors: readonly string[]
  readonly version: number
  readonly confidence?: number
  readonly tags?: readonly string[]
  readonly created: string
  readonly lastModified?: string
  readonly modifiedBy?: string
  readonly provenance: readonly ProvenanceEntry[]
  readonly [key: string]: unknown
}

/** A problem found by validation: the frontmatter field (or `frontmatter`, `slug`, `body`) and what is wrong. */
export interface ArtifactProblem {
  /** A path such as `provenance[0].action`. */
  readonly field: string
  readonly message: string
}

/** An artifact version as `read` returns it. Plain data: it crosses worker boundaries. */
export interface Artifact {
  readonly slug: ArtifactSlug
  /** This version's record id. */
  readonly versionId: ArtifactVersionId
  readonly version: number
  readonly frontmatter: ArtifactFrontmatter
  /** The Markdown body: every byte after the closing `---` line. */
  readonly body: string
  /** The whole artifact file (`artifacts/<slug>.md`), byte for byte. */
  readonly text: string
  /** The versions this one was made from: none for a created or imported root, two or more for a merge of a fork. */
  readonly parents: readonly ArtifactVersionId[]
  /** True when the artifact has forked: two or more current heads. `merge(slug, slug)` resolves it. */
  readonly conflicted: boolean
  /** The artifact's current heads, winner first (the one `read` returns by default). */
  readonly heads: readonly ArtifactVersionId[]
  /** The pool this version was shared through, or null. */
  readonly pool: string | null
}

/** One row of `list`. */
export interface ArtifactSummary {
  readonly slug: ArtifactSlug
  readonly id: string
  readonly title: string
  readonly version: number
  readonly confidence: number | null
  readonly tags: readonly string[]
  readonly authors: readonly string[]
  readonly lastModified: string | null
  readonly conflicted: boolean
  /** The pool the current head was shared through, or null. */
  readonly pool: string | null
}

/** One result of `search`, best first. */
export interface ArtifactSearchHit extends ArtifactSummary {
  /** Relevance; higher is better. Comparable within one search only. */
  readonly score: number
  /** Where the query matched. */
  readonly matchedIn: ReadonlyArray<'title' | 'tags' | 'body'>
  /** Up to ~100 characters of body text around the first match, or `''`. */
  readonly snippet: string
}

/** One version record, as `history` lists it. */
export interface ArtifactVersionInfo {
  readonly versionId: ArtifactVersionId
  readonly version: number
  readonly parents: readonly ArtifactVersionId[]
  /** The writer's DID, or null when the store had no identity. */
  readonly author: string | null
  /** When it was written, ISO 8601 (from the store's hybrid logical clock). */
  readonly writtenAt: string
  readonly head: boolean
}

export interface CreateArtifactInput {
  /** Default: the slug in title case (`llm-context` → `Llm Context`), as AWP does. */
  readonly title?: string
  /** The Markdown body, stored byte for byte. Default `''`. */
  readonly body?: string
  readonly tags?: readonly string[]
  /** 0..1; recorded in the `created` provenance entry too. */
  readonly confidence?: number
  readonly message?: string
  /**
   * Share the artifact through this pool: every version of it (commits and merges follow their
   * parent) is a signed record in the pool and replicates to its members (mem.sync). Needs write
   * access; an encrypted pool refuses (CAPABILITY_NOT_SUPPORTED).
   */
  readonly pool?: string
}

export interface CommitArtifactInput {
  /** The new body; default: the parent's, unchanged. */
  readonly body?: string
  readonly title?: string
  /** Replaces the tags. */
  readonly tags?: readonly string[]
  /** 0..1; replaces the top-level confidence and is recorded in the provenance entry. */
  readonly confidence?: number
  /** The provenance message (required: a commit says why). */
  readonly message: string
  /** Fail with CONFLICT unless the artifact is at exactly this version and not forked. */
  readonly expectedVersion?: number
  /**
   * The version this edit was made from (the `versionId` the editor read). When the artifact has
   * moved on since, the commit is kept beside it as a fork instead of silently replacing it.
   * Default: the current head.
   */
  readonly basedOn?: string
}

export interface MergeArtifactInput {
  readonly message?: string
  /**
   * The merged confidence. Default, per SMP §4.6: the minimum of the artifacts merged.
   * Give one only when the merging agent has its own assessment (the spec's Appendix B example does).
   */
  readonly confidence?: number
  /** Fail with CONFLICT unless the target is at exactly this version. */
  readonly expectedVersion?: number
}

export interface ReadArtifactOptions {
  /** A version number (the one on the current head's line when a fork has two) or a version id. Default: the current head. */
  readonly version?: number | string
}

export interface ListArtifactsOptions {
  /** Only artifacts with this tag (case-insensitive). */
  readonly tag?: string
}

export interface SearchArtifactsOptions {
  /** At most this many hits. Default: all. */
  readonly limit?: number
}

export interface ImportArtifactOptions {
  /** The slug the file is stored under (its file name); the frontmatter `id` must agree. */
  readonly slug?: string
  /** Share a new artifact through this pool (as `create`); a later version stays in its parent's pool. */
  readonly pool?: string
}

/** What `import` did with a file. */
export interface ArtifactImportResult {
  readonly slug: ArtifactSlug
  readonly versionId: ArtifactVersionId
  readonly version: number
  /**
   * `created`: new to the store; `updated`: a later version of the stored head; `unchanged`: the
   * store already has these exact bytes; `forked`: it continues an earlier stored version, so it
   * was kept beside the head as a fork.
   */
  readonly status: 'created' | 'updated' | 'unchanged' | 'forked'
}

/**
 * SMP knowledge artifacts (shared/specs/SMP.md) in a memweave store: versioned, provenanced,
 * confidence-scored Markdown documents with YAML frontmatter. Every version is an immutable
 * record; heads, forks and conflicts are derived.
 */
export interface ArtifactStore {
  /**
   * Creates an artifact at version 1 with a `created` provenance entry (SMP §4.1).
   * @throws MemweaveError INVALID_ARGUMENT (field named) for bad input; CONFLICT when the slug exists.
   */
  create(slug: string, input?: CreateArtifactInput): Promise<Artifact>
  /**
   * Records a new version (SMP §4.2): version + 1, `updated` provenance entry.
   * @throws MemweaveError NOT_FOUND; INVALID_ARGUMENT; CONFLICT for a stale `expectedVersion` or a forked artifact.
   */
  commit(slug: string, input: CommitArtifactInput): Promise<Artifact>
  /** Reads the current head or an earlier version (SMP §4.3). @throws MemweaveError NOT_FOUND. */
  read(slug: string, options?: ReadArtifactOptions): Promise<Artifact>
  /** Artifacts by slug, optionally with a tag (SMP §4.4). */
  list(options?: ListArtifactsOptions): Promise<ArtifactSummary[]>
  /** Ranked, case-insensitive search of title, tags and body (SMP §4.5). @throws MemweaveError INVALID_ARGUMENT for an empty query. */
  search(query: string, options?: SearchArtifactsOptions): Promise<ArtifactSearchHit[]>
  /**
   * Additive merge of `source` into `target` (SMP §4.6); `merge(slug, slug)` resolves a fork.
   * @throws MemweaveError NOT_FOUND; INVALID_ARGUMENT; CONFLICT for a stale `expectedVersion`.
   */
  merge(target: string, source: string, input?: MergeArtifactInput): Promise<Artifact>
  /** The provenance of the current head, oldest first (SMP §5.2 `log`). @throws MemweaveError NOT_FOUND. */
  log(slug: string): Promise<ProvenanceEntry[]>
  /** Every version record of an artifact, oldest first. @throws MemweaveError NOT_FOUND. */
  history(slug: string): Promise<ArtifactVersionInfo[]>
  /**
   * Stores an artifact file as it is (byte for byte), after validating it.
   * @throws MemweaveError INVALID_ARGUMENT (field named) for an invalid file; CONFLICT when it is older than, or unrelated to, the stored artifact.
   */
  import(text: string, options?: ImportArtifactOptions): Promise<ArtifactImportResult>
  /** Resolves once every mutation called before it has committed (or failed). */
  flush(): Promise<void>
  /** Catches up with what other handles on the same storage committed. */
  refresh(): Promise<void>
}
