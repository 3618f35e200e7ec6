/**
 * An inverted index with BM25 statistics for one tenant. One index per tenant, so document
 * frequencies (and therefore scores) never depend on another tenant's data: isolation holds
 * for the ranking's side channel too, not only for the answer set.
 */
export class LexicalIndex {
  readonly #postings = new Map<string, Map<string, number>>()
  readonly #lengths = new Map<string, number>()
  #totalLength = 0

  get size(): number {
    return this.#lengths.size
  }

  add(ref: string, terms: readonly string[]): void {
    if (this.#lengths.has(ref)) return
    const tf = new Map<string, number>()
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1)
    for (const [t, n] of tf) {
      let p = this.#postings.get(t)
      if (!p) this.#postings.set(t, (p = new Map()))
      p.set(ref, n)
    }
    this.#lengths.set(ref, terms.length)
    this.#totalLength += terms.length
  }

  remove(ref: string, terms: readonly string[]): void {
    const length = this.#lengths.get(ref)
    if (length === undefined) return
    for (const t of new Set(terms)) {
      const p = this.#postings.get(t)
      if (!p) continue
      p.delete(ref)
      if (p.size === 0) this.#postings.delete(t)
    }
    this.#lengths.delete(ref)
    this.#totalLength -= length
  }

  /**
   * BM25 (Robertson & Zaragoza 2009, with the non-negative IDF of Lucene) of every document that
   * holds at least one query term; `weights` lets callers down-weight some query terms.
   */
  score(queryTerms: ReadonlyMap<string, number>, k1 = 1.2, b = 0.75): Map<string, number> {
    const scores = new Map<string, number>()
    const n = this.#lengths.size
    if (n === 0) return scores
    const avgdl = this.#totalLength / n || 1
    for (const [term, weight] of queryTerms) {
      const p = this.#postings.get(term)
      if (!p) continue
      const idf = Math.log(1 + (n - p.size + 0.5) / (p.size + 0.5))
      for (const [ref, tf] of p) {
        const dl = this.#lengths.get(ref)!
        const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / avgdl))
        scores.set(ref, (scores.get(ref) ?? 0) + weight * s)
      }
    }
    return scores
  }

  documentFrequency(term: string): number {
    return this.#postings.get(term)?.size ?? 0
  }
}
