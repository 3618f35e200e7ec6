import type { Key, ReadTx, StoragePort, WriteTx } from '../../src/storage/port.js'

/**
 * A storage port that counts what passes through it: transactions opened, and record rows fetched
 * by key. Tests prove "one transaction per tick" and "each record read once" through it.
 */
export class CountingStorage implements StoragePort {
  readonly #inner: StoragePort
  reads = 0
  writes = 0
  recordsFetched = 0
  /** The record kinds each write transaction put, in commit order. */
  readonly transactions: Array<Set<string>> = []
  watch?: (listener: () => void) => () => void

  constructor(inner: StoragePort) {
    this.#inner = inner
    if (inner.watch) this.watch = (listener) => inner.watch!(listener)
  }

  get kind(): string {
    return this.#inner.kind
  }
  get durable(): boolean {
    return this.#inner.durable
  }

  reset(): void {
    this.reads = 0
    this.writes = 0
    this.recordsFetched = 0
    this.transactions.length = 0
  }

  open(): Promise<void> {
    return this.#inner.open()
  }
  close(): Promise<void> {
    return this.#inner.close()
  }

  read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T> {
    this.reads++
    return this.#inner.read(tables, (tx) => body(this.#count(tx)))
  }

  write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    this.writes++
    const kinds = new Set<string>()
    this.transactions.push(kinds)
    return this.#inner.write(tables, (tx) => body(this.#count(tx, kinds)))
  }

  #count<T extends ReadTx>(tx: T, kinds?: Set<string>): T {
    const self = this
    return new Proxy(tx, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown
        if (typeof value !== 'function') return value
        if (prop === 'get') {
          return (table: string, key: Key) => {
            if (table === 'records') self.recordsFetched++
            return target.get(table, key)
          }
        }
        if (prop === 'put' && kinds) {
          return (table: string, rows: readonly object[]) => {
            if (table === 'records') for (const row of rows) kinds.add((row as { kind: string }).kind)
            return (target as unknown as WriteTx).put(table, rows)
          }
        }
        if (prop === 'getMany') {
          return (table: string, keys: readonly Key[]) => {
            if (table === 'records') self.recordsFetched += keys.length
            return target.getMany(table, keys)
          }
        }
        return (value as (...args: unknown[]) => unknown).bind(target)
      },
    })
  }
}
