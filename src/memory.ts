import { ErrorCode, MemweaveError, invalidArgument } from './core/errors.js'
import type { Identity } from './core/identity.js'
import type { Capability } from './facts/capabilities.js'
import type { Embedder } from './core/embedder.js'
import { GmpFactStore } from './facts/store.js'
export { MEMORY_MODULES, type MemoryModule } from './memory-modules.js'
import type { RankParams } from './facts/rank.js'
import type { FactStore } from './facts/types.js'
import { PoolStore } from './pools/store.js'
import type { Pools } from './pools/types.js'
import { indexedDbStorage } from './storage/dexie-adapter.js'
import { memoryStorage } from './storage/memory-adapter.js'
import type { StoragePort } from './storage/port.js'
import { createSmallStore } from './small/store.js'
import type { SmallStore } from './small/store-api.js'
import { WorkingStore } from './working/store.js'
import type { WorkingMemory } from './working/types.js'
import { SmpArtifactStore } from './artifacts/store.js'
import type { ArtifactStore } from './artifacts/types.js'
import { SignatureCache } from './core/signature-cache.js'
import { SignallingStorage } from './sync/commit-signal.js'
import { SyncStore } from './sync/store.js'
import { CONTENT_KINDS } from './sync/content.js'
import type { Sync } from './sync/types.js'

export interface CreateMemoryOptions {
  /** `'memory'` (default in Node), `'indexeddb'` (default where IndexedDB exists), or a storage adapter. */
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
  }
  /** An IndexedDB factory and key range, e.g. fake-indexeddb in Node. */
  readonly indexedDB?: IDBFactory
  readonly IDBKeyRange?: typeof IDBKeyRange
  /** Wall clock in ms, injected by tests. */
  readonly now?: () => number
}

/** An agent's memory: one object composing every protocol module. */
export interface Memory {
  /** GMP facts: write, supersede, retrieve, delete, audit, conflicts. */
  readonly facts: FactStore
  /** LCS-004 memory pools: create, share, revoke, write, query, merge, forget, conflicts, import/export. */
  readonly pools: Pools
  /** FR-001 shared working memory: `await mem.working.open(taskId, config)` returns one task's pool. */
  readonly working: WorkingMemory
  /** SMALL project state: the five `.small/` documents, validated, append-only progress, handoff with replayId. */
  readonly small: SmallStore
  /** SMP knowledge artifacts: create, commit, read, list, search, merge, log; versions kept, forks flagged. */
  readonly artifacts: ArtifactStore
  /** Replication of pools across tabs and devices: one Y.Doc per pool, materialized, links to relays. */
  readonly sync: Sync
  readonly identity: Identity | null
  /** Commits pending writes and closes storage. Idempotent. */
  close(): Promise<void>
}

class MemoryImpl implements Memory {
  readonly facts: GmpFactStore
  readonly pools: PoolStore
  readonly working: WorkingStore
  readonly small: SmallStore
  readonly artifacts: SmpArtifactStore
  readonly sync: SyncStore
  readonly identity: Identity | null

  constructor(facts: GmpFactStore, identity: Identity | null, pools: PoolStore, working: WorkingStore, small: SmallStore, artifacts: SmpArtifactStore, sync: SyncStore) {
    this.facts = facts
    this.sync = sync
    this.artifacts = artifacts
    this.small = small
    this.pools = pools
    this.working = working
    this.identity = identity
  }

  async close(): Promise<void> {
    // Sync stops first (its links, its last persisted updates); the fact store owns the storage and closes it last.
    await this.sync.close()
    await this.working.close()
    await this.artifacts.close()
    await this.small.close()
    await this.pools.close()
    return this.facts.close()
  }
}

function pickStorage(options: CreateMemoryOptions): StoragePort {
  const storage = options.storage ?? (options.indexedDB || typeof indexedDB !== 'undefined' ? 'indexeddb' : 'memory')
  if (typeof storage === 'object' && storage !== null) return storage
  if (storage === 'memory') return memoryStorage()
  if (storage === 'indexeddb') {
    const factory = options.indexedDB ?? (typeof indexedDB === 'undefined' ? undefined : indexedDB)
    if (!factory) {
      throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, 'storage: "indexeddb" needs IndexedDB; pass options.indexedDB (e.g. fake-indexeddb) in Node', { field: 'storage' })
    }
    return indexedDbStorage({
      name: options.name ?? 'memweave',
      indexedDB: factory,
      IDBKeyRange: options.IDBKeyRange ?? globalThis.IDBKeyRange,
    })
  }
  throw invalidArgument('storage', `must be "memory", "indexeddb" or a StoragePort, got ${JSON.stringify(storage)}`)
}

/**
 * Creates an agent memory in this thread, on IndexedDB (browser, worker) or in memory (Node, edge),
 * and loads its state.
 *
 * @throws MemweaveError INVALID_ARGUMENT for bad options; STORAGE / QUOTA_EXCEEDED when storage fails to open.
 * @example
 * const mem = await createMemory({ storage: 'memory' })
 * const ref = await mem.facts.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
 * const hits = await mem.facts.retrieve('where does Aria live?', { budgetTokens: 200 })
 */
export async function createMemory(options: CreateMemoryOptions = {}): Promise<Memory> {
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
  // Every module writes through one port that also signals this Memory's own commits to the sync layer.
  const storage = new SignallingStorage(pickStorage(options))
  const facts = new GmpFactStore(storage, {
    capabilities: options.capabilities,
    identity: options.identity ?? null,
    multiValuedPredicates: options.facts?.multiValuedPredicates,
    embedder: options.facts?.embedder ?? null,
    ranking: options.facts?.ranking,
    now: options.now,
  })
  await facts.refresh() // open storage and load the facts' state now, so errors surface here
  // The fact store opened the storage and owns its lifecycle; pools share it.
  // One set of signature verdicts for the pools module and the sync layer: a synced record is verified once.
  const signatures = new SignatureCache()
  const pools = new PoolStore(storage, { identity: options.identity ?? null, facts, now: options.now, ownsStorage: false, signatures, sharedKinds: CONTENT_KINDS })
  const working = new WorkingStore(storage, {
    identity: options.identity ?? null,
    embedder: options.working?.embedder ?? null,
    now: options.now,
    ownsStorage: false,
    pools: pools.gate,
  })
  const small = createSmallStore(storage, { identity: options.identity ?? null, humans: options.small?.humans, strict: options.small?.strict, now: options.now, ownsStorage: false, pools: pools.gate })
  const artifacts = new SmpArtifactStore(storage, { identity: options.identity ?? null, now: options.now, ownsStorage: false, pools: pools.gate })
  const sync = new SyncStore(storage, {
    onCommit: (listener) => storage.onCommit(listener),
    onApplied: (pool, ids) => pools._synced(pool, ids),
    WebSocketPolyfill: options.sync?.WebSocketPolyfill,
    compactEvery: options.sync?.compactEvery,
    clientId: options.sync?.clientId,
    signatures,
  })
  return new MemoryImpl(facts, options.identity ?? null, pools, working, small, artifacts, sync)
}
