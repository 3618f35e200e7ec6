import { ErrorCode, MemweaveError } from '../core/errors.js'
import { lowerBound } from '../core/lower-bound.js'
import { translateStorageError } from './errors.js'
import type { Key, ReadTx, Schema, StoragePort, WriteTx } from './port.js'
import { SCHEMA } from './schema.js'
import { isFrozenRow } from './frozen-rows.js'

/** A committed set of changes, in the order they were made. */
export interface ChangeSet {
  readonly puts: ReadonlyArray<{ table: string; row: object }>
  readonly deletes: ReadonlyArray<{ table: string; key: Key }>
}

export interface MemoryStorageOptions {
  readonly schema?: Schema
  /** Called with each transaction's changes before they become visible; a throw aborts the transaction. */
  readonly persist?: (changes: ChangeSet) => Promise<void>
  /** Rows to start with, as `table -> rows` (used by the file adapter on load). */
  readonly initial?: Readonly<Record<string, readonly object[]>>
}

type Table = Map<Key, object>

/**
 * In-memory storage for Node, edge runtimes and tests. Transactions are atomic (writes are staged
 * and applied only on success) and write transactions run one at a time, as IndexedDB's do.
 * Two `Memory` objects given the same instance share one store, like two tabs on one database.
 */
export class MemoryStorage implements StoragePort {
  readonly kind: string = 'memory'
  readonly durable: boolean = false
  readonly #schema: Schema
  readonly #tables = new Map<string, Table>()
  readonly #autoKeys = new Map<string, number>()
  readonly #persist: MemoryStorageOptions['persist']
  readonly #watchers = new Set<() => void>()
  readonly #sortedKeys = new Map<string, Key[]>()
  #writeQueue: Promise<unknown> = Promise.resolve()
  // Several memories may share one instance (like tabs on one database): it closes with the last.
  #handles = 0

  constructor(options: MemoryStorageOptions = {}) {
    this.#schema = options.schema ?? SCHEMA
    this.#persist = options.persist
    for (const name of Object.keys(this.#schema)) {
      this.#tables.set(name, new Map())
      this.#autoKeys.set(name, 0)
    }
    for (const [name, rows] of Object.entries(options.initial ?? {})) {
      const spec = this.#spec(name)
      const table = this.#table(name)
      for (const row of rows) {
        const key = (row as Record<string, Key>)[spec.key]!
        table.set(key, row)
        if (spec.autoIncrement && typeof key === 'number') this.#autoKeys.set(name, Math.max(this.#autoKeys.get(name)!, key))
      }
    }
  }

  async open(): Promise<void> {
    this.#handles++
  }

  async close(): Promise<void> {
    if (this.#handles > 0) this.#handles--
  }

  /** Snapshot of every table (for the file adapter's compaction). */
  dump(): Record<string, object[]> {
    const out: Record<string, object[]> = {}
    for (const [name, table] of this.#tables) out[name] = [...table.values()]
    return out
  }

  async read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T> {
    try {
      this.#assertOpen()
      tables.forEach((t) => this.#table(t))
      return await body(new MemoryTx(this, new Staged(), false))
    } catch (err) {
      throw translateStorageError(err, 'read')
    }
  }

  write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    try {
      this.#assertOpen()
      tables.forEach((t) => this.#table(t))
    } catch (err) {
      return Promise.reject(err)
    }
    const run = async (): Promise<T> => {
      const staged = new Staged()
      const tx = new MemoryTx(this, staged, true)
      try {
        const result = await body(tx)
        tx.done = true
        if (this.#persist) await this.#persist(staged.changeSet())
        this.#apply(staged)
        if (staged.order.length > 0) this.#announce()
        return result
      } catch (err) {
        tx.done = true
        throw translateStorageError(err, 'write')
      }
    }
    const result = this.#writeQueue.then(run, run)
    this.#writeQueue = result.catch(() => undefined)
    return result
  }

  /**
   * Every handle hears every commit, its own included: an in-process instance has no way to tell
   * handles apart, and a catch-up after one's own write is a cheap no-op.
   */
  watch(listener: () => void): () => void {
    this.#watchers.add(listener)
    return () => void this.#watchers.delete(listener)
  }

  #announce(): void {
    for (const listener of [...this.#watchers]) queueMicrotask(listener)
  }

  #apply(staged: Staged): void {
    // Keys deleted from a table whose sorted-key cache still lists them: removed in one pass at the
    // end. Splicing each out cost O(n) per key: trimming 5,000 log rows of a 100k log, 5e8 moves.
    const removed = new Map<string, Set<Key>>()
    for (const change of staged.order) {
      const table = this.#table(change.table)
      const keys = this.#sortedKeys.get(change.table)
      const old = table.get(change.key)
      if (change.row) {
        table.set(change.key, change.row)
        this.#reindex(change.table, change.key, old, change.row)
        // Keep the sorted-key cache when a new key lands at the end (the log, records in id order
        // seldom): re-sorting per commit would cost O(n log n) on every write at 100k rows.
        if (keys && old === undefined) {
          // Deleted earlier in this transaction: still in the cache, where it belongs again.
          if (removed.get(change.table)?.delete(change.key)) continue
          if (keys.length === 0 || compareKeys(keys[keys.length - 1]!, change.key) < 0) keys.push(change.key)
          else this.#sortedKeys.delete(change.table)
        }
      } else if (old !== undefined) {
        table.delete(change.key)
        this.#reindex(change.table, change.key, old, undefined)
        if (keys) {
          let gone = removed.get(change.table)
          if (!gone) removed.set(change.table, (gone = new Set()))
          gone.add(change.key)
        }
      }
    }
    for (const [name, gone] of removed) {
      const keys = this.#sortedKeys.get(name)
      if (keys && gone.size > 0) this.#sortedKeys.set(name, keys.filter((k) => !gone.has(k)))
    }
  }

  /**
   * Secondary indexes (table -> index -> value -> primary keys), each built on its first `where`
   * and kept in step by every commit from then on: a `where` costs what it returns instead of a
   * sorted walk of the whole table (loading a 100k-record pool asks for each of its kinds).
   */
  readonly #indexes = new Map<string, Map<string, Map<unknown, Set<Key>>>>()

  #reindex(table: string, key: Key, before: object | undefined, after: object | undefined): void {
    const indexes = this.#indexes.get(table)
    if (!indexes) return
    for (const [name, index] of indexes) {
      const was = before === undefined ? undefined : (before as Record<string, unknown>)[name]
      const is = after === undefined ? undefined : (after as Record<string, unknown>)[name]
      if (before !== undefined && was !== is) {
        const set = index.get(was)
        set?.delete(key)
        if (set?.size === 0) index.delete(was)
      }
      if (after !== undefined) {
        let set = index.get(is)
        if (!set) index.set(is, (set = new Set()))
        set.add(key)
      }
    }
  }

  /** @internal The committed primary keys of rows whose `index` property is `value` (unsorted; the caller must not change the set). */
  _indexKeys(table: string, index: string, value: Key): ReadonlySet<Key> {
    let indexes = this.#indexes.get(table)
    if (!indexes) this.#indexes.set(table, (indexes = new Map()))
    let byValue = indexes.get(index)
    if (!byValue) {
      byValue = new Map()
      for (const [key, row] of this.#table(table)) {
        const v = (row as Record<string, unknown>)[index]
        let set = byValue.get(v)
        if (!set) byValue.set(v, (set = new Set()))
        set.add(key)
      }
      indexes.set(index, byValue)
    }
    return byValue.get(value) ?? new Set()
  }

  /** @internal The committed keys of a table, sorted as IndexedDB orders them (cached). */
  _sortedKeys(name: string): Key[] {
    let keys = this.#sortedKeys.get(name)
    if (!keys) {
      keys = [...this.#table(name).keys()].sort(compareKeys)
      this.#sortedKeys.set(name, keys)
    }
    return keys
  }

  #assertOpen(): void {
    if (this.#handles === 0) throw new MemweaveError(ErrorCode.CLOSED, 'storage is closed (or was never opened)')
  }

  /** @internal */
  _table(name: string): Table {
    return this.#table(name)
  }

  /** @internal */
  _spec(name: string) {
    return this.#spec(name)
  }

  /** @internal */
  _nextKey(name: string): number {
    const next = this.#autoKeys.get(name)! + 1
    this.#autoKeys.set(name, next)
    return next
  }

  #table(name: string): Table {
    const table = this.#tables.get(name)
    if (!table) throw new MemweaveError(ErrorCode.INTERNAL, `unknown table "${name}"`)
    return table
  }

  #spec(name: string) {
    const spec = this.#schema[name]
    if (!spec) throw new MemweaveError(ErrorCode.INTERNAL, `unknown table "${name}"`)
    return spec
  }
}

interface StagedChange {
  readonly table: string
  readonly key: Key
  readonly row: object | undefined
}

class Staged {
  readonly order: StagedChange[] = []
  readonly byTable = new Map<string, Map<Key, object | undefined>>()

  set(table: string, key: Key, row: object | undefined): void {
    this.order.push({ table, key, row })
    let t = this.byTable.get(table)
    if (!t) this.byTable.set(table, (t = new Map()))
    t.set(key, row)
  }

  changeSet(): ChangeSet {
    const puts: Array<{ table: string; row: object }> = []
    const deletes: Array<{ table: string; key: Key }> = []
    for (const c of this.order) {
      if (c.row) puts.push({ table: c.table, row: c.row })
      else deletes.push({ table: c.table, key: c.key })
    }
    return { puts, deletes }
  }
}


function compareKeys(a: Key, b: Key): number {
  if (typeof a === typeof b) return a < b ? -1 : a > b ? 1 : 0
  return typeof a === 'number' ? -1 : 1 // IndexedDB orders numbers before strings
}

class MemoryTx implements WriteTx {
  done = false
  readonly #store: MemoryStorage
  readonly #staged: Staged
  readonly #writable: boolean

  constructor(store: MemoryStorage, staged: Staged, writable: boolean) {
    this.#store = store
    this.#staged = staged
    this.#writable = writable
  }

  #rows(table: string): Map<Key, object> {
    const base = this.#store._table(table)
    const staged = this.#staged.byTable.get(table)
    if (!staged) return base
    const merged = new Map(base)
    for (const [key, row] of staged) {
      if (row) merged.set(key, row)
      else merged.delete(key)
    }
    return merged
  }

  /** Keys in order: the store's cache when this transaction has not touched the table. */
  #keys(table: string): Key[] {
    const staged = this.#staged.byTable.get(table)
    if (!staged) return this.#store._sortedKeys(table)
    return [...this.#rows(table).keys()].sort(compareKeys)
  }

  #sorted(table: string): object[] {
    const rows = this.#rows(table)
    return this.#keys(table).map((k) => rows.get(k)!)
  }

  async get<T>(table: string, key: Key): Promise<T | undefined> {
    const staged = this.#staged.byTable.get(table)
    if (staged?.has(key)) return staged.get(key) as T | undefined
    return this.#store._table(table).get(key) as T | undefined
  }

  async getMany<T>(table: string, keys: readonly Key[]): Promise<Array<T | undefined>> {
    return Promise.all(keys.map((k) => this.get<T>(table, k)))
  }

  async all<T>(table: string): Promise<T[]> {
    return this.#sorted(table) as T[]
  }

  async after<T>(table: string, after: Key, limit = Infinity): Promise<T[]> {
    const keys = this.#keys(table)
    const rows = this.#rows(table)
    const out: object[] = []
    let i = lowerBound(keys, after, compareKeys)
    if (i < keys.length && compareKeys(keys[i]!, after) === 0) i++
    for (; i < keys.length && out.length < limit; i++) out.push(rows.get(keys[i]!)!)
    return out as T[]
  }

  async between<T>(table: string, from: Key | null, to: Key | null): Promise<T[]> {
    const keys = this.#keys(table)
    const rows = this.#rows(table)
    const out: object[] = []
    for (let i = from === null ? 0 : lowerBound(keys, from, compareKeys); i < keys.length; i++) {
      if (to !== null && compareKeys(keys[i]!, to) >= 0) break
      out.push(rows.get(keys[i]!)!)
    }
    return out as T[]
  }

  async last<T>(table: string): Promise<T | undefined> {
    const keys = this.#keys(table)
    return keys.length ? (this.#rows(table).get(keys[keys.length - 1]!) as T) : undefined
  }

  async where<T>(table: string, index: string, value: Key): Promise<T[]> {
    const keys = this.#indexed(table, index, value)
    const staged = this.#staged.byTable.get(table)
    const base = this.#store._table(table)
    return [...keys].sort(compareKeys).map((k) => (staged?.has(k) ? staged.get(k) : base.get(k))!) as T[]
  }

  async countWhere(table: string, index: string, value: Key): Promise<number> {
    return this.#indexed(table, index, value).size
  }

  async countOthers(table: string, index: string, values: readonly Key[]): Promise<number> {
    let wanted = 0
    for (const value of new Set(values)) wanted += this.#indexed(table, index, value).size
    return (await this.count(table)) - wanted
  }

  /** The keys of rows whose `index` equals `value`: the committed rows through the index, then this transaction's own changes over them. */
  #indexed(table: string, index: string, value: Key): Set<Key> {
    const spec = this.#store._spec(table)
    if (!spec.indexes?.includes(index)) throw new MemweaveError(ErrorCode.INTERNAL, `no index "${index}" on "${table}"`)
    const keys = new Set(this.#store._indexKeys(table, index, value))
    const staged = this.#staged.byTable.get(table)
    if (staged) {
      for (const [key, row] of staged) {
        if (row && (row as Record<string, unknown>)[index] === value) keys.add(key)
        else keys.delete(key)
      }
    }
    return keys
  }

  async count(table: string): Promise<number> {
    return this.#rows(table).size
  }

  async put(table: string, rows: readonly object[]): Promise<Key[]> {
    this.#assertWritable()
    const spec = this.#store._spec(table)
    return rows.map((row) => {
      let copy = copyRow(row) as Record<string, unknown>
      let key = copy[spec.key] as Key | undefined
      if (key === undefined) {
        if (!spec.autoIncrement) throw new MemweaveError(ErrorCode.INTERNAL, `row for "${table}" lacks key "${spec.key}"`)
        key = this.#store._nextKey(table)
        copy = { ...copy, [spec.key]: key }
      }
      this.#staged.set(table, key, copy)
      return key
    })
  }

  async delete(table: string, keys: readonly Key[]): Promise<void> {
    this.#assertWritable()
    for (const key of keys) this.#staged.set(table, key, undefined)
  }

  #assertWritable(): void {
    if (!this.#writable) throw new MemweaveError(ErrorCode.INTERNAL, 'write in a read transaction')
    if (this.done) throw new MemweaveError(ErrorCode.INTERNAL, 'transaction already finished')
  }
}

/**
 * A row as IndexedDB would store it: a copy, so the caller's object can change afterwards. Rows
 * are JSON-like records; a hand copy of plain objects and arrays takes 0.6 µs where
 * `structuredClone` takes 2.9 µs for a pool record (a second of a 100k join). A typed array is
 * copied as its view's bytes (reading it back gives the same values at offset 0). Anything else
 * (dates, maps, holes, cycles) is left to `structuredClone`, and functions and symbols are
 * refused as it refuses them, so what is stored is what IndexedDB would have stored. A row that
 * cannot change (`freezeRow`) is kept as it is.
 */
function copyRow(row: object): unknown {
  if (isFrozenRow(row)) return row
  try {
    return copyPlain(row, 0)
  } catch (err) {
    if (err === NOT_PLAIN) return structuredClone(row)
    throw err
  }
}

const NOT_PLAIN = Symbol('not plain')
const MAX_DEPTH = 64

function copyPlain(v: unknown, depth: number): unknown {
  if (v === null) return v
  const type = typeof v
  if (type === 'function' || type === 'symbol') throw new DOMException(`${type} could not be cloned`, 'DataCloneError')
  if (type !== 'object') return v
  if (depth > MAX_DEPTH) throw NOT_PLAIN
  // Bytes (a Yjs update, a vector): the view's own bytes. structuredClone copies the whole buffer
  // under a view, and a join's update is a view into a message of tens of MB (0.4 s of a 100k join).
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return (v as unknown as { slice(): unknown }).slice()
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length)
    for (let i = 0; i < v.length; i++) {
      if (!(i in v)) throw NOT_PLAIN
      out[i] = copyPlain(v[i], depth + 1)
    }
    return out
  }
  const proto = Object.getPrototypeOf(v)
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN
  const o = v as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const k of Object.keys(o)) {
    if (k === '__proto__') throw NOT_PLAIN
    out[k] = copyPlain(o[k], depth + 1)
  }
  return out
}

/** Creates in-memory storage. Pass one instance to several memories to share it. */
export function memoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  return new MemoryStorage(options)
}
