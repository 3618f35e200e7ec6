/** A LexicalIndex as flat data (see `LexicalIndex.snapshot`). */
export interface LexicalSnapshot {
  /** Ref per slot, '\n'-joined; '' for a free slot. */
  readonly refs: string
  readonly lengths: Float64Array
  readonly free: Int32Array
  readonly totalLength: number
  /** Terms, '\n'-joined (a term never holds a line break); `counts[i]` postings of term i follow in `slots`/`tfs`. */
  readonly vocab: string
  readonly counts: Int32Array
  readonly slots: Int32Array
  readonly tfs: Int32Array
}

/** BM25 scores of the documents a query matched; `get` is undefined for a document it did not match. */
export interface TermScores {
  /** How many documents matched. */
  readonly size: number
  get(ref: string): number | undefined
  /** Every matched document and its score, in no particular order: where retrieve() starts. */
  forEach(callback: (score: number, ref: string) => void): void
}

/** The live documents a query matched (`LexicalIndex.matchLive`). */
export interface LiveMatches {
  /** How many live documents matched. */
  readonly count: number
  /** Slot and score of each live match (`count` of each), in no particular order. */
  readonly slots: Int32Array
  readonly scores: Float64Array
  /** The doc attached to a slot (see `attach`), as long as the index is unchanged. */
  doc(slot: number): unknown
  /** The query's score of an indexed document, 0 when it matched nothing: only while the callback runs. */
  scoreOf(ref: string): number
}

// Below this many matches the scores are copied into a small Map, which is faster to probe than
// the index's slot table; above it they are read from the slot-indexed array directly.
const SMALL = 4096

/** Whether a document scored `score` in `slot` comes before one that scored `otherScore` in `otherSlot` (`nearest`). */
const beats = (score: number, slot: number, otherScore: number, otherSlot: number): boolean =>
  score > otherScore || (score === otherScore && slot < otherSlot)

/**
 * One term's postings: the slots of the documents that hold it and how often, in two parallel
 * typed arrays (append on add, swap-remove on removal). Typed arrays rather than a Map per term:
 * at 100k facts a Map entry per posting was most of the index's heap and of its build time at open.
 */
class Postings {
  slots: Int32Array<ArrayBufferLike>
  tfs: Int32Array<ArrayBufferLike>
  /** Live entries: the term's document frequency. */
  size: number

  /** Empty, or a restored term's entries (`restore`: no empty arrays made only to be replaced, one pair per term). */
  constructor(slots: Int32Array<ArrayBufferLike> = new Int32Array(4), tfs: Int32Array<ArrayBufferLike> = new Int32Array(4), size = 0) {
    this.slots = slots
    this.tfs = tfs
    this.size = size
  }

  push(slot: number): void {
    // A document's terms are added together, so a repeat of the term is always the last entry.
    const n = this.size
    if (n > 0 && this.slots[n - 1] === slot) {
      this.tfs[n - 1]!++
      return
    }
    if (n === this.slots.length) {
      const slots = new Int32Array(n * 2), tfs = new Int32Array(n * 2)
      slots.set(this.slots)
      tfs.set(this.tfs)
      this.slots = slots
      this.tfs = tfs
    }
    this.slots[n] = slot
    this.tfs[n] = 1
    this.size = n + 1
  }

  delete(slot: number): void {
    const n = this.size
    const slots = this.slots
    for (let i = 0; i < n; i++) {
      if (slots[i] !== slot) continue
      slots[i] = slots[n - 1]!
      this.tfs[i] = this.tfs[n - 1]!
      this.size = n - 1
      return
    }
  }
}

/**
 * An inverted index with BM25 statistics for one tenant. One index per tenant, so document
 * frequencies (and therefore scores) never depend on another tenant's data: isolation holds
 * for the ranking's side channel too, not only for the answer set.
 *
 * Documents live in integer slots (reused after removal), so postings are small-integer arrays and
 * scoring accumulates into a typed array: no per-posting string hashing.
 */
export class LexicalIndex {
  readonly #postings = new Map<string, Postings>()
  readonly #slotOf = new Map<string, number>()
  readonly #refs: Array<string | undefined> = []
  readonly #free: number[] = []
  #lengths = new Float64Array(64)
  #totalLength = 0
  /**
   * Per slot: what the owner attached to the document (FactState: its Version) and whether it is
   * live (FactState: current). `matchLive` reads these instead of looking each match up by ref.
   */
  readonly #docs: unknown[] = []
  #live = new Uint8Array(64)
  /**
   * After `restore`: the snapshot's refs no document has been attached to yet (ref -> slot). They
   * are substrings of the snapshot's one joined string, which each would keep alive (V8 slices a
   * long substring out of its parent rather than copying it): `attach` moves a ref into `#slotOf`
   * under the attached version's own string, so after a load the index holds each ref once (the
   * version's) and the joined string is garbage. A ref left here after a load is a snapshot ref
   * with no live version: FactState rebuilds such an index (`checkLexical`, `settled`).
   */
  #pending: Map<string, number> | null = null
  /**
   * Scores and matched slots of the last query, reused: a fresh Float64Array of every slot per
   * query was 8 MB to allocate and zero at a million facts. Only touched slots are non-zero
   * between queries (each query clears what it set).
   */
  #acc = new Float64Array(0)
  #touched = new Int32Array(64)

  get size(): number {
    return this.#slotOf.size + (this.#pending?.size ?? 0)
  }

  has(ref: string): boolean {
    return this.#slotOf.has(ref) || (this.#pending?.has(ref) ?? false)
  }

  /** Every indexed ref (order unspecified). */
  refs(): IterableIterator<string> {
    const pending = this.#pending
    if (!pending || pending.size === 0) return this.#slotOf.keys()
    return (function* (own: Map<string, number>) {
      yield* own.keys()
      yield* pending.keys()
    })(this.#slotOf)
  }

  /** Snapshot refs no version was attached to since `restore` (0 once every one has been). */
  get unattached(): number {
    return this.#pending?.size ?? 0
  }

  /** Ends a load from a snapshot: refs never attached are dropped from the lookup (call `unattached` first). */
  settled(): void {
    this.#pending = null
  }

  /** The slot of an indexed ref, whether attached yet or not. */
  #slot(ref: string): number | undefined {
    return this.#slotOf.get(ref) ?? this.#pending?.get(ref)
  }

  /**
   * The whole index as a few strings and typed arrays (structured-cloneable, so IndexedDB stores
   * it as flat buffers): what `restore` rebuilds in O(terms + documents) instead of tokenizing
   * every document again. It holds index terms (stems of the documents' words) and refs, nothing
   * else; a hard delete drops it (src/facts/store.ts).
   */
  snapshot(): LexicalSnapshot {
    const vocab: string[] = []
    let total = 0
    for (const p of this.#postings.values()) total += p.size
    const counts = new Int32Array(this.#postings.size)
    const slots = new Int32Array(total), tfs = new Int32Array(total)
    let t = 0, at = 0
    for (const [term, p] of this.#postings) {
      vocab.push(term)
      counts[t++] = p.size
      slots.set(p.slots.subarray(0, p.size), at)
      tfs.set(p.tfs.subarray(0, p.size), at)
      at += p.size
    }
    return {
      refs: this.#refs.map((r) => r ?? '').join('\n'),
      lengths: this.#lengths.slice(0, this.#refs.length),
      free: Int32Array.from(this.#free),
      totalLength: this.#totalLength,
      vocab: vocab.join('\n'),
      counts,
      slots,
      tfs,
    }
  }

  /** The index a `snapshot()` was taken of: same slots, same postings, so the same scores. */
  static restore(s: LexicalSnapshot): LexicalIndex {
    const index = new LexicalIndex()
    // One free slot and nothing else joins to '' as well: restored as no slot, which add() handles alike.
    const refs = s.refs === '' ? [] : s.refs.split('\n')
    const pending = new Map<string, number>()
    refs.forEach((ref, slot) => {
      if (ref === '') index.#refs.push(undefined)
      else {
        // Replaced by the version's own string on attach (see #pending).
        index.#refs.push(ref)
        pending.set(ref, slot)
      }
    })
    index.#pending = pending
    index.#free.push(...s.free)
    index.#lengths = new Float64Array(Math.max(64, s.lengths.length))
    index.#lengths.set(s.lengths)
    index.#live = new Uint8Array(index.#lengths.length)
    index.#totalLength = s.totalLength
    const vocab = s.vocab === '' ? [] : s.vocab.split('\n')
    let at = 0
    vocab.forEach((term, t) => {
      const n = s.counts[t]!
      // Views into the snapshot's buffers: exactly n long, so the first push copies out (Postings grows).
      index.#postings.set(term, new Postings(s.slots.subarray(at, at + n), s.tfs.subarray(at, at + n), n))
      at += n
    })
    return index
  }

  /** Attaches `doc` to an indexed document (see `matchLive`); false when `ref` is not indexed. */
  attach(ref: string, doc: unknown): boolean {
    let slot = this.#slotOf.get(ref)
    if (slot === undefined) {
      slot = this.#pending?.get(ref)
      if (slot === undefined) return false
      this.#pending!.delete(ref)
      this.#slotOf.set(ref, slot)
      this.#refs[slot] = ref
    }
    this.#docs[slot] = doc
    return true
  }

  /** Marks a document live or not (see `matchLive`); unknown refs are ignored. */
  mark(ref: string, live: boolean): void {
    const slot = this.#slot(ref)
    if (slot !== undefined) this.#live[slot] = live ? 1 : 0
  }

  add(ref: string, terms: readonly string[], doc?: unknown): void {
    if (this.has(ref)) return
    const slot = this.#free.pop() ?? this.#refs.length
    if (slot === this.#refs.length) this.#refs.push(ref)
    else this.#refs[slot] = ref
    if (slot >= this.#lengths.length) {
      const grown = new Float64Array(this.#lengths.length * 2)
      grown.set(this.#lengths)
      this.#lengths = grown
      const live = new Uint8Array(grown.length)
      live.set(this.#live)
      this.#live = live
    }
    this.#docs[slot] = doc
    this.#live[slot] = 0
    this.#slotOf.set(ref, slot)
    for (const t of terms) {
      let p = this.#postings.get(t)
      if (!p) this.#postings.set(t, (p = new Postings()))
      p.push(slot)
    }
    this.#lengths[slot] = terms.length
    this.#totalLength += terms.length
  }

  remove(ref: string, terms: readonly string[]): void {
    const slot = this.#slot(ref)
    if (slot === undefined) return
    this.#pending?.delete(ref)
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
    this.#docs[slot] = undefined
    this.#live[slot] = 0
  }

  /**
   * BM25 (Robertson & Zaragoza 2009, with the non-negative IDF of Lucene) of every document that
   * holds at least one query term, weighted per term (weights ≤ 0 are ignored). Cost: the query
   * terms' postings, nothing else.
   */
  score(queryTerms: ReadonlyMap<string, number>, k1 = 1.2, b = 0.75): TermScores {
    if (this.size === 0) return new Map<string, number>()
    // Its own arrays: the answer is read after this returns, when another query may run.
    const acc = new Float64Array(this.#refs.length)
    const touched: number[] = []
    this.#accumulate(queryTerms, k1, b, acc, (slot) => void touched.push(slot))
    if (touched.length <= SMALL) {
      const small = new Map<string, number>()
      for (const slot of touched) small.set(this.#refs[slot]!, acc[slot]!)
      return small
    }
    const slotOf = (ref: string): number | undefined => this.#slot(ref)
    const refs = this.#refs
    return {
      size: touched.length,
      forEach(callback: (score: number, ref: string) => void): void {
        for (const slot of touched) callback(acc[slot]!, refs[slot]!)
      },
      get(ref: string): number | undefined {
        const slot = slotOf(ref)
        if (slot === undefined) return undefined
        const s = acc[slot]!
        return s > 0 ? s : undefined
      },
    }
  }

  /**
   * As `score`, for the live documents only, each handed over with the doc attached to it, in no
   * particular order, without a lookup per match.
   */
  scoreLive(queryTerms: ReadonlyMap<string, number>, k1: number, b: number, each: (score: number, doc: unknown) => void): void {
    // The matches are copied out before `each` runs (it may query again).
    const m = this.matchLive(queryTerms, k1, b, (matches) => matches)
    for (let i = 0; i < m.count; i++) each(m.scores[i]!, m.doc(m.slots[i]!))
  }

  /**
   * The live documents a query matches, as numbers: their slots and BM25 scores in two typed
   * arrays (in no particular order), handed to `use` together with a lookup of any document's
   * score by ref that holds while `use` runs (which must not query this index: the scores sit in
   * the buffer every query shares). retrieve() starts here (src/facts/rank.ts): it picks
   * the best matches on the numbers and makes Versions of those alone, and looks up the scores of
   * the few context neighbours by ref, without a Map of every match.
   */
  matchLive<T>(queryTerms: ReadonlyMap<string, number>, k1: number, b: number, use: (matches: LiveMatches) => T): T {
    if (this.#acc.length < this.#refs.length) this.#acc = new Float64Array(this.#lengths.length)
    const acc = this.#acc
    let touched = this.#touched, count = 0
    if (this.size > 0) {
      this.#accumulate(queryTerms, k1, b, acc, (slot) => {
        if (count === touched.length) {
          const grown = new Int32Array(count * 2)
          grown.set(touched)
          touched = grown
        }
        touched[count++] = slot
      })
    }
    this.#touched = touched
    const live = this.#live, docs = this.#docs
    let n = 0
    for (let i = 0; i < count; i++) if (live[touched[i]!] === 1) n++
    const slots = new Int32Array(n), scores = new Float64Array(n)
    for (let i = 0, j = 0; i < count; i++) {
      const slot = touched[i]!
      if (live[slot] !== 1) continue
      slots[j] = slot
      scores[j++] = acc[slot]!
    }
    const matches: LiveMatches = {
      count: n,
      slots,
      scores,
      doc: (slot) => docs[slot],
      scoreOf: (ref) => {
        const slot = this.#slot(ref)
        return slot === undefined ? 0 : acc[slot]!
      },
    }
    try {
      return use(matches)
    } finally {
      // Cleared for the next query: only the touched slots were set.
      for (let i = 0; i < count; i++) acc[touched[i]!] = 0
    }
  }

  /** Adds the query's BM25 scores into `acc` (zero where untouched); `touch` hears each slot the first time it scores. */
  #accumulate(queryTerms: ReadonlyMap<string, number>, k1: number, b: number, acc: Float64Array, touch: (slot: number) => void): void {
    const n = this.size
    const avgdl = this.#totalLength / n || 1
    const k1b = (k1 * b) / avgdl, k1nb = k1 * (1 - b)
    const lengths = this.#lengths
    for (const [term, weight] of queryTerms) {
      if (!(weight > 0)) continue
      const p = this.#postings.get(term)
      if (!p) continue
      const df = p.size
      const w = weight * Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (k1 + 1)
      const slots = p.slots, tfs = p.tfs
      for (let i = 0; i < df; i++) {
        const slot = slots[i]!, tf = tfs[i]!
        if (acc[slot] === 0) touch(slot)
        acc[slot]! += (w * tf) / (tf + k1nb + k1b * lengths[slot]!)
      }
    }
  }

  /**
   * The `k` documents nearest to a term list, scored on its rarest terms only (at most `probe`
   * of them, each in at most `maxDf` documents): names, identifiers and uncommon
   * words pick out what a text is about, and skipping common terms bounds the cost of a lookup
   * by the postings of rare terms, whatever the index's size.
   */
  nearest(terms: readonly string[], k: number, exclude?: string, probe = 4, maxDf = 1000): string[] {
    const n = this.size
    if (n === 0 || k <= 0) return []
    // A term only the excluded document holds finds nothing: skip it rather than spend a probe on it.
    const own = exclude !== undefined && this.has(exclude) ? 1 : 0
    const rare = [...new Set(terms)]
      .map((t) => [t, this.#postings.get(t)?.size ?? 0] as const)
      .filter(([, df]) => df > own && df <= maxDf)
      .sort((x, y) => x[1] - y[1])
      .slice(0, probe)
    // Scores add up in the buffer matchLive uses (all zero between calls), over the touched slots:
    // no Map entry per posting. The same sums in the same order as a Map gave, so the same top k.
    if (this.#acc.length < this.#refs.length) this.#acc = new Float64Array(this.#lengths.length)
    const acc = this.#acc
    let touched = this.#touched, count = 0
    for (const [t, df] of rare) {
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5))
      const p = this.#postings.get(t)!
      for (let i = 0; i < p.size; i++) {
        const slot = p.slots[i]!
        if (acc[slot] === 0) {
          if (count === touched.length) {
            const grown = new Int32Array(count * 2)
            grown.set(touched)
            this.#touched = touched = grown
          }
          touched[count++] = slot
        }
        acc[slot]! += idf
      }
    }
    const excluded = exclude === undefined ? -1 : (this.#slot(exclude) ?? -1)
    // Top k by a small insertion list (higher score, then lower slot): no sort of every scored document.
    const topSlot: number[] = [], topScore: number[] = []
    for (let j = 0; j < count; j++) {
      const slot = touched[j]!, score = acc[slot]!
      acc[slot] = 0
      if (slot === excluded) continue
      if (topSlot.length === k && !beats(score, slot, topScore[k - 1]!, topSlot[k - 1]!)) continue
      let i = topSlot.length < k ? topSlot.length : k - 1
      if (topSlot.length < k) {
        topSlot.push(slot)
        topScore.push(score)
      }
      while (i > 0 && beats(score, slot, topScore[i - 1]!, topSlot[i - 1]!)) {
        topSlot[i] = topSlot[i - 1]!
        topScore[i] = topScore[i - 1]!
        i--
      }
      topSlot[i] = slot
      topScore[i] = score
    }
    return topSlot.map((slot) => this.#refs[slot]!)
  }

  documentFrequency(term: string): number {
    return this.#postings.get(term)?.size ?? 0
  }
}
