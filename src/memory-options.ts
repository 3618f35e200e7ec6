import type { Identity } from './core/identity.js'
import type { Capability } from './facts/capabilities.js'
import type { Embedder } from './core/embedder.js'
import type { RankParams } from './facts/types.js'
import type { IndexedDbFactory, IndexedDbKeyRange } from './storage/dexie-adapter.js'
import type { StoragePort } from './storage/port.js'
import type { ConflictJudgeOptions } from './conflict-judge/types.js'

export interface CreateMemoryOptions {
  /** `'memory'` (default in Node), `'indexeddb'` (default where IndexedDB exists), or a storage adapter (files on disk in Node: `fileStorage({ dir })` from `memweave/node`). */
  readonly storage?: 'memory' | 'indexeddb' | StoragePort
  /** IndexedDB database name. Default `'memweave'`. */
  readonly name?: string
  /** The agent's identity: its DID authors every record, and its key signs facts (CRYPTOGRAPHIC_PROVENANCE). */
  readonly identity?: Identity | null
  /** Build the store with only these GMP capabilities (default: all memweave claims). */
  readonly capabilities?: readonly Capability[]
  readonly facts?: {
    /** Predicates that may hold several objects at once (no conflict between them). */
    readonly multiValuedPredicates?: readonly string[]
    /** Semantic vectors for retrieval; optional, lexical ranking is the default. */
    readonly embedder?: Embedder | null
    /** Overrides of the default ranker, e.g. `{ context: 0 }` for unrelated bulk imports (docs/retrieval.md). */
    readonly ranking?: Partial<RankParams>
    /**
     * Flag contradictions between facts written as text alone (no subject/predicate/object) in
     * `facts.conflicts()`, found among each new fact's nearest neighbours. Default true.
     */
    readonly freeTextConflicts?: boolean
  }
  readonly working?: {
    /** Embeds observation topics for conflict detection (FR-001.3). Default `hashEmbedder()`: no model, no network. */
    readonly embedder?: Embedder | null
  }
  readonly small?: {
    /** DIDs of the identities that act for people: only they may write SMALL intent and constraints (src/small/ownership.ts). */
    readonly humans?: readonly string[]
    /** Strict writes: a suspected secret refuses the write instead of warning. */
    readonly strict?: boolean
  }
  readonly sync?: {
    /** The WebSocket class for `mem.sync.connect()` where the runtime has none (Node 20: the `ws` package's). */
    readonly WebSocketPolyfill?: unknown
    /** Compact a pool's persisted Yjs updates once it has this many rows. Default 100. */
    readonly compactEvery?: number
    /** Yjs client ids for new pool documents (tests: reproducible runs). Random by default. */
    readonly clientId?: () => number
    /** On a pool owner's replica: sign a checkpoint once this many records are covered by none (docs/sync.md, "Checkpoints"). Default 1000; 0: none. */
    readonly checkpointEvery?: number
    /** Take the owner's valid checkpoints in place of per-record signature checks. Default true. */
    readonly trustCheckpoints?: boolean
    /**
     * A change of this many records or more arriving at once (a join of a big pool) makes the pool
     * `synced` once it is stored and in `mem.pools`; its fact view is written after, and `mem.facts`
     * reads wait for it (docs/sync.md). Default 10,000.
     */
    readonly backgroundFrom?: number
  }
  /**
   * A second-stage judge for the contradictions the model-free detector proposes, in facts and in
   * working memory: `{ judge: nliConflictJudge(pipeline, { id }) }` or `{ judge: llmConflictJudge({ model }) }`
   * (memweave/ai). Asked in the background, its verdicts stored; a failing or slow judge never
   * blocks or fails a write. docs/conflicts.md, "A second-stage judge". Default: none.
   */
  readonly conflictJudge?: ConflictJudgeOptions
  /** An IndexedDB factory and key range, e.g. fake-indexeddb in Node. */
  readonly indexedDB?: IndexedDbFactory
  readonly IDBKeyRange?: IndexedDbKeyRange
  /** Wall clock in ms, injected by tests. */
  readonly now?: () => number
}
