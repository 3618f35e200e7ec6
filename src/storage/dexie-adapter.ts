import type { Dexie } from 'dexie'
// Dexie's ES2018 build rather than its ES5 one behind the package's import wrapper: 1.7 kB gz less in
// a facts-only worker (scripts/bundle-modules.ts), the same version and API. The wrapper's guard is kept below.
import { Dexie as ModernDexie } from 'dexie/dist/modern/dexie.mjs'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { CommitNotices } from './commit-notices.js'
import { translateStorageError } from './errors.js'
import { runIdbTransaction, type LowerBound } from './idb-tx.js'
import type { ReadTx, StoragePort, WriteTx } from './port.js'
import { DEXIE_VERSIONS, SCHEMA } from './schema.js'

/**
 * What memweave needs of an IndexedDB factory: the browser's `indexedDB` or fake-indexeddb's.
 * Declared structurally, so a Node-only TypeScript project compiles memweave's types without the DOM lib.
 */
export interface IndexedDbFactory {
  open(name: string, version?: number): unknown
  deleteDatabase(name: string): unknown
}

/** What memweave needs of `IDBKeyRange` (the browser's or fake-indexeddb's), declared structurally for the same reason. */
export interface IndexedDbKeyRange {
  bound(lower: unknown, upper: unknown, lowerOpen?: boolean, upperOpen?: boolean): unknown
  lowerBound(lower: unknown, open?: boolean): unknown
  upperBound(upper: unknown, open?: boolean): unknown
}

export interface DexieStorageOptions {
  /** The IndexedDB database name. */
  readonly name: string
  /** An IndexedDB factory (fake-indexeddb in Node tests); the global one by default. */
  readonly indexedDB?: IndexedDbFactory
  readonly IDBKeyRange?: IndexedDbKeyRange
}

/**
 * Storage on IndexedDB. Dexie opens the database and upgrades its schema (DEXIE_VERSIONS); each
 * transaction is a native one (idb-tx.ts: Dexie's own cost a single write about a quarter of its
 * time). One adapter owns one database; several adapters (tabs, workers) may open the same
 * database, and each transaction is IndexedDB's own, so atomicity and isolation are the browser's.
 */
export class DexieStorage implements StoragePort {
  readonly kind = 'indexeddb'
  readonly durable = true
  readonly name: string
  readonly #db: Dexie
  /** IDBKeyRange of the factory in use (the global one, or the one passed with an injected factory). */
  readonly #keyRange: LowerBound
  /** What this handle tells the origin's other handles on the database, and hears from them. */
  readonly #notices: CommitNotices

  constructor(options: DexieStorageOptions) {
    this.name = options.name
    const deps = options.indexedDB ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange! } : {}
    this.#db = new (dexieClass())(options.name, { ...deps, autoOpen: false })
    this.#keyRange = (options.IDBKeyRange ?? globalThis.IDBKeyRange) as LowerBound
    for (const { version, stores } of DEXIE_VERSIONS) this.#db.version(version).stores(stores)
    this.#notices = new CommitNotices(options.name)
  }

  async open(): Promise<void> {
    try {
      if (!this.#db.isOpen()) await this.#db.open()
    } catch (err) {
      throw translateStorageError(err, `open database "${this.name}"`)
    }
  }

  async close(): Promise<void> {
    this.#notices.close()
    this.#db.close()
  }

  /**
   * Hears commits of other connections to this database through a BroadcastChannel named after
   * it, which reaches every tab and worker of the origin (and other adapters in this context).
   * The commits of a handle that knows no other one there are announced at most once a second
   * (commit-notices.ts); a handle that watches says so, and is told of every commit at once.
   */
  watch(listener: () => void): () => void {
    return this.#notices.watch(listener)
  }

  /** The open database's native handle; Dexie opened it (and upgraded its schema). */
  #backend(): IDBDatabase {
    if (!this.#db.isOpen()) throw new MemweaveError(ErrorCode.CLOSED, `database "${this.name}" is not open`)
    return this.#db.backendDB()
  }

  async read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T> {
    try {
      return await runIdbTransaction(this.#backend(), tables, 'readonly', this.#keyRange, body)
    } catch (err) {
      throw translateStorageError(err, 'read')
    }
  }

  async write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    try {
      const result = await runIdbTransaction(this.#backend(), tables, 'readwrite', this.#keyRange, body)
      this.#notices.committed()
      return result
    } catch (err) {
      throw translateStorageError(err, 'write')
    }
  }
}

/** Creates IndexedDB storage (browser, worker, or Node with an injected factory). */
export function indexedDbStorage(options: DexieStorageOptions): DexieStorage {
  return new DexieStorage(options)
}

/**
 * The one Dexie of the app, as dexie's import wrapper hands it out: whichever copy registered
 * itself first under `Symbol.for('Dexie')` (the wrapper's or this one), so an app that imports
 * 'dexie' too shares one class; two different versions are refused, as the wrapper refuses them.
 */
function dexieClass(): typeof Dexie {
  const global = globalThis as { [key: symbol]: typeof Dexie | undefined }
  const key = Symbol.for('Dexie')
  const shared = (global[key] ??= ModernDexie)
  if (shared.semVer !== ModernDexie.semVer) throw new Error(`Two different versions of Dexie loaded in the same app: ${ModernDexie.semVer} and ${shared.semVer}`)
  return shared
}
