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
  readonly #raw: WriteTx

  constructor(tx: WriteTx, deliver: LocalDelivery) {
    this.tx = new BufferedTx(tx, SCHEMA)
    this.#raw = tx
    this.#deliver = deliver
  }

  /** Whether the batch appended or removed a record, so that it writes a log row. */
  get changed(): boolean {
    return this.appended.length > 0 || this.removed.length > 0
  }

  /** Records put by `issue` and not yet appended (their append skips the put). */
  readonly #issued = new Set<StoredRecord>()

  issue(records: readonly StoredRecord[]): void {
    for (const r of records) freezeRow(r)
    this.tx.putNow('records', records)
    for (const r of records) this.#issued.add(r)
  }

  async append(records: readonly StoredRecord[]): Promise<void> {
    if (records.length === 0) return
    const fresh = this.#issued.size === 0 ? records : records.filter((r) => !this.#issued.delete(r))
    // Records are never edited: frozen, memory storage keeps them by reference rather than a copy.
    for (const r of fresh) freezeRow(r)
    // Issued before the derivers run, not at flush: the backend stores them while the state,
    // the index and the conflict check take the same records (a page burst's records wait for
    // nothing else; issue 31, write37).
    this.tx.putNow('records', fresh)
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
   * Writes the batch and its one log row, the transaction's last requests, and tells the
   * transaction to commit; returns the log sequence numbers it was given. `at`: the row takes
   * that position with `WriteTx.add` instead of the next free one, so the transaction fails with
   * `PositionTaken` when another handle's row holds it (log.ts, the optimistic batch).
   */
  async flush(options: { readonly at?: number } = {}): Promise<number[]> {
    const row: LogRow | null = this.changed ? { put: this.appended.map((r) => r.id), del: [...this.removed] } : null
    if (options.at === undefined || !row || !this.#raw.add) {
      if (row) await this.tx.put('log', [row])
      return ((await this.tx.flush({ last: true })).get('log') ?? []) as number[]
    }
    const data = this.tx.flush()
    const placed = this.#raw.add('log', [{ ...row, seq: options.at }])
    this.#raw.commit?.()
    const [, keys] = await Promise.all([
      data,
      placed.catch((err: unknown) => {
        throw (err as { name?: string } | null)?.name === 'ConstraintError' ? new PositionTaken(options.at!) : err
      }),
    ])
    return keys as number[]
  }
}

/** Another handle's log row holds the position an optimistic batch asked for: the transaction is aborted. */
export class PositionTaken extends Error {
  constructor(readonly seq: number) {
    super(`log position ${seq} is taken`)
  }
}
