/**
 * A textbook BM25 baseline for the retrieval eval (scripts/eval-retrieval.ts). Deliberately plain:
 * lower-cased ASCII-alphanumeric tokens, no stemming, no stop words, k1 = 1.2, b = 0.75, the
 * non-negative IDF `ln(1 + (N - n + 0.5) / (n + 0.5))` (Lucene's; the classic Robertson–Spärck Jones
 * IDF goes negative for terms in more than half the documents), each distinct query term counted
 * once. Ties, including the zero-score tail, keep write order. Not shipped: it lives in scripts/.
 */
export interface BaselineDoc {
  readonly text: string
  /** What the document costs against the budget (characters, as memweave counts them). */
  readonly cost: number
}

export function baselineTokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+/g) ?? []
}

export class Bm25Baseline {
  readonly #docs: readonly BaselineDoc[]
  readonly #postings = new Map<string, Array<[doc: number, tf: number]>>()
  readonly #lengths: number[] = []
  readonly #avgdl: number
  readonly #k1: number
  readonly #b: number

  constructor(docs: readonly BaselineDoc[], k1 = 1.2, b = 0.75) {
    this.#docs = docs
    this.#k1 = k1
    this.#b = b
    let total = 0
    docs.forEach((d, i) => {
      const toks = baselineTokens(d.text)
      const tf = new Map<string, number>()
      for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1)
      for (const [t, n] of tf) {
        let p = this.#postings.get(t)
        if (!p) this.#postings.set(t, (p = []))
        p.push([i, n])
      }
      this.#lengths.push(toks.length)
      total += toks.length
    })
    this.#avgdl = docs.length ? total / docs.length || 1 : 1
  }

  /** Every document index, best first: score descending, then write order. */
  rank(query: string): number[] {
    const n = this.#docs.length
    const scores = new Float64Array(n)
    for (const term of new Set(baselineTokens(query))) {
      const p = this.#postings.get(term)
      if (!p) continue
      const idf = Math.log(1 + (n - p.length + 0.5) / (p.length + 0.5))
      for (const [doc, tf] of p) {
        const norm = this.#k1 * (1 - this.#b + (this.#b * this.#lengths[doc]!) / this.#avgdl)
        scores[doc]! += (idf * tf * (this.#k1 + 1)) / (tf + norm)
      }
    }
    const order = Array.from({ length: n }, (_, i) => i)
    order.sort((a, b) => scores[b]! - scores[a]! || a - b)
    return order
  }

  /** The same rule as memweave's pack(): whole documents in rank order until the first that does not fit. */
  retrieve(query: string, budget: number): number[] {
    const out: number[] = []
    let used = 0
    for (const i of this.rank(query)) {
      const cost = this.#docs[i]!.cost
      if (used + cost > budget) break
      used += cost
      out.push(i)
    }
    return out
  }
}
