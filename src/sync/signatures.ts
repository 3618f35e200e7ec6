import { verifyRecord, type PoolRecord } from '../pools/records.js'

/**
 * Signature verdicts, computed once per (id, signature): records are content-addressed, so a
 * verdict never changes. The check itself is the pools module's (`verifyRecord`: the id matches
 * the content, and the author's key signed the 16 id bytes); this only remembers and batches.
 * Verification is asynchronous (WebCrypto), which is why the materializer takes its verdicts as
 * input instead of calling it: that keeps the materializer a pure function.
 */
export class SignatureCache {
  readonly #verdicts = new Map<string, boolean>()
  /** Past this many entries the cache starts over (a verdict is cheap to recompute, memory is not free). */
  readonly #max: number

  constructor(max = 500_000) {
    this.#max = max
  }

  static key(record: Pick<PoolRecord, 'id' | 'sig'>): string {
    return `${record.id}.${record.sig}`
  }

  /** Verdicts for `records` (cached ones included), keyed by `SignatureCache.key`. */
  async verify(records: Iterable<PoolRecord>): Promise<ReadonlyMap<string, boolean>> {
    const todo: PoolRecord[] = []
    const seen = new Set<string>()
    for (const r of records) {
      const k = SignatureCache.key(r)
      if (!this.#verdicts.has(k) && !seen.has(k)) {
        seen.add(k)
        todo.push(r)
      }
    }
    if (this.#verdicts.size + todo.length > this.#max) this.#verdicts.clear()
    const ok = await Promise.all(todo.map((r) => verifyRecord(r)))
    todo.forEach((r, i) => this.#verdicts.set(SignatureCache.key(r), ok[i]!))
    return this.#verdicts
  }
}
