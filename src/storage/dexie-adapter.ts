import { Dexie, type Table, type Transaction } from 'dexie'
import { translateStorageError } from './errors.js'
import type { Key, ReadTx, StoragePort, WriteTx } from './port.js'
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
 * Storage on IndexedDB through Dexie. One adapter owns one database; several adapters (tabs,
 * workers) may open the same database, and each transaction is IndexedDB's own, so atomicity and
 * isolation are the browser's.
 */
export class DexieStorage implements StoragePort {
  readonly kind = 'indexeddb'
  readonly durable = true
  readonly name: string
  readonly #db: Dexie
  #channel: BroadcastChannel | undefined
  readonly #watchers = new Set<() => void>()

  constructor(options: DexieStorageOptions) {
    this.name = options.name
    const deps = options.indexedDB ? { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange! } : {}
    this.#db = new Dexie(options.name, { ...deps, autoOpen: false })
    for (const { version, stores } of DEXIE_VERSIONS) this.#db.version(version).stores(stores)
  }

  async open(): Promise<void> {
    try {
      if (!this.#db.isOpen()) await this.#db.open()
    } catch (err) {
      throw translateStorageError(err, `open database "${this.name}"`)
    }
  }

  async close(): Promise<void> {
    this.#channel?.close()
    this.#channel = undefined
    this.#watchers.clear()
    this.#db.close()
  }

  /**
   * Hears commits of other connections to this database through a BroadcastChannel named after
   * it, which reaches every tab and worker of the origin (and other adapters in this context).
   */
  watch(listener: () => void): () => void {
    this.#watchers.add(listener)
    this.#ensureChannel()
    return () => void this.#watchers.delete(listener)
  }

  #ensureChannel(): BroadcastChannel | undefined {
    if (this.#channel || typeof BroadcastChannel === 'undefined') return this.#channel
    this.#channel = new BroadcastChannel(`memweave-db:${this.name}`)
    // Node keeps a process alive while a channel is open; a store must not.
    ;(this.#channel as { unref?: () => void }).unref?.()
    this.#channel.onmessage = () => {
      for (const listener of [...this.#watchers]) listener()
    }
    return this.#channel
  }

  async read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T> {
    try {
      return await this.#db.transaction('r', tables as string[], (trans) => body(new DexieTx(trans)))
    } catch (err) {
      throw translateStorageError(err, 'read')
    }
  }

  async write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    try {
      const result = await this.#db.transaction('rw', tables as string[], (trans) => body(new DexieTx(trans)))
      this.#ensureChannel()?.postMessage({ type: 'committed', v: 1 })
      return result
    } catch (err) {
      throw translateStorageError(err, 'write')
    }
  }
}

/**
 * Every call goes through `trans.table()`, which binds the operation to this transaction
 * explicitly. Relying on Dexie's implicit zone instead loses the transaction after an `await`
 * on a native promise, and the rest of the body would silently run in fresh transactions.
 */
class DexieTx implements WriteTx {
  readonly #trans: Transaction

  constructor(trans: Transaction) {
    this.#trans = trans
  }

  #t(table: string): Table<any, Key> {
    return this.#trans.table(table)
  }

  get<T>(table: string, key: Key): Promise<T | undefined> {
    return this.#t(table).get(key) as Promise<T | undefined>
  }

  getMany<T>(table: string, keys: readonly Key[]): Promise<Array<T | undefined>> {
    return this.#t(table).bulkGet(keys as Key[]) as Promise<Array<T | undefined>>
  }

  all<T>(table: string): Promise<T[]> {
    return this.#t(table).toArray() as Promise<T[]>
  }

  after<T>(table: string, after: Key, limit = Infinity): Promise<T[]> {
    const coll = this.#t(table).where(':id').above(after)
    return (Number.isFinite(limit) ? coll.limit(limit) : coll).toArray() as Promise<T[]>
  }

  last<T>(table: string): Promise<T | undefined> {
    return this.#t(table).orderBy(':id').last() as Promise<T | undefined>
  }

  where<T>(table: string, index: string, value: Key): Promise<T[]> {
    return this.#t(table).where(index).equals(value).toArray() as Promise<T[]>
  }

  countWhere(table: string, index: string, value: Key): Promise<number> {
    return this.#t(table).where(index).equals(value).count()
  }

  count(table: string): Promise<number> {
    return this.#t(table).count()
  }

  async put(table: string, rows: readonly object[]): Promise<Key[]> {
    if (rows.length === 0) return []
    return this.#t(table).bulkPut(rows as object[], { allKeys: true }) as Promise<Key[]>
  }

  async delete(table: string, keys: readonly Key[]): Promise<void> {
    if (keys.length > 0) await this.#t(table).bulkDelete(keys as Key[])
  }
}

/** Creates IndexedDB storage (browser, worker, or Node with an injected factory). */
export function indexedDbStorage(options: DexieStorageOptions): DexieStorage {
  return new DexieStorage(options)
}
