import { ErrorCode, MemweaveError, invalidArgument } from './core/errors.js'
import type { Identity } from './core/identity.js'
import type { Capability } from './facts/capabilities.js'
import type { Embedder } from './facts/embedder.js'
import { GmpFactStore } from './facts/store.js'
import type { FactStore } from './facts/types.js'
import { indexedDbStorage } from './storage/dexie-adapter.js'
import { memoryStorage } from './storage/memory-adapter.js'
import type { StoragePort } from './storage/port.js'

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
  readonly identity: Identity | null
  /** Commits pending writes and closes storage. Idempotent. */
  close(): Promise<void>
}

class MemoryImpl implements Memory {
  readonly facts: GmpFactStore
  readonly identity: Identity | null

  constructor(facts: GmpFactStore, identity: Identity | null) {
    this.facts = facts
    this.identity = identity
  }

  close(): Promise<void> {
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
  const storage = pickStorage(options)
  const facts = new GmpFactStore(storage, {
    capabilities: options.capabilities,
    identity: options.identity ?? null,
    multiValuedPredicates: options.facts?.multiValuedPredicates,
    embedder: options.facts?.embedder ?? null,
    now: options.now,
  })
  await facts.audit().catch(async (err: unknown) => {
    // audit() is the cheapest full load; a store built without AUDIT still needs loading.
    if ((err as MemweaveError).code === ErrorCode.CAPABILITY_NOT_SUPPORTED) return facts.retrieve('', { budgetTokens: 0 })
    throw err
  })
  return new MemoryImpl(facts, options.identity ?? null)
}
