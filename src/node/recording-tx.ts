import { encodeValue } from './file-codec.js'
import type { Key, Schema, WriteTx } from '../storage/port.js'

/** One change of a transaction, in the order it was made; rows already in their JSON form (file-codec). */
export type RecordedOp = readonly ['p', string, unknown] | readonly ['d', string, Key]

/**
 * The transaction handed to callers: MemoryStorage's own, recording each put and delete in order.
 * (MemoryStorage's ChangeSet lists puts and deletes apart, which loses the order of a delete and a
 * put of one key in one transaction; the log must replay exactly.) Rows are encoded at put time,
 * which also copies them, as IndexedDB does.
 */
export class RecordingTx implements WriteTx {
  readonly #tx: WriteTx
  readonly #ops: RecordedOp[]
  readonly #schema: Schema

  /** Present when the wrapped transaction counts by index (StoragePort's countWhere is optional). */
  readonly countWhere?: (table: string, index: string, value: Key) => Promise<number>
  /** Present when the wrapped transaction counts outside index values (StoragePort's countOthers is optional). */
  readonly countOthers?: (table: string, index: string, values: readonly Key[]) => Promise<number>
  /** Present when the wrapped transaction reads key ranges (StoragePort's between is optional). */
  readonly between?: <T>(table: string, from: Key | null, to: Key | null) => Promise<T[]>

  constructor(tx: WriteTx, ops: RecordedOp[], schema: Schema) {
    this.#tx = tx
    this.#ops = ops
    this.#schema = schema
    if (tx.countWhere) this.countWhere = (table, index, value) => tx.countWhere!(table, index, value)
    if (tx.countOthers) this.countOthers = (table, index, values) => tx.countOthers!(table, index, values)
    if (tx.between) this.between = (table, from, to) => tx.between!(table, from, to)
  }

  get<T>(table: string, key: Key): Promise<T | undefined> {
    return this.#tx.get<T>(table, key)
  }
  getMany<T>(table: string, keys: readonly Key[]): Promise<Array<T | undefined>> {
    return this.#tx.getMany<T>(table, keys)
  }
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

  async put(table: string, rows: readonly object[]): Promise<Key[]> {
    const keys = await this.#tx.put(table, rows)
    const keyName = this.#schema[table]!.key
    rows.forEach((row, i) => this.#ops.push(['p', table, encodeValue({ ...row, [keyName]: keys[i] })]))
    return keys
  }

  async delete(table: string, keys: readonly Key[]): Promise<void> {
    await this.#tx.delete(table, keys)
    for (const key of keys) this.#ops.push(['d', table, key])
  }
}
