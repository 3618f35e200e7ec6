/**
 * Fair slices of the keys a pool's document changed: what one materializer pass takes when more
 * is pending than a pass should judge. A pass is not interruptible (signatures verified, records
 * stored, the fact view brought up to date), so an honest record that arrives during a flood waits
 * for the pass in progress and then for its own: with unbounded passes that was the whole flood
 * (2.8 to 9 s behind 5,000 records, issue 13). Bounded passes bound the first wait; taking keys
 * round-robin by author bounds the second, whatever one author has pending.
 */

/**
 * Changed keys queued by who wrote them (a bucket per member; one bucket for whatever is not a
 * member's record), taken one per bucket in turn, the buckets served last going to the back. The
 * queues are kept as keys arrive, so a pass pays for what it takes, not for what is pending.
 */
export class FairQueue {
  readonly #buckets = new Map<string, { keys: string[]; next: number }>()

  add(key: string, bucket: string): void {
    let b = this.#buckets.get(bucket)
    if (!b) this.#buckets.set(bucket, (b = { keys: [], next: 0 }))
    b.keys.push(key)
  }

  /** Up to `limit` keys for which `live` holds (a key queued twice, or taken already, is skipped). */
  take(limit: number, live: (key: string) => boolean): string[] {
    const out: string[] = []
    const seen = new Set<string>()
    while (out.length < limit && this.#buckets.size > 0) {
      for (const [name, b] of [...this.#buckets]) {
        if (out.length >= limit) break
        while (b.next < b.keys.length && (!live(b.keys[b.next]!) || seen.has(b.keys[b.next]!))) b.next++
        // Served (or empty): to the back of the round, so the next pass starts with another bucket.
        this.#buckets.delete(name)
        if (b.next >= b.keys.length) continue
        const key = b.keys[b.next++]!
        seen.add(key)
        out.push(key)
        if (b.next > 1024 && b.next * 2 > b.keys.length) {
          b.keys = b.keys.slice(b.next)
          b.next = 0
        }
        this.#buckets.set(name, b)
      }
    }
    return out
  }

  clear(): void {
    this.#buckets.clear()
  }
}

/** Before any pass was measured: small, since a pass cannot be interrupted. */
const FIRST = 4

/**
 * How many keys the next pass takes: as many as fit in `budgetMs` at the cost per key of the last
 * passes (a slow machine takes fewer), within [min, max].
 */
export class SliceSize {
  readonly #budgetMs: number
  readonly #min: number
  readonly #max: number
  #msPerKey: number | null = null

  constructor(budgetMs: number, min = 1, max = 20_000) {
    this.#budgetMs = budgetMs
    this.#min = min
    this.#max = max
  }

  get next(): number {
    if (this.#msPerKey === null) return FIRST
    return Math.max(this.#min, Math.min(this.#max, Math.floor(this.#budgetMs / this.#msPerKey)))
  }

  /** A pass judged `keys` new keys in `ms`. */
  note(keys: number, ms: number): void {
    if (keys === 0) return
    const perKey = ms / keys
    this.#msPerKey = this.#msPerKey === null ? perKey : (this.#msPerKey + perKey) / 2
  }
}
