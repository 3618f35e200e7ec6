import * as Y from 'yjs'
import type { StoragePort } from '../storage/port.js'

/** A persisted Yjs update of one pool (`syncUpdates` table, schema v3). */
export interface UpdateRow {
  readonly seq?: number
  readonly pool: string
  readonly update: Uint8Array
}

const TABLE = 'syncUpdates'

/**
 * The persisted Yjs updates of one pool's document: an append-only log (one row per batch of
 * updates), replayed on open, and compacted into a single row. Compaction is what makes a hard
 * delete leave no byte on disk (DESIGN.md "Runtime"): the forgotten record's key was deleted from
 * the Y.Map, Yjs's garbage collection (the documents are made with `gc: true`) replaced the
 * deleted value by its length, and the compacted row is `Y.encodeStateAsUpdate` of that document,
 * so the old rows that still held the value are gone in the same transaction.
 *
 * Why the live document and not a fresh one rebuilt from the live records: a fresh document gives
 * every record a new Yjs item under a new client id, so every peer would receive every record
 * again after each compaction, and the rows would no longer describe the document this replica
 * keeps syncing with its peers. The garbage-collected state is the same set of live values
 * without that cost; test/sync-hard-delete.test.ts scans the raw rows to hold it to that.
 */
export class UpdateLog {
  readonly #storage: StoragePort
  readonly #pool: string
  #buffer: Uint8Array[] = []
  #rows = 0

  constructor(storage: StoragePort, pool: string) {
    this.#storage = storage
    this.#pool = pool
  }

  /** Rows written since the last compaction (what `compactEvery` is compared with). */
  get rows(): number {
    return this.#rows
  }

  get buffered(): number {
    return this.#buffer.length
  }

  /** Every persisted update of the pool, oldest first. */
  async load(): Promise<Uint8Array[]> {
    const rows = await this.#storage.read([TABLE], (tx) => tx.where<UpdateRow>(TABLE, 'pool', this.#pool))
    this.#rows = rows.length
    return rows.sort((a, b) => a.seq! - b.seq!).map((r) => r.update)
  }

  /** Queues an update; `flush()` writes the queue as one row. */
  append(update: Uint8Array): void {
    this.#buffer.push(update)
  }

  async flush(): Promise<void> {
    if (this.#buffer.length === 0) return
    const batch = this.#buffer
    this.#buffer = []
    const update = batch.length === 1 ? batch[0]! : Y.mergeUpdates(batch)
    await this.#storage.write([TABLE], (tx) => tx.put(TABLE, [{ pool: this.#pool, update }]))
    this.#rows++
  }

  /**
   * Replaces every row of the pool with one: the document's whole state. Drops the queue too: the
   * state covers it, and a queued update may still hold a value deleted since.
   */
  async compact(doc: Y.Doc): Promise<void> {
    this.#buffer = []
    const update = Y.encodeStateAsUpdate(doc)
    await this.#storage.write([TABLE], async (tx) => {
      const old = await tx.where<UpdateRow>(TABLE, 'pool', this.#pool)
      await tx.delete(TABLE, old.map((r) => r.seq!))
      await tx.put(TABLE, [{ pool: this.#pool, update }])
    })
    this.#rows = 1
  }

  /** Removes every row of the pool (the pool stops being replicated here). */
  async clear(): Promise<void> {
    this.#buffer = []
    await this.#storage.write([TABLE], async (tx) => {
      const old = await tx.where<UpdateRow>(TABLE, 'pool', this.#pool)
      await tx.delete(TABLE, old.map((r) => r.seq!))
    })
    this.#rows = 0
  }
}
