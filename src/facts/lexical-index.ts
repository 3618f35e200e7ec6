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
  /** How many live documents matched (and are here: see `complete`). */
  readonly count: number
  /** Whether every live match is here (`matchLive` with `top` may leave out those below the best). */
  readonly complete: boolean
  /** Slot and score of each live match (`count` of each), in no particular order. */
  readonly slots: Int32Array
  readonly scores: Float64Array
  /** The doc attached to a slot (see `attach`), as long as the index is unchanged. */
  doc(slot: number): unknown
  /** The query's score of an indexed document, 0 when it matched nothing: only while the callback runs. */
  scoreOf(ref: string): number
}

/** No slot: past every real one. */
const NONE = 0x7fffffff

/**
 * The relative margin on a score bound: a bound is compared with sums of the same terms made in
 * another order, which may differ from the score by a few units in the last place (about 1e-16
 * each); a document is left out only when its bound is clearly below the floor.
 */
const SLACK = 1 + 1e-9

/**
 * The first position at or after `i` whose slot is at least `slot` in `p`'s postings (slot
 * order): a galloping search from `i`, so a walk of seeks moving forward costs O(log gap) each.
 */
function seek(p: Postings, i: number, slot: number): number {
  const slots = p.slots, n = p.end
  if (i >= n || slots[i]! >= slot) return i
  // slots[lo] < slot throughout.
  let lo = i, step = 1
  while (lo + step < n && slots[lo + step]! < slot) {
    lo += step
    step *= 2
  }
  let l = lo + 1, r = Math.min(lo + step, n)
  while (l < r) {
    const mid = (l + r) >>> 1
    if (slots[mid]! < slot) l = mid + 1
    else r = mid
  }
  return l
}

// Below this many matches the scores are copied into a small Map, which is faster to probe than
// the index's slot table; above it they are read from the slot-indexed array directly.
const SMALL = 4096


/**
 * One term's postings: the slots of the documents that hold it and how often, in two parallel
 * typed arrays, in slot order (issue 31: so a query can walk several terms' postings side by side
 * and skip what cannot reach its best matches, see `LexicalIndex.matchLive`). Typed arrays rather
 * than a Map per term: at 100k facts a Map entry per posting was most of the index's heap and of
 * its build time at open.
 *
 * A write costs O(its terms), never O(a term's postings) (issue 31, sixth round). A new
 * document always takes a new slot, past every other (freed slots are not reused before the next
 * restore): its posting is appended. A removal marks its posting dead (tf 0) where it is, and a
 * term's entries are compacted once more than half of them are dead: O(1) amortized per removal.
 * Every walk skips dead entries (`tf === 0`); their slots stay in order, so seeks are unchanged.
 * Snapshots written before issue 31's sixth round hold postings in the order swap-removal left
 * them: `ready` sorts a term's postings the first time a query or a write uses it.
 */
class Postings {
  slots: Int32Array<ArrayBufferLike>
  /** Per entry: how often the term occurs in the document; 0 for a dead entry (a removed document). */
  tfs: Int32Array<ArrayBufferLike>
  /** Entries in use, live and dead: walks stop here. */
  end: number
  /** Live entries: the term's document frequency. */
  size: number
  /**
   * The largest tf and the shortest document among the postings (or more and less: removals do not
   * tighten them): the term's most a document can score, for skipping. -1 until known (`ready`).
   */
  maxTf = -1
  minLength = 0
  /** Whether the entries are known to be in slot order (false for a restored term until `ready`). */
  ordered: boolean

  /** Empty, or a restored term's entries (`restore`: no empty arrays made only to be replaced, one pair per term). */
  constructor(slots?: Int32Array<ArrayBufferLike>, tfs?: Int32Array<ArrayBufferLike>, size = 0) {
    this.slots = slots ?? new Int32Array(4)
    this.tfs = tfs ?? new Int32Array(4)
    this.size = size
    this.end = size
    this.ordered = slots === undefined
  }

  /** Sorts restored entries into slot order if they are not, and learns the bounds: O(df) once a term. */
  ready(lengths: Float64Array): this {
    if (!this.ordered) {
      // A restored term has no dead entries until its first removal, which comes after this.
      this.ordered = true
      const n = this.end, slots = this.slots
      let sorted = true
      for (let i = 1; i < n && sorted; i++) sorted = slots[i - 1]! < slots[i]!
      if (!sorted) {
        const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => slots[a]! - slots[b]!)
        const s = new Int32Array(n), t = new Int32Array(n)
        for (let i = 0; i < n; i++) {
          s[i] = slots[order[i]!]!
          t[i] = this.tfs[order[i]!]!
        }
        this.slots = s
        this.tfs = t
      }
    }
    if (this.maxTf < 0) {
      let maxTf = 0, minLength = Infinity
      for (let i = 0; i < this.end; i++) {
        if (this.tfs[i] === 0) continue
        if (this.tfs[i]! > maxTf) maxTf = this.tfs[i]!
        const l = lengths[this.slots[i]!]!
        if (l < minLength) minLength = l
      }
      this.maxTf = maxTf
      this.minLength = minLength
    }
    return this
  }

  /** Where `slot` is, or where it would go (the first entry past it), dead or live. Needs `ordered`. */
  find(slot: number): number {
    const slots = this.slots
    let lo = 0, hi = this.end
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (slots[mid]! < slot) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /**
   * One more occurrence of the term in the document in `slot`, `length` terms long. `slot` is the
   * newest document's (`LexicalIndex.add`): past every entry, or the last one's (a repeated term).
   */
  push(slot: number, length: number, lengths: Float64Array): void {
    if (!this.ordered) this.ready(lengths)
    const n = this.end
    if (n > 0 && this.slots[n - 1] === slot) {
      const tf = ++this.tfs[n - 1]!
      if (this.maxTf >= 0 && tf > this.maxTf) this.maxTf = tf
      return
    }
    if (n === this.slots.length) {
      // Doubling: O(1) amortized per append.
      const slots = new Int32Array(n * 2), tfs = new Int32Array(n * 2)
      slots.set(this.slots.subarray(0, n))
      tfs.set(this.tfs.subarray(0, n))
      this.slots = slots
      this.tfs = tfs
    }
    this.slots[n] = slot
    this.tfs[n] = 1
    this.end = n + 1
    this.size++
    if (this.maxTf >= 0) {
      if (this.maxTf < 1) this.maxTf = 1
      if (length < this.minLength) this.minLength = length
    }
  }

  /** Marks the posting of `slot` dead; compacts the entries once more than half are dead. */
  delete(slot: number, lengths: Float64Array): void {
    // Only the order is needed: the bounds (an O(df) pass) wait for a query.
    if (!this.ordered) this.ready(lengths)
    const at = this.find(slot)
    if (at === this.end || this.slots[at] !== slot || this.tfs[at] === 0) return
    this.tfs[at] = 0
    this.size--
    if (this.size * 2 < this.end) this.compact()
  }

  /** Drops the dead entries, in place: O(entries), after at least as many removals as live entries. */
  compact(): void {
    const slots = this.slots, tfs = this.tfs, n = this.end
    let j = 0
    for (let i = 0; i < n; i++) {
      if (tfs[i] === 0) continue
      slots[j] = slots[i]!
      tfs[j++] = tfs[i]!
    }
    this.end = j
  }

  /** The live entries, packed (for a snapshot). */
  live(): { readonly slots: Int32Array<ArrayBufferLike>; readonly tfs: Int32Array<ArrayBufferLike> } {
    if (this.end !== this.size) this.compact()
    return { slots: this.slots.subarray(0, this.size), tfs: this.tfs.subarray(0, this.size) }
  }
}

/**
 * An inverted index with BM25 statistics for one tenant. One index per tenant, so document
 * frequencies (and therefore scores) never depend on another tenant's data: isolation holds
 * for the ranking's side channel too, not only for the answer set.
 *
 * Documents live in integer slots (a freed one is not reused: it is dropped at the next restore),
 * so postings are small-integer arrays and scoring accumulates into a typed array: no per-posting
 * string hashing.
 */
export class LexicalIndex {
  readonly #postings = new Map<string, Postings>()
  readonly #slotOf = new Map<string, number>()
  readonly #refs: Array<string | undefined> = []
  #lengths = new Float64Array(64)
  #totalLength = 0
  /**
   * Per slot: what the owner attached to the document (FactState: its Version) and whether it is
   * live (FactState: current). `matchLive` reads these instead of looking each match up by ref.
   */
  readonly #docs: unknown[] = []
  #live = new Uint8Array(64)
  /**
   * After `restore`: slots below this came from the snapshot, keyed in `#slotOf` by substrings of
   * its one joined string (V8 slices them out of it). A restored slot with no doc attached and a
   * ref still in `#refs` is a snapshot ref no version was attached to yet (`#unattached` of them).
   * They stay the lookup's keys when attached (issue 31, open37): moving each ref to the version's
   * own string cost a Map delete and a Map set per fact at every open (15% of the open's
   * JavaScript in the Node profile at 100k), for about 55 B a fact of heap the joined string and
   * its slices hold. A ref still unattached after a load is a snapshot ref with no live version:
   * FactState rebuilds such an index (`checkLexical`, `settled`).
   */
  #restored = 0
  #unattached = 0
  /**
   * Scores and matched slots of the last query, reused: a fresh Float64Array of every slot per
   * query was 8 MB to allocate and zero at a million facts. Only touched slots are non-zero
   * between queries (each query clears what it set).
   */
  #acc = new Float64Array(0)
  #touched = new Int32Array(64)
  /** `#matchTop`'s buffers, reused: its heap of the best scores, and the matches it hands over. */
  #heap = new Float64Array(0)
  #outSlots = new Int32Array(256)
  #outScores = new Float64Array(256)

  get size(): number {
    return this.#slotOf.size
  }

  has(ref: string): boolean {
    return this.#slotOf.has(ref)
  }

  /** Every indexed ref (order unspecified). */
  refs(): IterableIterator<string> {
    return this.#slotOf.keys()
  }

  /** Snapshot refs no version was attached to since `restore` (0 once every one has been). */
  get unattached(): number {
    return this.#unattached
  }

  /** Ends a load from a snapshot: refs never attached are dropped from the lookup (call `unattached` first). */
  settled(): void {
    if (this.#unattached > 0) {
      for (let slot = 0; slot < this.#restored; slot++) {
        const ref = this.#refs[slot]
        if (ref !== undefined && this.#docs[slot] === undefined) this.#slotOf.delete(ref)
      }
    }
    this.#unattached = 0
    this.#restored = 0
  }

  /** The slot of an indexed ref, whether attached yet or not. */
  #slot(ref: string): number | undefined {
    return this.#slotOf.get(ref)
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
    // In slot order (a term restored from an older snapshot and not used since is sorted here).
    for (const p of this.#postings.values()) total += p.ready(this.#lengths).size
    const counts = new Int32Array(this.#postings.size)
    const slots = new Int32Array(total), tfs = new Int32Array(total)
    let t = 0, at = 0
    for (const [term, p] of this.#postings) {
      vocab.push(term)
      counts[t++] = p.size
      const live = p.live()
      slots.set(live.slots, at)
      tfs.set(live.tfs, at)
      at += p.size
    }
    // The freed slots ('' in `refs`) are listed in `free` as before: a build that reuses them reads this alike.
    const free: number[] = []
    for (let slot = 0; slot < this.#refs.length; slot++) if (this.#refs[slot] === undefined) free.push(slot)
    return {
      refs: this.#refs.map((r) => r ?? '').join('\n'),
      lengths: this.#lengths.slice(0, this.#refs.length),
      free: Int32Array.from(free),
      totalLength: this.#totalLength,
      vocab: vocab.join('\n'),
      counts,
      slots,
      tfs,
    }
  }

  /**
   * The index a `snapshot()` was taken of: the same documents and postings, so the same scores.
   * The freed slots ('' in `refs`) are dropped and the others renumbered in their order (issue 31,
   * sixth round: a session never reuses a freed slot, so its holes end here), in the O(index)
   * a restore costs anyway; the postings keep their order (a renumbering in order).
   */
  static restore(s: LexicalSnapshot): LexicalIndex {
    const index = new LexicalIndex()
    // One free slot and nothing else joins to '' as well: restored as no slot.
    const refs = s.refs === '' ? [] : s.refs.split('\n')
    const slotOf = index.#slotOf
    // Old slot -> new, -1 for a freed one; null when there is no freed slot (the postings are taken as they are).
    let renumber: Int32Array | null = null
    let slots = 0
    for (let slot = 0; slot < refs.length; slot++) {
      const ref = refs[slot]!
      if (ref === '') {
        if (!renumber) {
          renumber = new Int32Array(refs.length)
          for (let i = 0; i < slot; i++) renumber[i] = i
        }
        renumber[slot] = -1
        continue
      }
      if (renumber) renumber[slot] = slots
      // Kept as the lookup's key when a version attaches (see #restored).
      index.#refs.push(ref)
      slotOf.set(ref, slots++)
    }
    index.#restored = index.#unattached = slots
    index.#lengths = new Float64Array(Math.max(64, slots))
    if (!renumber) index.#lengths.set(s.lengths.subarray(0, slots))
    else for (let slot = 0; slot < refs.length; slot++) if (renumber[slot]! >= 0) index.#lengths[renumber[slot]!] = s.lengths[slot]!
    index.#live = new Uint8Array(index.#lengths.length)
    index.#totalLength = s.totalLength
    const vocab = s.vocab === '' ? [] : s.vocab.split('\n')
    let from = s.slots, tfs = s.tfs
    if (renumber) {
      // One copy of every posting, renumbered (a snapshot is never changed: it may be restored again).
      from = new Int32Array(s.slots.length)
      for (let i = 0; i < s.slots.length; i++) {
        const old = s.slots[i]!
        from[i] = old >= 0 && old < renumber.length ? renumber[old]! : -1
      }
    }
    let at = 0
    vocab.forEach((term, t) => {
      const n = s.counts[t]!
      const start = at, end = at + n
      if (renumber) {
        // A posting of a freed slot (none in a snapshot this or an older build wrote) is dropped.
        let kept = 0
        for (let i = at; i < at + n; i++) if (from[i]! >= 0) kept++
        if (kept < n) {
          const keptSlots = new Int32Array(kept), keptTfs = new Int32Array(kept)
          for (let i = at, j = 0; i < at + n; i++) {
            if (from[i]! < 0) continue
            keptSlots[j] = from[i]!
            keptTfs[j++] = tfs[i]!
          }
          at += n
          if (kept > 0) index.#postings.set(term, new Postings(keptSlots, keptTfs, kept))
          return
        }
      }
      // Views into the snapshot's buffers: exactly n long, so the first push copies out (Postings grows).
      index.#postings.set(term, new Postings(from.subarray(start, end), tfs.subarray(start, end), n))
      at += n
    })
    return index
  }

  /** Attaches `doc` to an indexed document (see `matchLive`); false when `ref` is not indexed. */
  attach(ref: string, doc: unknown): boolean {
    const slot = this.#slotOf.get(ref)
    if (slot === undefined) return false
    this.attachAt(slot, doc)
    return true
  }

  /** The slot of an indexed ref, -1 when it is not indexed (`refAt`, `attachAt`: one lookup for both). */
  slotOf(ref: string): number {
    return this.#slotOf.get(ref) ?? -1
  }

  /**
   * The index's own string for the ref in `slot` (of `slotOf`): a version made with it holds the
   * ref once, the index's, rather than a second copy read from its row (FactState's open).
   */
  refAt(slot: number): string {
    return this.#refs[slot]!
  }

  /** `attach` for a slot of `slotOf`. */
  attachAt(slot: number, doc: unknown): void {
    if (slot < this.#restored && this.#docs[slot] === undefined) this.#unattached--
    this.#docs[slot] = doc
  }

  /** Marks a document live or not (see `matchLive`); unknown refs are ignored. */
  mark(ref: string, live: boolean): void {
    const slot = this.#slot(ref)
    if (slot !== undefined) this.#live[slot] = live ? 1 : 0
  }

  add(ref: string, terms: readonly string[], doc?: unknown): void {
    if (this.has(ref)) return
    // Past every slot, freed ones included: the postings take it by an append (see Postings).
    const slot = this.#refs.length
    this.#refs.push(ref)
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
    this.#lengths[slot] = terms.length
    this.#totalLength += terms.length
    for (const t of terms) {
      let p = this.#postings.get(t)
      if (!p) this.#postings.set(t, (p = new Postings()))
      p.push(slot, terms.length, this.#lengths)
    }
  }

  remove(ref: string, terms: readonly string[]): void {
    const slot = this.#slot(ref)
    if (slot === undefined) return
    if (slot < this.#restored && this.#docs[slot] === undefined) this.#unattached--
    for (const t of new Set(terms)) {
      const p = this.#postings.get(t)
      if (!p) continue
      p.delete(slot, this.#lengths)
      if (p.size === 0) this.#postings.delete(t)
    }
    this.#slotOf.delete(ref)
    this.#refs[slot] = undefined
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
   * score by ref; all of these hold while `use` runs only (which must not query this index: with
   * `top` the arrays are buffers every query shares). retrieve() starts here (src/facts/rank.ts):
   * it picks the best matches on the numbers and makes Versions of those alone, and looks up the
   * scores of the few context neighbours by ref, without a Map of every match.
   *
   * With `top`, the matches are only sure to hold every live document that scores at least the
   * `top`-th best live score (so the best `top`, ties at the last included); others may be left
   * out, and `complete` says whether any was. See `#matchTop`.
   */
  matchLive<T>(queryTerms: ReadonlyMap<string, number>, k1: number, b: number, use: (matches: LiveMatches) => T, top?: number): T {
    // The skipping's bounds need a score that grows with tf and falls with length (0 < k1, 0 <= b <= 1);
    // with `top` at least the documents indexed, nothing could be skipped (and it may be Infinity).
    if (top !== undefined && top >= 1 && top < this.size && k1 > 0 && b >= 0 && b <= 1) return this.#matchTop(queryTerms, k1, b, Math.ceil(top), use)
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
      complete: true,
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

  /**
   * `matchLive` with `top` (issue 31): MaxScore (Turtle & Flood 1995) over the query terms'
   * postings walked side by side in slot order. Each term has a bound, the most one document can
   * score on it (its largest tf over its shortest document). The best `top` live scores so far
   * are kept in a small heap; its lowest is the floor. The terms whose bounds sum below the floor
   * cannot make a document reach it on their own: only the other terms' postings propose
   * documents, and a proposed one is looked up in the weak terms' postings (a galloping search)
   * for as long as its score so far plus their bounds can still reach the floor. A query whose
   * common words match a third of the store walks the postings of its rare words and seeks into
   * the common ones, rather than scoring every match.
   *
   * Every score is summed in the query's term order, as `#accumulate` sums it: the same numbers
   * to the last bit. A document is left out only when its bound is below the floor, never equal
   * (ties at the floor stay in); the bounds carry a relative margin (`SLACK`) far above the sums'
   * rounding. Nothing is allocated per match: the matches go to buffers every query reuses.
   */
  #matchTop<T>(queryTerms: ReadonlyMap<string, number>, k1: number, b: number, k: number, use: (matches: LiveMatches) => T): T {
    const n = this.size
    const avgdl = this.#totalLength / n || 1
    const k1b = (k1 * b) / avgdl, k1nb = k1 * (1 - b)
    const lengths = this.#lengths, live = this.#live, docs = this.#docs
    // The query's terms in its own order (the order scores are summed in), with their weights.
    const lists: Postings[] = [], ws: number[] = []
    for (const [term, weight] of queryTerms) {
      if (!(weight > 0)) continue
      const p = this.#postings.get(term)
      if (!p) continue
      lists.push(p.ready(lengths))
      ws.push(weight * Math.log(1 + (n - p.size + 0.5) / (p.size + 0.5)) * (k1 + 1))
    }
    const m = lists.length
    const bound = new Float64Array(m)
    for (let t = 0; t < m; t++) {
      const p = lists[t]!
      bound[t] = ((ws[t]! * p.maxTf) / (p.maxTf + k1nb + k1b * p.minLength)) * SLACK
    }
    // Terms by bound, weakest first; below[e]: the bounds of the first e of them, summed. The
    // first `weak` terms are those whose bounds sum below the floor.
    const ord = Array.from({ length: m }, (_, t) => t).sort((x, y) => bound[x]! - bound[y]!)
    const below = new Float64Array(m + 1)
    for (let e = 0; e < m; e++) below[e + 1] = below[e]! + bound[ord[e]!]!
    const at = new Int32Array(m), part = new Float64Array(m)
    if (this.#heap.length < k) this.#heap = new Float64Array(k)
    const heap = this.#heap
    let kept = 0, floor = 0, weak = 0, count = 0
    let outSlots = this.#outSlots, outScores = this.#outScores
    for (;;) {
      let d = NONE
      for (let e = weak; e < m; e++) {
        const t = ord[e]!, p = lists[t]!, i = at[t]!
        if (i < p.end && p.slots[i]! < d) d = p.slots[i]!
      }
      if (d === NONE) break
      const isLive = live[d] === 1
      let sum = 0
      for (let e = weak; e < m; e++) {
        const t = ord[e]!, p = lists[t]!, i = at[t]!
        if (i < p.end && p.slots[i] === d) {
          at[t] = i + 1
          if (!isLive) continue
          const tf = p.tfs[i]!
          sum += part[t] = (ws[t]! * tf) / (tf + k1nb + k1b * lengths[d]!)
        } else part[t] = 0
      }
      if (!isLive) continue
      // The weak terms, strongest first, while the document can still reach the floor.
      let e = weak
      for (; e > 0; e--) {
        if ((sum + below[e]!) * SLACK < floor) break
        const t = ord[e - 1]!, p = lists[t]!
        const i = (at[t] = seek(p, at[t]!, d))
        if (i < p.end && p.slots[i] === d) {
          const tf = p.tfs[i]!
          sum += part[t] = (ws[t]! * tf) / (tf + k1nb + k1b * lengths[d]!)
        } else part[t] = 0
      }
      if (e > 0) continue
      let score = 0
      for (let t = 0; t < m; t++) score += part[t]!
      if (score < floor) continue
      if (count === outSlots.length) {
        const slots = new Int32Array(count * 2), scores = new Float64Array(count * 2)
        slots.set(outSlots)
        scores.set(outScores)
        this.#outSlots = outSlots = slots
        this.#outScores = outScores = scores
      }
      outSlots[count] = d
      outScores[count++] = score
      // The heap of the best k scores, lowest on top.
      if (kept < k) {
        let j = kept++
        while (j > 0) {
          const parent = (j - 1) >> 1
          if (heap[parent]! <= score) break
          heap[j] = heap[parent]!
          j = parent
        }
        heap[j] = score
        if (kept < k) continue
      } else {
        if (!(score > heap[0]!)) continue
        let j = 0
        for (;;) {
          let c = 2 * j + 1
          if (c >= k) break
          if (c + 1 < k && heap[c + 1]! < heap[c]!) c++
          if (heap[c]! >= score) break
          heap[j] = heap[c]!
          j = c
        }
        heap[j] = score
      }
      floor = heap[0]!
      while (weak < m && below[weak + 1]! < floor) weak++
    }
    const matches: LiveMatches = {
      count,
      // Nothing is left out until the heap is full: the floor is 0 until then.
      complete: kept < k,
      slots: outSlots.subarray(0, count),
      scores: outScores.subarray(0, count),
      doc: (slot) => docs[slot],
      scoreOf: (ref) => {
        const slot = this.#slot(ref)
        if (slot === undefined) return 0
        let score = 0
        for (let t = 0; t < m; t++) {
          const p = lists[t]!, i = p.find(slot)
          if (i === p.end || p.slots[i] !== slot) continue
          const tf = p.tfs[i]!
          score += (ws[t]! * tf) / (tf + k1nb + k1b * lengths[slot]!)
        }
        return score
      },
    }
    return use(matches)
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
      const slots = p.slots, tfs = p.tfs, end = p.end
      for (let i = 0; i < end; i++) {
        const slot = slots[i]!, tf = tfs[i]!
        if (tf === 0) continue
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
   *
   * Equal scores go by `order` of the attached docs when given, else by slot. Slots follow the
   * order documents were added in, which a reload need not repeat (a rebuilt index adds them in
   * load order): many facts that share only a name tie, and the slot order picked other
   * neighbours after a reopen than before it (docs/conflicts.md, rule 23).
   */
  nearest(terms: readonly string[], k: number, exclude?: string, probe = 4, maxDf = 1000, order?: (a: unknown, b: unknown) => number): string[] {
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
      for (let i = 0; i < p.end; i++) {
        if (p.tfs[i] === 0) continue
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
    const docs = this.#docs
    // A slot with no doc attached (a restored index mid-load) falls back to slot order.
    const beats = (score: number, slot: number, otherScore: number, otherSlot: number): boolean => {
      if (score !== otherScore) return score > otherScore
      const a = docs[slot], b = docs[otherSlot]
      return order && a !== undefined && b !== undefined ? order(a, b) < 0 : slot < otherSlot
    }
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
