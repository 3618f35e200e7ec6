import type { ReadTx } from '../storage/port.js'
import type { StoredRecord } from '../storage/schema.js'
import type { Deriver, LogChange } from './types.js'

/**
 * Who hears what the record log reads and commits (log.ts): the derivers, by kind, and the
 * `onAppend` listeners. Inside a pass's transaction records are delivered and the pass's changes
 * collected; once the transaction is over `afterPass` tells the derivers that changed and the
 * listeners, or `drop` forgets a pass that failed.
 */
export class Fanout {
  readonly derivers: Deriver[] = []
  readonly #byKind = new Map<string, Deriver[]>()
  readonly #listeners = new Set<(change: LogChange) => void>()
  /** Derivers that received something in the current pass, and what the pass changed: told once the transaction is over. */
  readonly #touched = new Set<Deriver>()
  #changes: LogChange[] = []
  /** The log's clock observing what is delivered (observe-stamps.ts), before any deriver sees it. */
  readonly #observeAll: (records: readonly StoredRecord[]) => void

  constructor(observeAll: (records: readonly StoredRecord[]) => void) {
    this.#observeAll = observeAll
  }

  /** Lists a registered deriver under its kinds. */
  add(deriver: Deriver): void {
    // A registration tried again after one that failed late (attach.ts) is not listed twice.
    if (this.derivers.includes(deriver)) return
    this.derivers.push(deriver)
    for (const kind of deriver.kinds) {
      let list = this.#byKind.get(kind)
      if (!list) this.#byKind.set(kind, (list = []))
      list.push(deriver)
    }
  }

  /** Calls `listener` with each change a pass found, after the pass. */
  listen(listener: (change: LogChange) => void): () => void {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  clearListeners(): void {
    this.#listeners.clear()
  }

  /** Every stored record of the derivers' kinds, each kind read once, delivered in each deriver's kind order. */
  async load(tx: ReadTx, derivers: readonly Deriver[]): Promise<void> {
    const byKind = new Map<string, StoredRecord[]>()
    for (const d of derivers) for (const kind of d.kinds) if (!byKind.has(kind)) byKind.set(kind, await tx.where<StoredRecord>('records', 'kind', kind))
    for (const d of derivers) {
      const records = d.kinds.flatMap((k) => byKind.get(k)!)
      this.#observeAll(records)
      await d.receive(records, { tx, local: false, reload: true })
      this.#touched.add(d)
    }
  }

  /** Fans records out by kind (one call per deriver, commit order kept) and removals to every deriver. */
  async deliver(tx: ReadTx, records: readonly StoredRecord[], removed: readonly string[], local: boolean): Promise<void> {
    const perDeriver = new Map<Deriver, StoredRecord[]>()
    this.#observeAll(records)
    for (const r of records) {
      for (const d of this.#byKind.get(r.kind) ?? []) {
        let list = perDeriver.get(d)
        if (!list) perDeriver.set(d, (list = []))
        list.push(r)
      }
    }
    for (const [d, list] of perDeriver) {
      await d.receive(list, { tx, local, reload: false })
      this.#touched.add(d)
    }
    if (removed.length) {
      for (const d of this.derivers) {
        d.removed(removed, local)
        this.#touched.add(d)
      }
    }
  }

  /** After a transaction: derivers hear that they changed, and the feed gets what the pass found. */
  afterPass(): void {
    const touched = [...this.#touched]
    const changes = this.#changes
    this.#touched.clear()
    this.#changes = []
    for (const d of touched) d.changed?.()
    for (const change of changes) for (const listener of [...this.#listeners]) listener(change)
  }

  /** Forgets what a failed pass touched and found (the log rebuilds derived state on its next pass). */
  drop(): void {
    this.#touched.clear()
    this.#changes = []
  }

  emit(change: LogChange): void {
    if (change.records.length === 0 && change.removed.length === 0 && !change.reload) return
    this.#changes.push(change)
  }
}
