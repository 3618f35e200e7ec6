import { MetaRows } from '../records/meta-rows.js'
import type { RecordLog } from '../records/log.js'

/**
 * Rows of the `meta` table that say whether the pools' fact views in `mem.facts` were left in line
 * with the pools (issue 31, factview31b). A session adds its own `open` row before its first change
 * commits (PoolReplica's commits and the fact view's reconciles wait for it), and deletes it at a
 * clean close, after maintenance has run: an open that only reads changes no byte. An open that finds
 * another session's row (that session was killed between a pool change and its facts: a forget
 * committed, its fact not yet deleted), or no `format` row (a store older than these rows, or one
 * never changed since), knows nothing of what the facts lag behind, and brings every pool's facts in
 * line once; otherwise a reconcile may start from the facts as they are.
 *
 * A row of a handle still open on the same storage reads as a killed session's: the opener repairs
 * needlessly (safe), then deletes it, so that handle's own crash afterwards goes unnoticed. The
 * runtime elects one handle per storage to write (runtime/election.ts), so this is not the usual case.
 */
export const FACT_VIEW_MARKER_VERSION = 1

interface MarkerRow {
  readonly key: string
  readonly version: number
  /** When the session opened (ms), for a reader of raw rows. */
  readonly at?: number
}

export class FactViewMarker {
  readonly #open = new MetaRows<MarkerRow>('fact-view-open:')
  readonly #format = new MetaRows<MarkerRow>('fact-view-format')
  readonly #own: string
  /** Other sessions' rows found at the open, deleted once the repair they asked for has run. */
  #stale: string[] = []
  #marked: Promise<void> | undefined
  #closed = false

  constructor() {
    this.#own = this.#open.key(`${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`)
  }

  /**
   * Reads the rows: whether the last sessions left the fact views in line (no other session's row,
   * and a store that keeps these rows). Writes nothing.
   */
  async read(log: RecordLog): Promise<boolean> {
    const { open, format } = await log.storage.read(['meta'], async (tx) => ({ open: await this.#open.load(tx), format: await this.#format.load(tx) }))
    this.#stale = open.map((r) => r.key)
    // A row of a later version may mean what this code cannot read: taken as out of line.
    return open.length === 0 && format.some((r) => r.version === FACT_VIEW_MARKER_VERSION)
  }

  /** Before this session's first change commits (once; later calls wait for the same write). */
  mark(log: RecordLog, now: number): Promise<void> {
    return (this.#marked ??= log.write((w) => w.tx.put('meta', [
      { key: this.#format.key(''), version: FACT_VIEW_MARKER_VERSION },
      { key: this.#own, version: FACT_VIEW_MARKER_VERSION, at: now },
    ])).then(() => undefined, (err: unknown) => {
      this.#marked = undefined
      throw err
    }))
  }

  /** After the repair an out-of-line open asked for: the rows that asked for it go. */
  async repaired(log: RecordLog): Promise<void> {
    const stale = this.#stale
    this.#stale = []
    if (stale.length) await log.write((w) => this.#open.remove(w.tx, stale))
  }

  /** At a clean close, once maintenance has run: the facts are in line with what this session changed. */
  async close(log: RecordLog): Promise<void> {
    if (this.#closed || !this.#marked) return
    this.#closed = true
    // A store closed under the session (its storage first) keeps the row: the next open repairs, safely.
    await this.#marked.then(() => log.write((w) => this.#open.remove(w.tx, [this.#own]))).catch(() => undefined)
  }
}
