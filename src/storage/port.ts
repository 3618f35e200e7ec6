/**
 * The storage port: the only way protocol modules touch persistence. It is deliberately narrow
 * (keyed tables, one secondary-index lookup, ordered scans by primary key, atomic transactions) so
 * an adapter is small and every adapter can pass one contract suite (test/helpers/storage-contract.ts).
 *
 * Rows are plain structured-cloneable objects. Callers treat rows they read as immutable.
 * A transaction body must await only the transaction's own methods: IndexedDB commits a
 * transaction as soon as it has no pending request, so awaiting anything else (crypto, timers)
 * inside it would let it close underneath.
 */
export type Key = string | number

export interface TableSpec {
  /** Name of the primary-key property. */
  readonly key: string
  /** The store assigns increasing integer keys (IndexedDB autoIncrement). */
  readonly autoIncrement?: boolean
  /** Properties with a secondary index; never index a property that can hold user content. */
  readonly indexes?: readonly string[]
}

export type Schema = Readonly<Record<string, TableSpec>>

export interface ReadTx {
  get<T>(table: string, key: Key): Promise<T | undefined>
  getMany<T>(table: string, keys: readonly Key[]): Promise<Array<T | undefined>>
  /** All rows in primary-key order. */
  all<T>(table: string): Promise<T[]>
  /** Rows whose primary key is greater than `after`, in key order, at most `limit`. */
  after<T>(table: string, after: Key, limit?: number): Promise<T[]>
  /**
   * Rows whose primary key is at least `from` and below `to` (null: no bound on that side), in key
   * order. Optional (a StoragePort written before it keeps working): with it, a full load asks for
   * the `records` table in several key ranges at once instead of one chunk after another (fanout.ts).
   */
  between?<T>(table: string, from: Key | null, to: Key | null): Promise<T[]>
  /** The row with the greatest primary key. */
  last<T>(table: string): Promise<T | undefined>
  /** Rows whose indexed property equals `value`. */
  where<T>(table: string, index: string, value: Key): Promise<T[]>
  /**
   * How many rows `where` would return, without reading them (IndexedDB counts index entries):
   * what lets a reader choose between the index and one scan of the whole table (fanout.ts).
   * Optional, so that a StoragePort written before it (0.2.x) keeps working: without it, a load
   * reads each kind through the index.
   */
  countWhere?(table: string, index: string, value: Key): Promise<number>
  /**
   * How many rows' indexed property is none of `values`, without reading them (IndexedDB counts
   * the index entries outside those values): what a full load asks first, because the answer is
   * cheap exactly when the kinds it wants are nearly the whole table, where counting them was the
   * cost (fanout.ts). Optional, like countWhere: without it, a load counts the table and each kind.
   */
  countOthers?(table: string, index: string, values: readonly Key[]): Promise<number>
  count(table: string): Promise<number>
}

export interface WriteTx extends ReadTx {
  /** Inserts or replaces rows; returns their primary keys (assigned ones for autoIncrement tables). */
  put(table: string, rows: readonly object[]): Promise<Key[]>
  delete(table: string, keys: readonly Key[]): Promise<void>
  /**
   * Inserts rows whose keys must be new: a key already stored fails the request, and the failure
   * aborts the whole transaction (after `commit()` too), so nothing the body wrote stays. The
   * record log's optimistic batch puts its log row this way (log.ts). Optional: without it the log
   * reads before it writes.
   */
  add?(table: string, rows: readonly object[]): Promise<Key[]>
  /**
   * No request follows those already issued: the backend may commit as soon as they are done,
   * rather than once their results have come back to the body and it has returned (IndexedDB's
   * `commit()`: one round trip less per write). The body may still await what it issued. Optional:
   * an adapter without it commits when the body returns, as before.
   */
  commit?(): void
}

export interface StoragePort {
  /** `'memory'`, `'indexeddb'`, `'file'`: for diagnostics and capability reports. */
  readonly kind: string
  /** Whether data outlives the process (the basis of cross-session propagation). */
  readonly durable: boolean
  open(): Promise<void>
  read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T>
  /** Runs `body` atomically: all of its writes land, or none do. */
  write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T>
  /** Idempotent. */
  close(): Promise<void>
  /**
   * Calls `listener` after another handle on the same data committed a write transaction
   * (another Memory on a shared instance, another worker or tab on the same IndexedDB database).
   * Optional: adapters without a way to hear about others omit it, and readers catch up on their next call.
   */
  watch?(listener: () => void): () => void
}
