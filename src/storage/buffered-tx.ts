import type { Key, Schema, WriteTx } from './port.js'

/**
 * Collects the puts and deletes of a batch and writes them with one bulk call per table at the
 * end, instead of one IndexedDB request per row: a batch of 1,000 writes becomes a few requests.
 * Reads see the buffered writes. Puts into autoIncrement tables return no keys until flush().
 */
export class BufferedTx implements WriteTx {
  readonly #tx: WriteTx
  readonly #schema: Schema
  readonly #puts = new Map<string, Map<Key | symbol, object>>()
  readonly #deletes = new Map<string, Set<Key>>()
  /** Rows issued at once (`putNow`), kept for reads until the batch ends; their requests are awaited by flush(). */
  readonly #issued = new Map<string, Map<Key, object>>()
  readonly #inFlight: Array<Promise<unknown>> = []
  /** The first putNow request that failed; flush() throws it before anything is told to commit. */
  #failure: { readonly error: unknown } | null = null

  /** Present when the wrapped transaction counts by index (StoragePort's countWhere is optional). */
  readonly countWhere?: (table: string, index: string, value: Key) => Promise<number>
  /** Present when the wrapped transaction counts outside index values (StoragePort's countOthers is optional). */
  readonly countOthers?: (table: string, index: string, values: readonly Key[]) => Promise<number>

  constructor(tx: WriteTx, schema: Schema) {
    this.#tx = tx
    this.#schema = schema
    if (tx.countWhere) this.countWhere = (table, index, value) => tx.countWhere!(table, index, value)
    if (tx.countOthers) this.countOthers = (table, index, values) => tx.countOthers!(table, index, values)
  }

  #keyOf(table: string, row: object): Key | undefined {
    return (row as Record<string, Key | undefined>)[this.#schema[table]!.key]
  }

  async put(table: string, rows: readonly object[]): Promise<Key[]> {
    let pending = this.#puts.get(table)
    if (!pending) this.#puts.set(table, (pending = new Map()))
    const keys: Key[] = []
    for (const row of rows) {
      const key = this.#keyOf(table, row)
      // Rows without a key (autoIncrement) get a unique slot; their keys come from flush().
      pending.delete(key ?? Symbol())
      pending.set(key ?? Symbol(), row)
      if (key !== undefined) {
        keys.push(key)
        this.#deletes.get(table)?.delete(key)
      }
    }
    return keys
  }

  /**
   * Puts keyed rows on the transaction now rather than at flush(), so the backend writes them while
   * the batch's JavaScript goes on (the derived state of what was appended): in Chromium the
   * IndexedDB backend is another process, idle until a request reaches it (issue 31, write37).
   * Not awaited here: flush() awaits them with its own requests, so a failure still fails the batch.
   * A later put or delete of the same key is issued after, at flush(), and wins as it would in order.
   */
  putNow(table: string, rows: readonly object[]): void {
    if (rows.length === 0) return
    let issued = this.#issued.get(table)
    if (!issued) this.#issued.set(table, (issued = new Map()))
    for (const row of rows) {
      const key = this.#keyOf(table, row)
      if (key === undefined) throw new TypeError(`putNow needs keyed rows: ${table} has none`)
      issued.set(key, row)
      this.#puts.get(table)?.delete(key)
      this.#deletes.get(table)?.delete(key)
    }
    // A row that cannot be cloned throws here (IdbTx.put throws DataCloneError as IndexedDB does,
    // which does not abort the transaction): the append fails, and its batch aborts uncommitted.
    const request = this.#tx.put(table, rows)
    request.catch((error: unknown) => {
      this.#failure ??= { error }
    })
    this.#inFlight.push(request)
  }

  async delete(table: string, keys: readonly Key[]): Promise<void> {
    let pending = this.#deletes.get(table)
    if (!pending) this.#deletes.set(table, (pending = new Set()))
    for (const key of keys) {
      this.#puts.get(table)?.delete(key)
      this.#issued.get(table)?.delete(key)
      pending.add(key)
    }
  }

  async get<T>(table: string, key: Key): Promise<T | undefined> {
    const put = this.#puts.get(table)?.get(key)
    if (put) return put as T
    if (this.#deletes.get(table)?.has(key)) return undefined
    const issued = this.#issued.get(table)?.get(key)
    if (issued) return issued as T
    return this.#tx.get<T>(table, key)
  }

  async getMany<T>(table: string, keys: readonly Key[]): Promise<Array<T | undefined>> {
    return Promise.all(keys.map((k) => this.get<T>(table, k)))
  }

  // Scans go to the transaction: callers scan before they buffer (catch-up) or after flush().
  all<T>(table: string): Promise<T[]> {
    return this.#tx.all<T>(table)
  }
  after<T>(table: string, after: Key, limit?: number): Promise<T[]> {
    return this.#tx.after<T>(table, after, limit)
  }
  last<T>(table: string): Promise<T | undefined> {
    return this.#tx.last<T>(table)
  }
  where<T>(table: string, index: string, value: Key): Promise<T[]> {
    return this.#tx.where<T>(table, index, value)
  }
  count(table: string): Promise<number> {
    return this.#tx.count(table)
  }

  /**
   * Writes everything buffered, every table's deletes and puts issued at once and awaited together.
   * Why not one after another: each await is a round trip to the IndexedDB backend before the next
   * request is even queued, and a single write's batch is three requests (records, log, meta); at
   * once, the backend runs them back to back. Order does not matter: a key put after its delete
   * left the deletes (`put`), one deleted after its put left the puts (`delete`), so no two
   * requests of a flush touch the same row. `last`: nothing is written after this flush, so the
   * transaction is told to commit once these requests are done (`WriteTx.commit`). Returns the keys put, per table.
   */
  async flush(options: { readonly last?: boolean } = {}): Promise<Map<string, Key[]>> {
    // A putNow already failed: throw before anything is told to commit. Not a yield to look for one:
    // the optimistic batch issues its log row and commit() right after this call (records/writer.ts).
    if (this.#failure) throw this.#failure.error
    const writes: Array<Promise<unknown>> = this.#inFlight.splice(0)
    for (const [table, keys] of this.#deletes) if (keys.size) writes.push(this.#tx.delete(table, [...keys]))
    const out = new Map<string, Key[]>()
    for (const [table, rows] of this.#puts) if (rows.size) writes.push(this.#tx.put(table, [...rows.values()]).then((keys) => void out.set(table, keys)))
    this.#puts.clear()
    this.#deletes.clear()
    if (options.last) this.#tx.commit?.()
    await Promise.all(writes)
    return out
  }
}
