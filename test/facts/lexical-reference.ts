// The lexical index as it was before issue 15's retrieval change, verbatim (renamed), for the
// reference ranking in test/facts/rank-reference.ts. Test-only.
/** BM25 scores of the documents a query matched; `get` is undefined for a document it did not match. */
export interface TermScores {
  /** How many documents matched. */
  readonly size: number
  get(ref: string): number | undefined
}

// Below this many matches the scores are copied into a small Map, which is faster to probe than
// the index's slot table; above it they are read from the slot-indexed array directly.
const SMALL = 4096

/**
 * An inverted index with BM25 statistics for one tenant. One index per tenant, so document
 * frequencies (and therefore scores) never depend on another tenant's data: isolation holds
 * for the ranking's side channel too, not only for the answer set.
 *
 * Documents live in integer slots (reused after removal), so postings are small-integer maps and
 * scoring accumulates into a typed array: no per-posting string hashing.
 */
export class ReferenceLexicalIndex {
  readonly #postings = new Map<string, Map<number, number>>()
  readonly #slotOf = new Map<string, number>()
  readonly #refs: Array<string | undefined> = []
  readonly #free: number[] = []
  #lengths = new Float64Array(64)
  #totalLength = 0

  get size(): number {
    return this.#slotOf.size
  }

  add(ref: string, terms: readonly string[]): void {
    if (this.#slotOf.has(ref)) return
    const slot = this.#free.pop() ?? this.#refs.length
    if (slot === this.#refs.length) this.#refs.push(ref)
    else this.#refs[slot] = ref
    if (slot >= this.#lengths.length) {
      const grown = new Float64Array(this.#lengths.length * 2)
      grown.set(this.#lengths)
      this.#lengths = grown
    }
    this.#slotOf.set(ref, slot)
    const tf = new Map<string, number>()
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1)
    for (const [t, n] of tf) {
      let p = this.#postings.get(t)
      if (!p) this.#postings.set(t, (p = new Map()))
      p.set(slot, n)
    }
    this.#lengths[slot] = terms.length
    this.#totalLength += terms.length
  }

  remove(ref: string, terms: readonly string[]): void {
    const slot = this.#slotOf.get(ref)
    if (slot === undefined) return
    for (const t of new Set(terms)) {
      const p = this.#postings.get(t)
      if (!p) continue
      p.delete(slot)
      if (p.size === 0) this.#postings.delete(t)
    }
    this.#slotOf.delete(ref)
    this.#refs[slot] = undefined
    this.#free.push(slot)
    this.#totalLength -= this.#lengths[slot]!
    this.#lengths[slot] = 0
  }

  /**
   * BM25 (Robertson & Zaragoza 2009, with the non-negative IDF of Lucene) of every document that
   * holds at least one query term, weighted per term (weights ≤ 0 are ignored). Cost: the query
   * terms' postings, nothing else.
   */
  score(queryTerms: ReadonlyMap<string, number>, k1 = 1.2, b = 0.75): TermScores {
    const n = this.#slotOf.size
    if (n === 0) return new Map<string, number>()
    const avgdl = this.#totalLength / n || 1
    const k1b = (k1 * b) / avgdl, k1nb = k1 * (1 - b)
    const acc = new Float64Array(this.#refs.length)
    const touched: number[] = []
    const lengths = this.#lengths
    for (const [term, weight] of queryTerms) {
      if (!(weight > 0)) continue
      const p = this.#postings.get(term)
      if (!p) continue
      const w = weight * Math.log(1 + (n - p.size + 0.5) / (p.size + 0.5)) * (k1 + 1)
      for (const [slot, tf] of p) {
        if (acc[slot] === 0) touched.push(slot)
        acc[slot]! += (w * tf) / (tf + k1nb + k1b * lengths[slot]!)
      }
    }
    if (touched.length <= SMALL) {
      const small = new Map<string, number>()
      for (const slot of touched) small.set(this.#refs[slot]!, acc[slot]!)
      return small
    }
    const slotOf = this.#slotOf
    return {
      size: touched.length,
      get(ref: string): number | undefined {
        const slot = slotOf.get(ref)
        if (slot === undefined) return undefined
        const s = acc[slot]!
        return s > 0 ? s : undefined
      },
    }
  }

  /**
   * The `k` documents nearest to a term list, scored on its rarest terms only (at most `probe`
   * of them, each in at most `maxDf` documents): names, identifiers and uncommon
   * words pick out what a text is about, and skipping common terms bounds the cost of a lookup
   * by the postings of rare terms, whatever the index's size.
   */
  nearest(terms: readonly string[], k: number, exclude?: string, probe = 4, maxDf = 1000): string[] {
    const n = this.#slotOf.size
    if (n === 0 || k <= 0) return []
    // A term only the excluded document holds finds nothing: skip it rather than spend a probe on it.
    const own = exclude !== undefined && this.#slotOf.has(exclude) ? 1 : 0
    const rare = [...new Set(terms)]
      .map((t) => [t, this.#postings.get(t)?.size ?? 0] as const)
      .filter(([, df]) => df > own && df <= maxDf)
      .sort((x, y) => x[1] - y[1])
      .slice(0, probe)
    const scores = new Map<number, number>()
    for (const [t, df] of rare) {
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5))
      for (const slot of this.#postings.get(t)!.keys()) scores.set(slot, (scores.get(slot) ?? 0) + idf)
    }
    const excluded = exclude === undefined ? -1 : (this.#slotOf.get(exclude) ?? -1)
    // Top k by a small insertion list: no sort of every scored document.
    const top: Array<[number, number]> = []
    const better = (a: [number, number], b: [number, number]): boolean => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0])
    for (const e of scores) {
      if (e[0] === excluded) continue
      if (top.length === k && !better(e, top[k - 1]!)) continue
      let i = top.length < k ? top.length : k - 1
      if (top.length < k) top.push(e)
      while (i > 0 && better(e, top[i - 1]!)) {
        top[i] = top[i - 1]!
        i--
      }
      top[i] = e
    }
    return top.map(([slot]) => this.#refs[slot]!)
  }

  documentFrequency(term: string): number {
    return this.#postings.get(term)?.size ?? 0
  }
}
