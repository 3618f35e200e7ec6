import type { Key, ReadTx, StoragePort, WriteTx } from '../src/storage/port.js'

/**
 * A storage port that counts what passes through it: transactions opened, and record rows fetched
 * by key. Tests prove "one transaction per tick" and "each record read once" through it.
 */
export class CountingStorage implements StoragePort {
  readonly #inner: StoragePort
  reads = 0
  writes = 0
  recordsFetched = 0
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
    return this.#inner.write(tables, (tx) => body(this.#count(tx)))
  }

  #count<T extends ReadTx>(tx: T): T {
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
