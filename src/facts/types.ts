import type { JudgeStage } from '../conflict-judge/stage.js'
import type { JudgeMark } from '../conflict-judge/types.js'
import type { Identity } from '../core/identity.js'
import type { Capability } from './capabilities.js'
import type { Embedder } from './embedder.js'

/** An opaque reference to one written fact-version (GMP §1.3). Compare with `===`; never parse it. */
export type FactRef = string & { readonly __brand: 'FactRef' }

/** Where and when a memory came from (GMP §7.5). */
export interface SourceMeta {
  /** The write event's id; equal to the ref. */
  readonly writeId: string
  /** The store's record of the write time, ISO-8601 with microseconds. */
  readonly writtenAt: string
  /** `metadata.session_id` or `metadata.agent_id` when given, else the signer's public key (hex). */
  readonly writtenBy: string | null
  /** Ed25519 signature (64 bytes) over the content fact id, when the write was signed. */
  readonly signature: Uint8Array | null
  /** The signer's Ed25519 public key (32 bytes). */
  readonly publicKey: Uint8Array | null
}

/** A fact-version as retrieve() and audit() return it (GMP Appendix B calls it `Memory`; here `FactMemory`, since a Memory is the agent's whole memory: docs/architecture.md, "Glossary"). */
export interface FactMemory {
  readonly ref: FactRef
  readonly content: string
  readonly writtenAt: string
  readonly metadata: Readonly<Record<string, unknown>>
  /** Start of the valid-time interval; null when the store lacks BI_TEMPORAL. */
  readonly validFrom: string | null
  /** End of the valid-time interval (exclusive); null while open. */
  readonly validUntil: string | null
  readonly tenantId: string | null
  /** The successor's ref once superseded. */
  readonly supersededBy: FactRef | null
  /** Null only when the store lacks PROVENANCE. */
  readonly source: SourceMeta | null
  /** Hex of the content-store fact id (GMP §7.5), the bytes a signed write signs. */
  readonly factId: string
  /** Hex of the structured, tenant-scoped fact id (GMP §1.2) when metadata has subject, predicate and object. */
  readonly structuredId: string | null
  /** Hybrid-logical-clock sequence: strictly increasing per store, sortable as text. */
  readonly sequence: string
  /** Refs of current facts this one contradicts (CONFLICT_DETECTION); empty when none. */
  readonly conflictsWith: readonly FactRef[]
}

export interface WriteOptions {
  /** Honoured with BI_TEMPORAL (default: the write time); ignored without it. */
  readonly validFrom?: Date | string | null
  /** Needs MULTI_TENANT when not null. */
  readonly tenantId?: string | null
  /** JSON-serialisable; `subject`, `predicate`, `object` make the fact structured, `importance` (0..1 or any number) weights ranking. */
  readonly metadata?: Readonly<Record<string, unknown>>
  /** A 32-byte Ed25519 seed or an Identity; the write is signed with it (needs CRYPTOGRAPHIC_PROVENANCE). */
  readonly signingKey?: Uint8Array | string | Identity | null
}

export interface RetrieveOptions {
  /** Total characters of content returned, at most (GMP §4.2). Default 4,000. */
  readonly budgetTokens?: number
  /** Valid-time instant to answer at (needs BI_TEMPORAL); null or absent means current heads. */
  readonly asOf?: Date | string | null
  /** Exact tenant match; null sees only tenant-less memories. Non-null needs MULTI_TENANT. */
  readonly tenantId?: string | null
  /** Upper bound on the number of memories (a hint in GMP; honoured exactly here). */
  readonly topK?: number | null
  /**
   * Only memories the ranker found relevant: a shared term, or episode context lent by a match
   * (docs/retrieval.md). Default false: GMP §4.2 fills the budget, and once the matches are in,
   * the rest (the zero-score tail) follows by importance and recency. With an embedder every
   * memory with a vector has a similarity, so this leaves out none of those.
   */
  readonly matchesOnly?: boolean
}

export interface AssertInput {
  readonly subject: string
  readonly predicate: string
  readonly object: string | number | boolean
  readonly validFrom?: Date | string | null
  readonly tenantId?: string | null
  readonly importance?: number
  /** Text to store; default `"<subject> <predicate with spaces> <object>"`. */
  readonly content?: string
  readonly metadata?: Readonly<Record<string, unknown>>
  readonly signingKey?: WriteOptions['signingKey']
}

/** Two current facts that contradict each other (GMP W7, CONFLICT_DETECTION). */
export interface FactConflict {
  /**
   * `single-valued-predicate`: two current structured facts give one subject's single-valued
   * predicate different objects. `competing-supersession`: two current versions supersede one
   * fact. `free-text`: two current facts written as text alone contradict each other, by the
   * model-free detector (reason says how; docs/conflicts.md).
   */
  readonly kind: 'single-valued-predicate' | 'competing-supersession' | 'free-text'
  readonly refs: readonly [FactRef, FactRef]
  readonly tenantId: string | null
  readonly subject: string | null
  readonly predicate: string | null
  readonly reason: string
  /**
   * `free-text` only: how sure the model-free detector is, in [0, 1] (docs/conflicts.md,
   * "Confidence"). Structured conflicts follow from the records and carry none.
   */
  readonly confidence?: number
  /**
   * Only with a second-stage judge (`conflictJudge` on createMemory/openMemory), on `free-text`
   * conflicts: what the judge said (`judged`: it called the pair a contradiction; pairs it called
   * entailment or neutral are not listed), or that the model-free verdict stands for now
   * (`pending`) or for this session (`unjudged`). docs/conflicts.md, "A second-stage judge".
   */
  readonly judge?: JudgeMark
}

/** What `facts.conflicts()` lists. Plain data, so it crosses the worker boundary as it is. */
export interface ConflictsOptions {
  /** Only this tenant's conflicts (null: the default tenant); every tenant's when absent. */
  readonly tenantId?: string | null
  /**
   * With a second-stage judge: wait until the judge has answered (or failed, or timed out) for the
   * pairs it was asked about, then list. Default false: list at once, unanswered pairs `pending`.
   */
  readonly waitForJudge?: boolean
  /** At most this many pairs (1..100,000, default 10,000): a slot filled with thousands of objects holds millions. */
  readonly limit?: number
  /**
   * List free-text conflicts at this confidence or above. Default 0.8 (`DEFAULT_CONFLICT_THRESHOLD`),
   * where a listed pair is nearly always a real contradiction; lower it (down to 0.2) to see
   * weaker candidates, e.g. to hand them to a model for a second opinion.
   */
  readonly minConfidence?: number
}

export interface RetentionPolicy {
  readonly kind: 'unbounded'
  readonly params: Readonly<Record<string, unknown>>
  readonly coverageGuarantee: string
}

/** What the store declares once (GMP §4.2 tokenizer, §5.1 retention). */
export interface StorePolicy {
  readonly tokenizer: 'characters'
  readonly retention: RetentionPolicy
}

/**
 * The GMP memory store: the TypeScript binding of the GMP interface contract, camelCased,
 * every method async.
 */
export interface FactStore {
  capabilities(): Promise<Capability[]>
  policy(): Promise<StorePolicy>
  write(content: string, options?: WriteOptions): Promise<FactRef>
  assert(fact: AssertInput): Promise<FactRef>
  supersede(oldRef: FactRef | string, content: string, options?: WriteOptions): Promise<FactRef>
  delete(ref: FactRef | string): Promise<boolean>
  retrieve(query: string, options?: RetrieveOptions): Promise<FactMemory[]>
  audit(): Promise<FactMemory[]>
  get(ref: FactRef | string): Promise<FactMemory | null>
  /** Current conflicts, each pair once: at most `limit` (1..100,000, default 10,000). */
  conflicts(options?: ConflictsOptions): Promise<FactConflict[]>
  flush(): Promise<void>
  verifyProvenance(memory: FactMemory, factId: string | Uint8Array): Promise<boolean>
  /** Catches up with other handles' changes now (reads do this on their own). */
  refresh(): Promise<void>
  /** A live query; see GmpFactStore.subscribe. Returns the unsubscribe function. */
  subscribe(query: string, options: RetrieveOptions, callback: (memories: FactMemory[]) => void): Promise<() => void>
  /** A live conflicts() listing; see GmpFactStore.subscribeConflicts. Returns the unsubscribe function. */
  subscribeConflicts(options: ConflictsOptions, callback: (conflicts: FactConflict[]) => void): Promise<() => void>
}

/**
 * What `FactLookup.versionsWhere` returns of a fact-version: the fields a module needs to find and
 * follow its own facts, without the public `FactMemory` that audit() builds (and copies) per version.
 */
export interface FactEntry {
  readonly ref: FactRef
  readonly tenantId: string | null
  /** The stored metadata itself, not a copy: read it, never change it. */
  readonly metadata: Readonly<Record<string, unknown>>
  readonly sequence: string
  readonly supersededBy: FactRef | null
}

/**
 * @internal Finds fact-versions by a metadata value without a full audit(): the pools' fact view
 * (src/pools/fact-view.ts) looks its facts up by pool and memory id on every reconcile.
 */
export interface FactLookup {
  /**
   * Every version, current and superseded, whose `metadata[key]` is the string `value` (or one of
   * the strings `value` lists: one lookup for a batch), all tenants, in sequence order. A key's
   * first lookup indexes every version (O(n)), even of an empty list, which returns none: a reader
   * that reads a whole pool anyway asks so, and its next writes' lookups cost what they return.
   * @throws MemweaveError CAPABILITY_NOT_SUPPORTED without AUDIT (it is a narrow audit).
   */
  versionsWhere(key: string, value: string | readonly string[]): Promise<FactEntry[]>
  /**
   * Keeps `metadata[key]` indexed from now on: asked before the store has read its records, the
   * read fills the index as it goes (O(1) a record), so the first `versionsWhere` of the key after
   * an open costs what it returns, not a pass over every version (issue 31). Once the store holds a
   * version with that key, its heads are indexed for the re-assertion check too (a store without
   * them, facts alone, builds that index on its first write as before).
   */
  indexWhere(key: string): void
  /**
   * Many writes as one mutation, with the results `write` (or `supersede`, for an item with
   * `supersedes`) would give called one after another, in order: the refs in the writes' order, each
   * write seeing the ones before it. One transaction: every input is checked first, and a bad one
   * stores none of them.
   * @throws MemweaveError as `write` and `supersede` do.
   */
  writeMany(writes: readonly FactWrite[]): Promise<FactRef[]>
  /** What `versionsWhere` would say of one version, by ref; null when there is none. */
  entry(ref: string): Promise<FactEntry | null>
  /**
   * The public reads (retrieve, audit, get, conflicts, refresh, live queries) wait until `work`
   * has settled, so that they never answer from a view that is being written in the background.
   * Writes and this interface's own methods do not wait.
   */
  hold(work: Promise<unknown>): void
  /**
   * Each public read first calls `due`, and holds (as `hold`) the work it returns, if any: for what
   * time makes due with no write to start it (a pool memory past its TTL, whose fact must go before
   * a read answers with it). `due` is called on every read: it must be cheap when nothing is due.
   */
  holdWhenDue(due: () => Promise<unknown> | undefined): void
}

/** One write of `FactLookup.writeMany`. */
export interface FactWrite {
  readonly content: string
  readonly options?: WriteOptions
  /** The version this one supersedes (as `supersede(ref, ...)`); absent or null for a fresh write. */
  readonly supersedes?: string | null
}

/** The knobs of the default ranker; the defaults are what docs/retrieval.md measures. */
export interface RankParams {
  /** BM25 term-frequency saturation. */
  readonly k1: number
  /** BM25 length normalisation. */
  readonly b: number
  /**
   * Episode context: a memory gets `context` × the relevance of a memory written next to it
   * (0 turns it off). Below 1, so a neighbour never passes the memory that matched.
   */
  readonly context: number
  /** How many write-order neighbours on each side receive context. */
  readonly contextReach: number
  /** Factor per extra step of distance: the second neighbour gets `context × contextDecay`. */
  readonly contextDecay: number
  /** Neighbours whose valid-from times differ by more than this (µs) belong to another episode. */
  readonly contextGap: number
  /** Only the best this-many matches lend context (bounds the cost on large stores). */
  readonly contextSources: number
}

export interface FactStoreOptions {
  readonly capabilities?: readonly Capability[]
  readonly identity?: Identity | null
  /** Predicates that may hold several objects at once (no conflict between them). */
  readonly multiValuedPredicates?: readonly string[]
  readonly embedder?: Embedder | null
  /** Overrides of the default ranker (e.g. `{ context: 0 }` turns episode context off); see docs/retrieval.md. */
  readonly ranking?: Partial<RankParams>
  /**
   * Flag contradictions between free-text facts (no subject/predicate/object), each new fact
   * compared with its nearest lexical neighbours. Default true.
   */
  readonly freeTextConflicts?: boolean
  /** The second-stage judge of free-text conflicts (built from the `conflictJudge` option); none by default. */
  readonly judge?: JudgeStage | null
  /** Injected for tests: wall clock in ms. */
  readonly now?: () => number
  /**
   * Save a lexical snapshot (restored on the next open instead of tokenizing every fact) only
   * once the store indexes at least this many facts. Default 1,000: below that, tokenizing on
   * open takes a few milliseconds and a snapshot would only add a write. @internal (tests)
   */
  readonly lexicalSnapshotMin?: number
}
