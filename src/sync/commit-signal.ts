import type { ReadTx, StoragePort, WriteTx } from '../storage/port.js'

/**
 * A storage port that also tells listeners about commits made through itself. The port's `watch`
 * reports other handles' commits only (IndexedDB's BroadcastChannel does not echo to its sender),
 * and the sync layer must hear this Memory's own pool writes to carry them into the Y.Doc. Every
 * module of a Memory writes through this wrapper, so every local commit is heard exactly once.
 */
export class SignallingStorage implements StoragePort {
  readonly #inner: StoragePort
  readonly #listeners = new Set<() => void>()

  constructor(inner: StoragePort) {
    this.#inner = inner
    if (inner.watch) this.watch = (listener) => inner.watch!(listener)
  }

  /** The wrapped adapter (benchmarks and tests reach its extras through this). */
  get inner(): StoragePort {
    return this.#inner
  }

  get kind(): string {
    return this.#inner.kind
  }

  get durable(): boolean {
    return this.#inner.durable
  }

  watch?: (listener: () => void) => () => void

  /** Calls `listener` after each commit made through this port. Returns the unsubscribe function. */
  onCommit(listener: () => void): () => void {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  open(): Promise<void> {
    return this.#inner.open()
  }

  close(): Promise<void> {
    return this.#inner.close()
  }

  read<T>(tables: readonly string[], body: (tx: ReadTx) => Promise<T>): Promise<T> {
    return this.#inner.read(tables, body)
  }

  async write<T>(tables: readonly string[], body: (tx: WriteTx) => Promise<T>): Promise<T> {
    const result = await this.#inner.write(tables, body)
    if (tables.includes('log')) for (const listener of [...this.#listeners]) listener()
    return result
  }
}
