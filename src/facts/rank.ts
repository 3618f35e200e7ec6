import { cosine } from './embedder.js'
import type { LexicalIndex, LiveMatches } from './lexical-index.js'
import { terms } from './text.js'
import type { RankParams } from './types.js'
import type { Version } from './version.js'
import { WriteOrder, type Candidates } from './write-order.js'

export const DEFAULT_RANK_PARAMS: RankParams = Object.freeze({
  k1: 1.2,
  b: 0.75,
  context: 0.7,
  contextReach: 2,
  contextDecay: 0.75,
  contextGap: 3_600_000_000, // one hour
  contextSources: 200,
})

export interface RankContext {
  readonly lexical: LexicalIndex | undefined
  /**
   * The candidates are exactly the documents `lexical` marks live, with their Versions attached
   * (FactState's current facts): matches are taken from the index without a lookup each.
   */
  readonly liveInIndex?: boolean
  /** Query vector and candidate vectors, when an embedder is configured. */
  readonly queryVector?: Float32Array | undefined
  readonly vectors?: ReadonlyMap<string, Float32Array> | undefined
  /** Overrides of the default ranker's knobs (evaluation and tests). */
  readonly params?: Partial<RankParams> | undefined
  /** Leave out the zero-score tail (`RetrieveOptions.matchesOnly`). */
  readonly matchesOnly?: boolean | undefined
}

// Reciprocal-rank fusion constant (Cormack et al. 2009): robust without score calibration.
const RRF_K = 60

const compareRefs = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Descending by score, then importance, recency (write time) and ref: a total order. */
function before(aScore: number, bScore: number, a: Version, b: Version): number {
  if (aScore !== bScore) return bScore - aScore
  if (b.importance !== a.importance) return b.importance - a.importance
  if (b.body.writtenAt !== a.body.writtenAt) return b.body.writtenAt - a.body.writtenAt
  return compareRefs(a.ref, b.ref)
}

/**
 * Orders every candidate, best first (GMP §4): relevance (BM25 over the index terms, plus the
 * episode context lent by write-order neighbours; fused with vector similarity when an embedder
 * is set), then importance, recency and ref. That is a total order, so retrieve() is
 * deterministic for a fixed state (§4.3). The result is lazy: it is sorted only as far as it is
 * read, so packing a small budget never sorts a large store; read it before the store changes.
 * See docs/retrieval.md.
 *
 * Cost (issues 15, 31): the query terms' postings (from the index's live documents, only those of
 * the terms that can still lift a match to the selection's floor, and a seek into the others: see
 * `LexicalIndex.matchLive`), one lookup per match to keep the candidates (none from the index's
 * live documents, whose matches stay numbers: one comparison of scores each, and a Version only
 * for those at or above the selection's floor), a bounded selection of
 * the best max(64, contextSources), one binary search in the write order per context source, and
 * O(log s) per memory read from that selection (s: it and the memories that borrowed context);
 * past the selection's last match, O(log m) per memory read among the m relevant ones. The zero-score tail (every other candidate, by importance, recency and ref) is
 * gathered only when the packing reads past the relevant memories. `candidates` may be a plain
 * list (sorted into write order first) or a {@link Candidates} that keeps it.
 */
export function rank(query: string, candidates: readonly Version[] | Candidates, ctx: RankContext): Iterable<Version> {
  const p: RankParams = ctx.params ? { ...DEFAULT_RANK_PARAMS, ...ctx.params } : DEFAULT_RANK_PARAMS
  const c: Candidates = isList(candidates) ? WriteOrder.of(candidates) : candidates
  const qterms = new Map<string, number>()
  for (const t of terms(query)) qterms.set(t, 1)

  // The relevant memories, by local position: the matches first (the index also scores versions
  // that are not candidates, e.g. superseded ones: only candidates count), then those that only
  // borrow context. While they are gathered, `first` keeps the best `size` matches by their own
  // score (a bounded heap: most matches are turned away by one comparison of numbers), which
  // serves both the context sources and, in nearly every query, the head of the answer.
  const items: Version[] = []
  const score: number[] = []
  const byScore = (a: number, b: number): number => score[b]! - score[a]! || prior(items[a]!, items[b]!)
  // As many sources as the old loop `for (k = 0; k < contextSources; k++)` read.
  const sources = p.contextSources > 0 ? Math.ceil(p.contextSources) : 0
  const size = Math.max(FIRST, sources)
  const first = new TopK(size, (i) => score[i]!, byScore)
  const keep = (s: number, v: Version | undefined): void => {
    if (!(s > 0) || v === undefined) return
    items.push(v)
    score.push(s)
    first.offer(items.length - 1)
  }
  // How many matches there are; `items` holds them all, or (from the index's live documents) those
  // at or above the selection's floor until `rest` adds the others.
  let matched = 0
  let rest = (): void => undefined
  // Matches below the floor that borrowed context, already in `items` (`rest` skips them).
  const lentBelow = new Set<Version>()

  // The best matches by own score, best first, and the memories that borrowed context (added to
  // `items`). `ownScore`: the score of a candidate that is a match not yet in `items`, else 0.
  const relevance = (ownScore: (v: Version) => number): { best: number[]; lent: number[] } => {
    const taken = items.length
    const best = first.sorted()
    const lent: number[] = []
    if (p.context > 0 && p.contextReach > 0 && matched > 0) {
      const loans = contextLoans(best.slice(0, Math.min(sources, best.length)), score, items, c, p)
      // A match that borrows adds the loan to its own score (one probe of the small loan map per
      // match in `items`, rather than a map of every match); the others enter with the loan alone,
      // added to their own score if they are matches left below the floor.
      for (let i = 0; i < taken && loans.size > 0; i++) {
        const loan = loans.get(items[i]!)
        if (loan === undefined) continue
        score[i]! += loan
        lent.push(i)
        loans.delete(items[i]!)
      }
      for (const [v, loan] of loans) {
        const own = ownScore(v)
        if (own > 0) lentBelow.add(v)
        lent.push(items.length)
        items.push(v)
        score.push(own)
        score[items.length - 1]! += loan
      }
    }
    return { best, lent }
  }

  let gathered = { best: [] as number[], lent: [] as number[] }
  if (ctx.lexical && qterms.size > 0 && ctx.liveInIndex) {
    // The current facts are the index's live documents, scored as numbers: only the matches at or
    // above the size-th best score (the floor) can be in the selection, so only they become
    // Versions now; the scores of context neighbours below it are read from the index.
    // The index hands over only the matches that may be in the selection (with `size`: all those
    // at or above the floor), unless it is sure there are no others; `rest` asks it for every match.
    const lexical = ctx.lexical
    gathered = lexical.matchLive(qterms, p.k1, p.b, (m) => {
      // Left out matches are more than the selection holds: `matched` need only say so.
      matched = m.complete ? m.count : m.count + 1
      const { slots, scores } = m
      const taken = selection(m, size)
      const takenSlots = new Set<number>()
      for (const j of taken) {
        takenSlots.add(slots[j]!)
        keep(scores[j]!, m.doc(slots[j]!) as Version)
      }
      rest = () => {
        rest = () => undefined
        lexical.matchLive(qterms, p.k1, p.b, (all) => {
          for (let j = 0; j < all.count; j++) {
            if (takenSlots.has(all.slots[j]!)) continue
            const v = all.doc(all.slots[j]!) as Version | undefined
            if (v === undefined || lentBelow.has(v)) continue
            items.push(v)
            score.push(all.scores[j]!)
          }
        })
      }
      return relevance((v) => m.scoreOf(v.ref))
    }, size)
  } else {
    if (ctx.lexical && qterms.size > 0) ctx.lexical.score(qterms, p.k1, p.b).forEach((s, ref) => keep(s, c.get(ref)))
    matched = items.length
    gathered = relevance(() => 0)
  }
  const { best, lent } = gathered
  // Every match outside `best` comes after the last of them.
  const line = best.length > 0 ? best[best.length - 1]! : -1
  const lineScore = line < 0 ? 0 : score[line]!

  if (ctx.queryVector && ctx.vectors) {
    rest()
    const scores = new Map<string, number>()
    for (let i = 0; i < items.length; i++) scores.set(items[i]!.ref, score[i]!)
    return fuse(c.inWriteOrder(), scores, ctx.queryVector, ctx.vectors)
  }

  // Loans only raise scores, and only of the memories in `lent`: every match outside `best` and
  // `lent` keeps its own score, so it comes after the last of `best` by its own score (`line`).
  // Those two sets, in final order, answer as far as they come before that line; past it (a
  // budget reading more than `best` holds), every relevant memory is ranked (`BestFirst`).
  const own = line < 0 ? undefined : { score: lineScore, version: items[line]! }
  const head = matched > best.length ? new Set<number>([...best, ...lent]) : null
  const relevant: Iterable<number> = head && own
    ? new Headed([...head], byScore, (i) => score[i]! > own.score || (score[i] === own.score && prior(items[i]!, own.version) <= 0),
      () => {
        rest()
        return new BestFirst(Array.from(items, (_, i) => i), score, items, byScore)
      })
    : new LazySorted(Array.from(items, (_, i) => i), byScore)
  return new Ranked(items, relevant, () => {
    if (ctx.matchesOnly) return []
    rest()
    const byPrior = c.byPrior?.()
    return byPrior ? unmatched(byPrior, new Set(items)) : tail(c.inWriteOrder(), new Set(items))
  })
}

/**
 * The zero-score tail read from the candidates' own order by importance and recency (issue 31):
 * the first of them that are not in `relevant`, as far as the packing reads. A query matching
 * nothing reads about twenty versions, not every current fact. Re-iterable.
 */
function unmatched(byPrior: Iterator<Version>, relevant: ReadonlySet<Version>): Iterable<Version> {
  const done: Version[] = []
  const next = (): Version | undefined => {
    for (;;) {
      const r = byPrior.next()
      if (r.done) return undefined
      if (relevant.has(r.value)) continue
      done.push(r.value)
      return r.value
    }
  }
  return { [Symbol.iterator]: () => replay(done, next) }
}

/**
 * The zero-score tail gathered by a pass over every candidate (candidates without an order by
 * importance, or holding a NaN key: see `unmatched`): every candidate not in `relevant`, by
 * importance, recency and ref. The best 64 are picked in that pass (importance compared as
 * numbers first), and only a read past them heaps the whole tail.
 */
function tail(candidates: readonly Version[], relevant: ReadonlySet<Version>): Iterable<Version> {
  const rest: Version[] = []
  const byPrior = (a: number, b: number): number => prior(rest[a]!, rest[b]!)
  const first = new TopK(FIRST, (i) => rest[i]!.importance, byPrior)
  for (const v of candidates) {
    if (relevant.has(v)) continue
    rest.push(v)
    first.offer(rest.length - 1)
  }
  const order: Iterable<number> = rest.length > FIRST
    // The first FIRST of the tail are exactly the selection: every other one comes after them.
    ? new Headed(first.sorted(), byPrior, () => true, () => new LazySorted(Array.from(rest, (_, i) => i), byPrior))
    : new LazySorted(Array.from(rest, (_, i) => i), byPrior)
  return { *[Symbol.iterator]() { for (const i of order) yield rest[i]! } }
}

/** How many matches the first selection keeps at least: what a budget of a few thousand characters reads. */
const FIRST = 64

const isList = (c: readonly Version[] | Candidates): c is readonly Version[] => Array.isArray(c)

/** Importance, then recency (write time), then ref: the order of equal relevance. */
const prior = (a: Version, b: Version): number =>
  b.importance - a.importance || b.body.writtenAt - a.body.writtenAt || compareRefs(a.ref, b.ref)

/**
 * Episode context. Memories are written in streams (a conversation, a session), and the memory
 * that answers a question is often written right next to the one that names its topic: the reply
 * after the question, the detail after the headline. Each of the best `contextSources` matches
 * lends `context × contextDecay^(d-1)` of its own relevance to the candidates at write-order
 * distance d ≤ `contextReach` on each side, provided they are valid from about the same time
 * (within `contextGap`); a candidate keeps the largest loan it gets. Returns candidate → loan.
 *
 * `sources` are the best S matches, best first (rank's first selection). Cost: each finds its
 * neighbours by one binary search in the candidates' write order, O(S log n); nothing scans the
 * candidates.
 */
function contextLoans(
  sources: readonly number[], own: readonly number[], items: readonly Version[], c: Candidates, p: RankParams,
): Map<Version, number> {
  const order = c.inWriteOrder()
  const reach = p.contextReach
  const loans = new Map<Version, number>()
  for (const s of sources) {
    const source = items[s]!
    const pos = c.indexOf(source)
    const validFrom = source.body.validFrom
    for (let step = -1; step <= 1; step += 2) {
      for (let d = 0; d < reach; d++) {
        const n = order[pos + step * (d + 1)]
        if (n === undefined) break
        if (Math.abs(n.body.validFrom - validFrom) > p.contextGap) continue
        const loan = p.context * Math.pow(p.contextDecay, d) * own[s]!
        if (loan > (loans.get(n) ?? 0)) loans.set(n, loan)
      }
    }
  }
  return loans
}

/** What a lazy sequence produced so far (`done`, which `next` appends to), then what `next` produces: so it can be read again. */
function* replay<T>(done: readonly T[], next: () => T | undefined): Generator<T> {
  for (let i = 0; ; i++) {
    if (i < done.length) yield done[i]!
    else {
      const x = next()
      if (x === undefined) return
      yield x
    }
  }
}

/**
 * A sequence sorted lazily: a binary heap that is popped only as far as the consumer reads, so a
 * retrieve() that packs twenty memories out of 100,000 never sorts the other 99,980. Re-iterable:
 * what was popped once is kept and replayed.
 */
class LazySorted<T> implements Iterable<T> {
  readonly #heap: T[]
  readonly #cmp: (a: T, b: T) => number
  readonly #done: T[] = []

  /** Takes ownership of `items` (it becomes the heap). */
  constructor(items: T[], cmp: (a: T, b: T) => number) {
    this.#heap = items
    this.#cmp = cmp
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.#down(i)
  }

  /** The next item in order, not popped. */
  peek(): T | undefined {
    return this.#heap[0]
  }

  /** Pops the next item in order, or undefined at the end. */
  next(): T | undefined {
    const h = this.#heap
    if (h.length === 0) return undefined
    const top = h[0]!
    const last = h.pop()!
    if (h.length > 0) {
      h[0] = last
      this.#down(0)
    }
    this.#done.push(top)
    return top
  }

  [Symbol.iterator](): Iterator<T> {
    return replay(this.#done, () => this.next())
  }

  #down(i: number): void {
    const h = this.#heap, n = h.length, cmp = this.#cmp
    const x = h[i]!
    for (;;) {
      let c = 2 * i + 1
      if (c >= n) break
      if (c + 1 < n && cmp(h[c + 1]!, h[c]!) < 0) c++
      if (cmp(h[c]!, x) >= 0) break
      h[i] = h[c]!
      i = c
    }
    h[i] = x
  }
}

/**
 * The best `k` indices by `cmp` (negative: the first comes first) among those offered, in one pass:
 * a heap of k with the worst on top, so an index that does not beat it costs one comparison of
 * scores (numbers), and the full comparison runs only on near ties.
 */
class TopK {
  /** Grows to k at most (k may be larger than the matches, even Infinity). */
  readonly #heap: number[] = []
  readonly #k: number
  readonly #key: (i: number) => number
  readonly #cmp: (a: number, b: number) => number

  /** `key` is `cmp`'s first key as a number (higher first): a lower key is worse without calling `cmp`. */
  constructor(k: number, key: (i: number) => number, cmp: (a: number, b: number) => number) {
    this.#k = k
    this.#key = key
    this.#cmp = cmp
  }

  offer(i: number): void {
    const h = this.#heap, k = h.length, cmp = this.#cmp
    if (k < this.#k) {
      let j = k
      h.push(i)
      while (j > 0) {
        const parent = (j - 1) >> 1
        if (cmp(h[parent]!, i) >= 0) break
        h[j] = h[parent]!
        j = parent
      }
      h[j] = i
      return
    }
    // Below the worst kept key: out, without the full comparison.
    if (this.#key(i) < this.#key(h[0]!) || cmp(i, h[0]!) >= 0) return
    let j = 0
    for (;;) {
      let c = 2 * j + 1
      if (c >= k) break
      if (c + 1 < k && cmp(h[c + 1]!, h[c]!) > 0) c++
      if (cmp(h[c]!, i) <= 0) break
      h[j] = h[c]!
      j = c
    }
    h[j] = i
  }

  /** The kept indices, best first. */
  sorted(): number[] {
    return this.#heap.slice().sort(this.#cmp)
  }
}

/**
 * Indices read in the order of `cmp` from a small set (`head`) while `safe` holds, that is while
 * they are known to precede every index outside it; from the first that is not, the order of
 * `rest()` (every index, in the same order), past the ones already read. Re-iterable.
 */
class Headed implements Iterable<number> {
  readonly #head: LazySorted<number>
  readonly #safe: (i: number) => boolean
  readonly #makeRest: () => Iterable<number>
  #rest: Iterator<number> | undefined
  readonly #done: number[] = []

  constructor(head: number[], cmp: (a: number, b: number) => number, safe: (i: number) => boolean, rest: () => Iterable<number>) {
    this.#head = new LazySorted(head, cmp)
    this.#safe = safe
    this.#makeRest = rest
  }

  next(): number | undefined {
    if (this.#rest === undefined) {
      const x = this.#head.peek()
      if (x !== undefined && this.#safe(x)) {
        this.#head.next()
        this.#done.push(x)
        return x
      }
      // The full order's first items are the ones read so far: skip them.
      this.#rest = this.#makeRest()[Symbol.iterator]()
      for (let i = 0; i < this.#done.length; i++) this.#rest.next()
    }
    const r = this.#rest.next()
    if (r.done) return undefined
    this.#done.push(r.value)
    return r.value
  }

  [Symbol.iterator](): Iterator<number> {
    return replay(this.#done, () => this.next())
  }
}

/**
 * Indices in the order of `cmp`, lazily, like LazySorted, without heaping every index. `cmp` must
 * order by score (highest first), then importance (highest first), then write time (latest
 * first), then anything: the same order as the numeric keys given here. Each round takes the
 * indices whose keys are at least those of the `batch`-th best (found in one pass with a small heap
 * comparing numbers), which all precede every other index, and heaps only those. A query matching
 * 20,000 facts read for 25 of them compares numbers 20,000 times and calls `cmp` on a few hundred.
 * Re-iterable.
 */
class BestFirst implements Iterable<number> {
  #rest: number[]
  readonly #score: ArrayLike<number>
  readonly #items: readonly Version[]
  readonly #cmp: (a: number, b: number) => number
  #batch = 64
  #round: LazySorted<number> | undefined
  readonly #done: number[] = []

  /** Takes ownership of `indices`. `score` must not change while this is read. */
  constructor(indices: number[], score: ArrayLike<number>, items: readonly Version[], cmp: (a: number, b: number) => number) {
    this.#rest = indices
    this.#score = score
    this.#items = items
    this.#cmp = cmp
  }

  next(): number | undefined {
    for (;;) {
      const x = this.#round?.next()
      if (x !== undefined) {
        this.#done.push(x)
        return x
      }
      if (this.#rest.length === 0) return undefined
      let top: number[] = [], rest: number[] = []
      const batch = this.#batch
      if (this.#rest.length <= batch) top = this.#rest
      else {
        // By score alone first: numbers in an array, no version touched.
        const score = this.#score
        const floor = score[kthBest(this.#rest, { score }, batch)]!
        for (const i of this.#rest) (score[i]! >= floor ? top : rest).push(i)
        // Many equal scores at the floor (common: same term counts, same length): split the top
        // further on importance and write time, read from the versions of the top only.
        if (top.length > 4 * batch) {
          const importance = new Float64Array(this.#items.length), writtenAt = new Float64Array(this.#items.length)
          for (const i of top) {
            importance[i] = this.#items[i]!.importance
            writtenAt[i] = this.#items[i]!.body.writtenAt
          }
          const keys = { score, importance, writtenAt }
          const cut = kthBest(top, keys, batch)
          const wide = top
          top = []
          for (const i of wide) (better(keys, cut, i) ? rest : top).push(i)
        }
      }
      this.#rest = rest
      this.#batch *= 4
      this.#round = new LazySorted(top, this.#cmp)
    }
  }

  [Symbol.iterator](): Iterator<number> {
    return replay(this.#done, () => this.next())
  }
}

/** The numeric keys of the order: score, then (when given) importance and write time. */
interface Keys {
  readonly score: ArrayLike<number>
  readonly importance?: Float64Array
  readonly writtenAt?: Float64Array
}

/** Whether `a` precedes `b` on the numeric keys alone (equal keys: neither does). */
function better(k: Keys, a: number, b: number): boolean {
  const sa = k.score[a]!, sb = k.score[b]!
  if (sa !== sb) return sa > sb
  if (!k.importance || !k.writtenAt) return false
  const ia = k.importance[a]!, ib = k.importance[b]!
  if (ia !== ib) return ia > ib
  return k.writtenAt[a]! > k.writtenAt[b]!
}

/**
 * Positions (in `m`) of the matches that may be among the best `size` by own score, importance,
 * recency and ref: every other match has at least `size` matches strictly before it on the numbers.
 * One pass over the scores finds the size-th best (the floor); when many matches share it (templated
 * facts tie by the thousand), those at the floor are split on importance, and only those at the
 * cut's importance on write time: each tied version is read once for its importance, and its
 * body only when the importance does not decide (issue 31: at a million facts these reads, one
 * cache miss each, were a fifth of ranking).
 */
function selection(m: LiveMatches, size: number): number[] {
  const { scores } = m
  const floor = m.count > size ? kthLargest(scores, size) : 0
  const taken: number[] = []
  for (let j = 0; j < m.count; j++) if (scores[j]! >= floor) taken.push(j)
  if (taken.length <= 4 * size) return taken
  // Above the floor: fewer than `size`, all in. At it: the best `need` by importance, then write time.
  const out: number[] = [], tied: number[] = []
  for (const j of taken) (scores[j]! > floor ? out : tied).push(j)
  const need = size - out.length
  const versions: Version[] = []
  const importance = new Float64Array(tied.length)
  for (let i = 0; i < tied.length; i++) {
    const v = m.doc(m.slots[tied[i]!]!) as Version | undefined
    // `prior` orders a NaN key as equal to any other (damaged records): not a total order on numbers.
    if (v === undefined || Number.isNaN(v.importance)) return taken
    versions.push(v)
    importance[i] = v.importance
  }
  const cutImportance = kthLargest(importance, need)
  const atCut: number[] = []
  for (let i = 0; i < tied.length; i++) {
    if (importance[i]! > cutImportance) out.push(tied[i]!)
    else if (importance[i] === cutImportance) atCut.push(i)
  }
  const left = size - out.length
  if (atCut.length <= left) {
    for (const i of atCut) out.push(tied[i]!)
    return out
  }
  const writtenAt = new Float64Array(atCut.length)
  for (let a = 0; a < atCut.length; a++) {
    const t = versions[atCut[a]!]!.body.writtenAt
    if (Number.isNaN(t)) return taken
    writtenAt[a] = t
  }
  // Those at the cut's write time too are all kept: the ref decides among them, in the selection.
  const cutTime = kthLargest(writtenAt, left)
  for (let a = 0; a < atCut.length; a++) if (writtenAt[a]! >= cutTime) out.push(tied[atCut[a]!]!)
  return out
}

/** The k-th largest of `xs` (counting repeats; more than k of them): a heap of k numbers, smallest on top. */
function kthLargest(xs: Float64Array, k: number): number {
  const h = new Float64Array(k)
  let n = 0
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!
    if (n < k) {
      let j = n++
      while (j > 0) {
        const parent = (j - 1) >> 1
        if (h[parent]! <= x) break
        h[j] = h[parent]!
        j = parent
      }
      h[j] = x
    } else if (x > h[0]!) {
      let j = 0
      for (;;) {
        let c = 2 * j + 1
        if (c >= k) break
        if (c + 1 < k && h[c + 1]! < h[c]!) c++
        if (h[c]! >= x) break
        h[j] = h[c]!
        j = c
      }
      h[j] = x
    }
  }
  return h[0]!
}

/** The index whose keys are the k-th best among `indices` (more than k of them): a heap of k, worst on top. */
function kthBest(indices: readonly number[], keys: Keys, k: number): number {
  const h = new Int32Array(k)
  let n = 0
  for (const x of indices) {
    if (n < k) {
      let j = n++
      while (j > 0) {
        const parent = (j - 1) >> 1
        if (!better(keys, h[parent]!, x)) break
        h[j] = h[parent]!
        j = parent
      }
      h[j] = x
    } else if (better(keys, x, h[0]!)) {
      let j = 0
      for (;;) {
        let c = 2 * j + 1
        if (c >= k) break
        if (c + 1 < k && better(keys, h[c]!, h[c + 1]!)) c++
        if (!better(keys, x, h[c]!)) break
        h[j] = h[c]!
        j = c
      }
      h[j] = x
    }
  }
  return h[0]!
}

/**
 * The relevant candidates by score, then the rest by importance, recency and ref (that part is
 * only gathered if it is reached). Re-iterable.
 */
class Ranked implements Iterable<Version> {
  readonly #items: readonly Version[]
  readonly #relevant: Iterable<number>
  readonly #makeRest: () => Iterable<Version>
  #rest: Iterable<Version> | undefined

  constructor(items: readonly Version[], relevant: Iterable<number>, rest: () => Iterable<Version>) {
    this.#items = items
    this.#relevant = relevant
    this.#makeRest = rest
  }

  *[Symbol.iterator](): Iterator<Version> {
    for (const i of this.#relevant) yield this.#items[i]!
    this.#rest ??= this.#makeRest()
    yield* this.#rest
  }
}

/** Reciprocal-rank fusion of the lexical order and the vector order (when an embedder is set). */
function fuse(
  candidates: readonly Version[], lexical: ReadonlyMap<string, number>, qv: Float32Array,
  vectors: ReadonlyMap<string, Float32Array>,
): Version[] {
  const lex = (v: Version): number => lexical.get(v.ref) ?? 0
  const byLex = candidates.filter((v) => lex(v) > 0).sort((a, b) => before(lex(a), lex(b), a, b))
  const sims = new Map<string, number>()
  for (const v of candidates) {
    const vec = vectors.get(v.ref)
    if (vec) sims.set(v.ref, cosine(qv, vec))
  }
  const byVec = candidates.filter((v) => sims.has(v.ref)).sort((a, b) => before(sims.get(a.ref)!, sims.get(b.ref)!, a, b))
  const fused = new Map<string, number>()
  byLex.forEach((v, i) => fused.set(v.ref, (fused.get(v.ref) ?? 0) + 1 / (RRF_K + i + 1)))
  byVec.forEach((v, i) => fused.set(v.ref, (fused.get(v.ref) ?? 0) + 1 / (RRF_K + i + 1)))
  return [...candidates].sort((a, b) => before(fused.get(a.ref) ?? 0, fused.get(b.ref) ?? 0, a, b))
}

/**
 * GMP §4.2 budget contract: whole memories in rank order until the first that does not fit;
 * nothing is cut, nothing is skipped to squeeze a later one in.
 */
export function pack(ordered: Iterable<Version>, budget: number, topK: number | null): Version[] {
  const out: Version[] = []
  let used = 0
  for (const v of ordered) {
    if (topK !== null && out.length >= topK) break
    if (used + v.cost > budget) break
    used += v.cost
    out.push(v)
  }
  return out
}
