import { MetaRows } from '../records/meta-rows.js'
import type { RecordLog } from '../records/log.js'
import type { ReadTx } from '../storage/port.js'
import { PoolKind } from './records.js'

/**
 * Rows of the `meta` table that say whether the pools' fact views in `mem.facts` were left in line
 * with the pools (issue 31, factview31b, lease31). A handle adds its own `open` row before its first
 * change commits (PoolReplica's commits, the fact view's reconciles and sync's applies wait for it),
 * and deletes it at a clean close, after maintenance has run: an open that only reads changes no
 * byte. A `format` row says the store keeps these rows; without it (a store older than them, or one
 * never changed since) nothing says what the facts lag behind.
 *
 * Several handles may be open on one storage (two tabs, a worker and a page), so a row alone does not
 * say its handle was killed: each row holds a lease (`until`), renewed while its handle lives (a timer,
 * and a change that finds it half spent). A row whose lease lapsed is a killed session's: the facts
 * may lag a pool change of it (a forget committed, its fact not yet deleted), and every pool's are
 * brought in line once. A row whose lease runs is another live handle's, left alone; one that lapses
 * later, by the clock, is read again (`due`) and, if still not renewed, is a killed session's too.
 * A row written before leases (none in a release: version 1 came with them) has no `until`: lapsed.
 *
 * An older memweave knows none of these rows: a session of it killed after the newer one's clean
 * close leaves no row behind. So the `format` row carries the log's end at the last clean close
 * (`seq`), and an open that finds log rows after it, with no live handle to have written them, takes
 * the facts as out of line (a downgrade, then this version again). Older code running beside a live
 * handle of this one is not told apart from it.
 *
 * A store with no pool at all (`poolless`) needs no row: its facts have no pool to lag (lease36).
 */
export const FACT_VIEW_MARKER_VERSION = 1

/**
 * How long a row speaks for a live handle after its last renewal. Renewed three times a lease, so a
 * timer throttled to once a minute (a background tab's) still finds it running most of the time; a
 * live handle read as killed costs a needless repair, and its row is put back at its next renewal.
 */
export const FACT_VIEW_LEASE_MS = 90_000

interface MarkerRow {
  readonly key: string
  readonly version: number
  /** When the handle opened (ms), for a reader of raw rows. */
  readonly at?: number
  /** Until when (ms, the Memory's clock) the row speaks for a live handle. */
  readonly until?: number
  /** The `format` row: the record log's end (its last row's `seq`) at the last clean close. */
  readonly seq?: number
}

/** The log's end, and whether the `format` row vouches for the facts up to it. */
async function stampOf(tx: ReadTx, format: MarkerRow | undefined): Promise<{ end: number; stamped: boolean }> {
  const end = (await tx.last<{ seq: number }>('log'))?.seq ?? 0
  return { end, stamped: format?.version === FACT_VIEW_MARKER_VERSION && typeof format.seq === 'number' && format.seq >= end }
}

/**
 * Whether the store holds no pool: no record founds one, so no pool's facts can lag it, and the
 * repair a killed session asks for has nothing to walk (it goes pool by pool, and a pool is derived
 * from its `pool-create` record: state.ts `derive`). Whoever wrote since (a killed handle, an older
 * memweave that keeps no rows) wrote no pool either, or its `pool-create` would be here. One count
 * on the `kind` index, not a scan (its cost is the pools' records, none here): what lets a store of facts alone answer its first
 * `mem.facts` read without the pools' load (lease31 made it wait for that: 94-103 ms at 100k).
 */
async function poolless(tx: ReadTx): Promise<boolean> {
  return (tx.countWhere ? await tx.countWhere('records', 'kind', PoolKind.CREATE) : (await tx.where('records', 'kind', PoolKind.CREATE)).length) === 0
}

export class FactViewMarker {
  readonly #open = new MetaRows<MarkerRow>('fact-view-open:')
  readonly #formatKey = 'fact-view-format'
  readonly #own: string
  readonly #log: RecordLog
  readonly #now: () => number
  /** Run on each renewal tick (the holder's look at other handles' leases). */
  readonly #onTick: () => void
  /** Killed sessions' rows found by the last read, deleted once the repair they ask for has run. */
  #stale: string[] = []
  /** Other handles' rows whose lease ran at the last read: key -> until. */
  readonly #live = new Map<string, number>()
  #marked: Promise<void> | undefined
  #at = 0
  #until = 0
  #renewing: Promise<void> | undefined
  #timer: ReturnType<typeof setInterval> | undefined
  #closed = false

  constructor(log: RecordLog, now: () => number, onTick: () => void = () => undefined) {
    this.#log = log
    this.#now = now
    this.#onTick = onTick
    this.#own = this.#open.key(`${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`)
  }

  /**
   * Reads the rows: whether the last sessions left the fact views in line (no killed session's row,
   * and a store that keeps these rows). Other live handles' rows do not say otherwise. Writes nothing.
   */
  async read(): Promise<boolean> {
    const { open, vouched } = await this.#log.storage.read(['meta', 'log', 'records'], async (tx) => {
      const open = await this.#open.load(tx)
      const stamp = await stampOf(tx, await tx.get<MarkerRow>('meta', this.#formatKey))
      // Asked only when the rows vouch for nothing: a store that never had a pool (lease36).
      return { open, vouched: stamp.stamped || (await poolless(tx)) }
    })
    this.#sort(open)
    // A row of a later version may mean what this code cannot read: taken as out of line. Log rows
    // after the stamp were written by a live handle, or by code that keeps no rows (an older one).
    return this.#stale.length === 0 && (vouched || this.#live.size > 0)
  }

  /** Whether a row that was live at the last read has run past its lease since (by the clock). */
  due(): boolean {
    const now = this.#now()
    for (const until of this.#live.values()) if (until <= now) return true
    return false
  }

  /** Reads the other handles' rows again: whether one is now a killed session's (its lease lapsed unrenewed). */
  async lapsed(): Promise<boolean> {
    this.#sort(await this.#log.storage.read(['meta'], (tx) => this.#open.load(tx)))
    return this.#stale.length > 0
  }

  #sort(rows: readonly MarkerRow[]): void {
    const now = this.#now()
    this.#live.clear()
    this.#stale = []
    for (const r of rows) {
      if (r.key === this.#own) continue
      if (typeof r.until === 'number' && r.until > now) this.#live.set(r.key, r.until)
      else this.#stale.push(r.key)
    }
  }

  /**
   * Before each change of this handle commits: the row is written once, then renewed when half its
   * lease is spent (awaited: a lapsed row may have been taken as a killed session's and deleted).
   */
  mark(): Promise<void> {
    // While the first write is pending (#until 0), changes wait for it, not for a second put.
    if (this.#marked) return this.#until === 0 || this.#now() < this.#until - FACT_VIEW_LEASE_MS / 2 ? this.#marked : this.#renew()
    this.#at = this.#now()
    this.#marked = this.#put().then(() => this.#start(), (err: unknown) => {
      this.#marked = undefined
      throw err
    })
    return this.#marked
  }

  /** Puts this handle's row with a fresh lease (again, should another handle have deleted it). */
  #renew(): Promise<void> {
    return (this.#renewing ??= this.#put().finally(() => (this.#renewing = undefined)))
  }

  async #put(): Promise<void> {
    const until = this.#now() + FACT_VIEW_LEASE_MS
    await this.#log.write((w) => w.tx.put('meta', [{ key: this.#own, version: FACT_VIEW_MARKER_VERSION, at: this.#at, until }]))
    this.#until = until
  }

  #start(): void {
    if (this.#closed || this.#timer !== undefined) return
    this.#timer = setInterval(() => {
      if (this.#closed) return
      this.#renew().catch(() => undefined)
      this.#onTick()
    }, FACT_VIEW_LEASE_MS / 3)
    // Node: a live lease is no reason to keep a process running.
    ;(this.#timer as { unref?: () => void }).unref?.()
  }

  /** After the repair the killed sessions' rows asked for: those rows go. */
  async repaired(): Promise<void> {
    const stale = this.#stale
    this.#stale = []
    if (stale.length) await this.#log.write((w) => this.#open.remove(w.tx, stale))
  }

  /** Stops renewing (the handle is closing or closed). */
  stop(): void {
    this.#closed = true
    if (this.#timer !== undefined) clearInterval(this.#timer)
    this.#timer = undefined
  }

  /**
   * At a clean close, once maintenance has run: the facts are in line with what this handle changed,
   * and the stamp moves to the log's end. A handle that changed nothing writes only to bring forward a
   * stamp that lags behind others' writes (a store without one gets it with a change: an open that
   * only reads an older store changes no byte).
   */
  async close(): Promise<void> {
    const marked = this.#marked
    if (this.#closed) return
    this.stop()
    // A store closed under the handle (its storage first) keeps the row: the next open repairs, safely.
    await (async () => {
      if (marked) await marked.then(() => this.#renewing)
      else {
        const format = await this.#log.storage.read(['meta', 'log'], async (tx) => {
          const row = await tx.get<MarkerRow>('meta', this.#formatKey)
          return { row, stamped: (await stampOf(tx, row)).stamped }
        })
        if (format.row?.version !== FACT_VIEW_MARKER_VERSION || format.stamped) return
      }
      await this.#log.write(async (w) => {
        if (marked) await this.#open.remove(w.tx, [this.#own])
        const { end, stamped } = await stampOf(w.tx, await w.tx.get<MarkerRow>('meta', this.#formatKey))
        if (!stamped) await w.tx.put('meta', [{ key: this.#formatKey, version: FACT_VIEW_MARKER_VERSION, seq: end }])
      })
    })().catch(() => undefined)
  }
}
