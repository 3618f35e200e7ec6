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
    // One author pending (a join from one writer, the owner's own catch-up): no turns to take.
    if (this.#buckets.size === 1) {
      const [name, b] = this.#buckets.entries().next().value as [string, { keys: string[]; next: number }]
      while (out.length < limit && b.next < b.keys.length) {
        const key = b.keys[b.next++]!
        if (!live(key) || seen.has(key)) continue
        seen.add(key)
        out.push(key)
      }
      if (b.next >= b.keys.length) this.#buckets.delete(name)
      else if (b.next > 1024 && b.next * 2 > b.keys.length) {
        b.keys = b.keys.slice(b.next)
        b.next = 0
      }
      return out
    }
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
/** Passes remembered for the estimate. */
const WINDOW = 16

/**
 * How many keys the next pass takes. A pass costs a fixed part (re-deriving the pool, the fact
 * view's pass over it: linear in the pool, not in the slice) plus a part per key, fitted over the
 * recent passes (least squares; sizes alternate a little so the two can be told apart). A pass gets
 * `budgetMs` in all while the fixed part is small; once the fixed part alone is a large share of
 * it (a big pool), the keys get three times the fixed part, so that passes stay at least 75%
 * useful work: a new device joining a 10k pool must not pay the fixed part once per handful of records.
 */
export class SliceSize {
  readonly #budgetMs: number
  readonly #min: number
  readonly #max: number
  readonly #first: number
  readonly #growth: number
  readonly #passes: Array<{ keys: number; ms: number }> = []

  /**
   * `first`: the size of the first pass, before any was measured. `growth`: how many times the
   * largest pass measured the next may take. A line fitted to small passes on a busy machine
   * extrapolates badly (passes of 1 to 38 keys, noisy by tens of ms, fitted 0.01 ms a key, and the
   * next pass took 2,565 keys of a flood for a whole second with an honest record behind it), so
   * passes somebody waits behind double at most; a catch-up, where nobody waits, goes by the fit.
   */
  constructor(budgetMs: number, { min = 1, max = 50_000, first = FIRST, growth = Infinity }: { min?: number; max?: number; first?: number; growth?: number } = {}) {
    this.#budgetMs = budgetMs
    this.#min = min
    this.#max = max
    this.#first = first
    this.#growth = growth
  }

  get next(): number {
    const passes = this.#passes
    if (passes.length === 0) return this.#first
    const { fixed, perKey } = fit(passes)
    const forKeys = Math.max(this.#budgetMs - fixed, 3 * fixed)
    // Alternately a little more and a little less: passes of one size cannot tell the fixed part from the rest.
    const jitter = passes.length % 2 ? 1.25 : 0.8
    const measured = Math.max(this.#first, this.#growth * Math.max(...passes.map((p) => p.keys)))
    return Math.max(this.#min, Math.min(this.#max, measured, Math.floor((jitter * forKeys) / Math.max(perKey, 1e-3))))
  }

  /** A pass judged `keys` new keys in `ms`. */
  note(keys: number, ms: number): void {
    if (keys === 0) return
    this.#passes.push({ keys, ms })
    if (this.#passes.length > WINDOW) this.#passes.shift()
  }
}

/** Least squares of ms = fixed + perKey * keys over the passes (fixed >= 0); all of it per key when the sizes do not differ. */
function fit(passes: ReadonlyArray<{ keys: number; ms: number }>): { fixed: number; perKey: number } {
  const n = passes.length
  const mk = passes.reduce((s, p) => s + p.keys, 0) / n
  const mt = passes.reduce((s, p) => s + p.ms, 0) / n
  const vk = passes.reduce((s, p) => s + (p.keys - mk) ** 2, 0)
  const perKeyAll = mt / mk
  if (vk < 1e-9) return { fixed: 0, perKey: perKeyAll }
  const perKey = passes.reduce((s, p) => s + (p.keys - mk) * (p.ms - mt), 0) / vk
  const fixed = mt - perKey * mk
  // Noise can make either negative: fall back to what a pass costs per key, all told.
  if (perKey <= 0 || fixed < 0) return { fixed: Math.max(0, Math.min(fixed, mt)), perKey: perKey > 0 ? perKey : perKeyAll }
  return { fixed, perKey }
}
