import { BufferedTx } from '../storage/buffered-tx.js'
import { freezeRow } from '../storage/frozen-rows.js'
import type { WriteTx } from '../storage/port.js'
import { SCHEMA, type LogRow, type StoredRecord } from '../storage/schema.js'
import type { LogWriter } from './types.js'

/** Hands what a write appended or removed to the derivers of the Memory, inside the transaction. */
export type LocalDelivery = (records: readonly StoredRecord[], removed: readonly string[]) => Promise<void>

/**
 * One tick's batch: every queued write of every module runs against it in turn, and it reaches
 * storage as one bulk put per table (BufferedTx) in the tick's single transaction.
 */
export class BatchWriter implements LogWriter {
  readonly tx: BufferedTx
  /** Everything appended and removed in the batch, in order: the `onAppend` feed after commit. */
  readonly appended: StoredRecord[] = []
  readonly removed: string[] = []
  readonly #deliver: LocalDelivery

  constructor(tx: WriteTx, deliver: LocalDelivery) {
    this.tx = new BufferedTx(tx, SCHEMA)
    this.#deliver = deliver
  }

  async append(records: readonly StoredRecord[]): Promise<void> {
    if (records.length === 0) return
    // Records are never edited: frozen, memory storage keeps them by reference rather than a copy.
    for (const r of records) freezeRow(r)
    await this.tx.put('records', records)
    this.appended.push(...records)
    await this.#deliver(records, [])
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return
    await this.tx.delete('records', ids)
    this.removed.push(...ids)
    await this.#deliver([], ids)
  }

  /**
   * Writes the batch and its one log row, the transaction's last requests; returns the log sequence
   * numbers it was given. `last: false` leaves telling the transaction to commit to the caller (an
   * optimistic batch commits only once its catch-up read said nothing came before it).
   */
  async flush(options: { readonly last?: boolean } = { last: true }): Promise<number[]> {
    if (this.appended.length || this.removed.length) {
      const row: LogRow = { put: this.appended.map((r) => r.id), del: [...this.removed] }
      await this.tx.put('log', [row])
    }
    return ((await this.tx.flush(options)).get('log') ?? []) as number[]
  }
}
