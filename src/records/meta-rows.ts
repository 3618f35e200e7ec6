import type { ReadTx, WriteTx } from '../storage/port.js'

/**
 * A module's cache rows in the `meta` table, all under one key prefix (facts' lexical snapshots,
 * pools' signature verdicts): read on a full load, written in the record log's batch (`LogWriter.tx`)
 * so a cache never disagrees with the records it was derived from. A cache is a shortcut, never
 * the authority: dropped, it is rebuilt from the records. The keys seen on load or written since
 * are remembered, so `replace` deletes stale rows without reading them again.
 */
export class MetaRows<Row extends { readonly key: string }> {
  readonly #prefix: string
  readonly #keys = new Set<string>()

  constructor(prefix: string) {
    this.#prefix = prefix
  }

  /** The row key of `name` under this cache's prefix. */
  key(name: string): string {
    return this.#prefix + name
  }

  /**
   * Every stored row of this cache. By its key range where the port reads ranges: the table has few
   * rows, but the facts' lexical snapshots among them grow with the facts, and a reader of
   * another prefix (the fact view's marker rows at the first `mem.facts` read) must not clone it.
   */
  async load(tx: ReadTx): Promise<Row[]> {
    const all = tx.between ? await tx.between<{ key: string }>('meta', this.#prefix, `${this.#prefix}\uffff`) : await tx.all<{ key: string }>('meta')
    const rows = all.filter((r) => r.key.startsWith(this.#prefix)) as unknown as Row[]
    for (const r of rows) this.#keys.add(r.key)
    return rows
  }

  /** Adds rows (a key never written before: rows of two handles never collide). */
  async add(tx: WriteTx, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return
    await tx.put('meta', rows)
    for (const r of rows) this.#keys.add(r.key)
  }

  /** Makes `rows` the whole cache: rows known and not among them are deleted. */
  async replace(tx: WriteTx, rows: readonly Row[]): Promise<void> {
    const kept = new Set(rows.map((r) => r.key))
    const stale = [...this.#keys].filter((k) => !kept.has(k))
    if (stale.length) await tx.delete('meta', stale)
    if (rows.length) await tx.put('meta', rows)
    this.#keys.clear()
    for (const k of kept) this.#keys.add(k)
  }

  /** Deletes rows by key (known or not). */
  async remove(tx: WriteTx, keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return
    await tx.delete('meta', keys)
    for (const k of keys) this.#keys.delete(k)
  }
}
