import type { Key, ReadTx } from '../storage/port.js'
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

  /**
   * Every stored record of the derivers' kinds, each kind read once, delivered in each deriver's
   * kind order. A deriver with `loaded` takes them part by part as the reads return (applied while
   * the later parts are still being read), then hears `loaded`; the others get theirs at the end.
   */
  async load(tx: ReadTx, derivers: readonly Deriver[]): Promise<void> {
    for (const d of derivers) d.preload?.(tx)
    const delivery = { tx, local: false, reload: true }
    const parted = derivers.filter((d) => d.loaded)
    const onPart = async (part: ReadonlyMap<string, readonly StoredRecord[]>): Promise<void> => {
      for (const d of parted) {
        const records = d.kinds.length === 1 ? (part.get(d.kinds[0]!) ?? NONE) : d.kinds.flatMap((k) => part.get(k) ?? NONE)
        if (records.length === 0) continue
        this.#observeAll(records)
        await d.receive(records, delivery)
      }
    }
    const byKind = await readKinds(tx, [...new Set(derivers.flatMap((d) => d.kinds))], parted.length ? onPart : undefined)
    for (const d of derivers) {
      if (d.loaded) await d.loaded(delivery)
      else {
        const records = d.kinds.flatMap((k) => byKind.get(k)!)
        this.#observeAll(records)
        await d.receive(records, delivery)
      }
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

/** Read the whole `records` table rather than kind by kind once the kinds wanted hold at least this share of it. */
export const SCAN_SHARE = 0.5
/**
 * Read the whole table, without counting the kinds wanted, when fewer rows than this are of other
 * kinds: the scan reads at most that many rows for nothing (tens of ms in Chromium), where
 * counting 100k facts took 2.1 to 2.5 s and counting the table 0.9 to 1.6 s (issue 31, fifth round).
 */
export const SCAN_SLACK = 1_000

const NONE: readonly StoredRecord[] = []
/** Rows per read of that scan: one bulk read each, without holding a second copy of a 100k table at once. */
const SCAN_CHUNK = 10_000

/**
 * Every stored record of `kinds`, by kind, each kind in primary-key order (what the `kind` index
 * returns). Why two ways (issue 31): in IndexedDB a read through an index costs a lookup per row,
 * and at 100k facts it took 8.5-10.2 s where reading the same rows in key order took 5.0-5.9 s.
 * So when the kinds are most of the table (a Memory of facts opening), the table is read in
 * primary-key chunks and sorted by kind; when they are a few of its rows (a module of another
 * kind registering on a big store), the index is read, and the cost is theirs. Counting by the
 * index reads no row, but Chromium walks every entry it counts: at 100k facts the counts took as
 * long as half the scan. So the rows of other kinds are counted first (the index outside the kinds
 * wanted: nearly nothing when a Memory of facts opens), and the kinds wanted only when those are many.
 *
 * `onPart`, when given, is called with every record read, once, before this resolves: with each
 * key range of the scan as it arrives (ranges in key order, one call after another), or once with
 * everything the other ways.
 */
export async function readKinds(
  tx: ReadTx, kinds: readonly string[], onPart?: (part: ReadonlyMap<string, readonly StoredRecord[]>) => Promise<void>,
): Promise<Map<string, StoredRecord[]>> {
  const byKind = new Map<string, StoredRecord[]>(kinds.map((k) => [k, []]))
  if (kinds.length === 0) return byKind
  const whole = async (read: Promise<Map<string, StoredRecord[]>>): Promise<Map<string, StoredRecord[]>> => {
    const got = await read
    await onPart?.(got)
    return got
  }
  const throughIndex = async (): Promise<Map<string, StoredRecord[]>> => {
    const lists = await Promise.all(kinds.map((k) => tx.where<StoredRecord>('records', 'kind', k)))
    kinds.forEach((k, i) => byKind.set(k, lists[i]!))
    return byKind
  }
  // A storage that cannot count by index (a StoragePort written before countWhere) reads the index.
  if (!tx.countWhere) return whole(throughIndex())
  const others = tx.countOthers ? await tx.countOthers('records', 'kind', kinds) : null
  // How many rows the scan is to find; not counted (unbounded) when the others are few.
  let wanted = Infinity
  if (others === null || others >= SCAN_SLACK) {
    const [total, ...counts] = await Promise.all([others ?? tx.count('records'), ...kinds.map((k) => tx.countWhere!('records', 'kind', k))])
    wanted = counts.reduce((a, b) => a + b, 0)
    if (wanted === 0) return byKind
    if (wanted < (others === null ? total! : wanted + others) * SCAN_SHARE) return whole(throughIndex())
  }
  if (tx.between) return scanInRanges(tx, byKind, onPart)
  return whole(scanInChunks(tx, byKind, wanted))
}

/** The scan of `readKinds` on a storage without key ranges: a chunk after another until `wanted` rows are in. */
async function scanInChunks(tx: ReadTx, byKind: Map<string, StoredRecord[]>, wanted: number): Promise<Map<string, StoredRecord[]>> {
  // Record ids are non-empty strings, so every one sorts after ''.
  let from: Key = ''
  let found = 0
  for (;;) {
    const rows: StoredRecord[] = await tx.after<StoredRecord>('records', from, SCAN_CHUNK)
    for (const r of rows) {
      const list = byKind.get(r.kind)
      if (list) {
        list.push(r)
        found++
      }
    }
    // The counts were taken in this transaction: once every wanted row is in, the rest holds none.
    if (rows.length < SCAN_CHUNK || found >= wanted) return byKind
    from = rows.at(-1)!.id
  }
}

/**
 * Where the scan splits the `records` table: record ids are content hashes in lower-case hex
 * (recordId, signRecord), spread evenly over their first digit, so the sixteen parts hold about a
 * sixteenth of the table each. The first part runs from the lowest key and the last to the
 * highest, so a key of any other form is read too, in its part.
 */
const SCAN_SPLITS: readonly string[] = Array.from({ length: 15 }, (_, i) => (i + 1).toString(16))

/**
 * The scan of `readKinds` when the transaction reads key ranges: every part asked for at once, so
 * IndexedDB reads part N+1 while this thread takes in part N (a chunk after another waited a
 * round trip per chunk, the reader idle between). Each part keeps only the wanted kinds as it
 * arrives; the parts are joined in key order, so each kind comes out as the chunked scan gave it.
 */
async function scanInRanges(
  tx: ReadTx, byKind: Map<string, StoredRecord[]>, onPart?: (part: ReadonlyMap<string, readonly StoredRecord[]>) => Promise<void>,
): Promise<Map<string, StoredRecord[]>> {
  const bounds: Array<string | null> = [null, ...SCAN_SPLITS, null]
  const parts = bounds.slice(1).map(async (to, i) => {
    const rows = await tx.between!<StoredRecord>('records', bounds[i] ?? null, to)
    const kept = new Map<string, StoredRecord[]>()
    for (const r of rows) {
      if (!byKind.has(r.kind)) continue
      let list = kept.get(r.kind)
      if (!list) kept.set(r.kind, (list = []))
      list.push(r)
    }
    return kept
  })
  // Each part is handed on once it is read and the part before it was handed on: key order, whatever order the reads settle in.
  let handed: Promise<unknown> = Promise.resolve()
  if (onPart) for (const part of parts) handed = Promise.all([part, handed]).then(([kept]) => onPart(kept))
  await handed
  const read = await Promise.all(parts)
  for (const [kind, list] of byKind) for (const part of read) for (const r of part.get(kind) ?? []) list.push(r)
  return byKind
}
