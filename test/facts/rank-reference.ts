// The ranking as it was before retrieval started from the index (issue 15), kept verbatim as the
// reference the identity property test (test/facts/retrieve-identity.test.ts) compares retrieve() against.
// Test-only: nothing in src/ imports it.
import { cosine } from '../../src/facts/embedder.js'
import type { ReferenceLexicalIndex as LexicalIndex, TermScores } from './lexical-reference.js'
import { terms } from '../../src/facts/text.js'
import type { Version } from '../../src/facts/version.js'

/** The knobs of the default ranker; the defaults are what docs/retrieval.md measures. */
export interface RankParams {
  /** BM25 term-frequency saturation. */
  readonly k1: number
  /** BM25 length normalisation. */
  readonly b: number
  /**
   * Episode context: a memory gets `context` × the relevance of a memory written next to it
   * (0 turns it off). Below 1, so a neighbour never passes the memory that matched.
   */
  readonly context: number
  /** How many write-order neighbours on each side receive context. */
  readonly contextReach: number
  /** Factor per extra step of distance: the second neighbour gets `context × contextDecay`. */
  readonly contextDecay: number
  /** Neighbours whose valid-from times differ by more than this (µs) belong to another episode. */
  readonly contextGap: number
  /** Only the best this-many matches lend context (bounds the cost on large stores). */
  readonly contextSources: number
}

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
  /** Query vector and candidate vectors, when an embedder is configured. */
  readonly queryVector?: Float32Array | undefined
  readonly vectors?: ReadonlyMap<string, Float32Array> | undefined
  /** Overrides of the default ranker's knobs (evaluation and tests). */
  readonly params?: Partial<RankParams> | undefined
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
 * read, so packing a small budget never sorts a large store. See docs/retrieval.md.
 *
 * Cost: the query terms' postings, one pass over the candidates, O(n log S) for the context, and
 * O(log n) per memory read; working arrays are typed, indexed by candidate position.
 */
export function rank(query: string, candidates: readonly Version[], ctx: RankContext): Iterable<Version> {
  const p: RankParams = ctx.params ? { ...DEFAULT_RANK_PARAMS, ...ctx.params } : DEFAULT_RANK_PARAMS
  const qterms = new Map<string, number>()
  for (const t of terms(query)) qterms.set(t, 1)
  const own: TermScores = ctx.lexical && qterms.size > 0 ? ctx.lexical.score(qterms, p.k1, p.b) : new Map<string, number>()

  // One pass over the candidates: their own relevance and the keys of the tie-break. (The index
  // also scores versions that are not candidates, e.g. superseded ones: only candidates count.)
  const n = candidates.length
  const score = new Float64Array(n)
  const importance = new Float64Array(n)
  const writtenAt = new Float64Array(n)
  const matched: number[] = []
  const lookup = own.size > 0
  for (let i = 0; i < n; i++) {
    const v = candidates[i]!
    importance[i] = v.importance
    writtenAt[i] = v.body.writtenAt
    if (lookup) {
      const s = own.get(v.ref)
      if (s !== undefined && s > 0) {
        score[i] = s
        matched.push(i)
      }
    }
  }
  const ref = (i: number): string => candidates[i]!.ref
  const byPrior = (a: number, b: number): number =>
    importance[b]! - importance[a]! || writtenAt[b]! - writtenAt[a]! || compareRefs(ref(a), ref(b))
  const byWrite = (a: number, b: number): number =>
    writtenAt[a]! - writtenAt[b]! || compareRefs(candidates[a]!.hlc, candidates[b]!.hlc) || compareRefs(ref(a), ref(b))

  const relevant = matched
  if (p.context > 0 && p.contextReach > 0 && matched.length > 0) {
    const loans = contextLoans(matched, score, writtenAt, (a, b) => score[b]! - score[a]! || byPrior(a, b), byWrite, candidates, p)
    for (const [i, loan] of loans) {
      if (score[i] === 0) relevant.push(i)
      score[i]! += loan
    }
  }

  if (ctx.queryVector && ctx.vectors) {
    const scores = new Map<string, number>()
    for (const i of relevant) scores.set(ref(i), score[i]!)
    return fuse(candidates, scores, ctx.queryVector, ctx.vectors)
  }

  const byScore = (a: number, b: number): number => score[b]! - score[a]! || byPrior(a, b)
  return new Ranked(candidates, new LazySorted(relevant, byScore), () => {
    const rest: number[] = []
    for (let i = 0; i < n; i++) if (score[i] === 0) rest.push(i)
    return new LazySorted(rest, byPrior)
  })
}

/**
 * Episode context. Memories are written in streams (a conversation, a session), and the memory
 * that answers a question is often written right next to the one that names its topic: the reply
 * after the question, the detail after the headline. Each of the best `contextSources` matches
 * lends `context × contextDecay^(d-1)` of its own relevance to the candidates at write-order
 * distance d ≤ `contextReach` on each side, provided they are valid from about the same time
 * (within `contextGap`); a candidate keeps the largest loan it gets. Returns candidate position →
 * loan.
 *
 * Cost: one pass over the candidates with a binary search among the sources, O(n log S), on typed
 * arrays; no sort of the candidates.
 */
function contextLoans(
  matched: readonly number[], own: Float64Array, writtenAt: Float64Array, byScore: (a: number, b: number) => number,
  byWrite: (a: number, b: number) => number, candidates: readonly Version[], p: RankParams,
): Map<number, number> {
  const n = candidates.length
  const best = new LazySorted([...matched], byScore)
  const sources: number[] = []
  for (let i = 0; i < p.contextSources; i++) {
    const s = best.next()
    if (s === undefined) break
    sources.push(s)
  }
  sources.sort(byWrite)
  const reach = p.contextReach
  const S = sources.length
  const sourceTime = Float64Array.from(sources, (i) => writtenAt[i]!)
  // prev[j] / next[j]: the `reach` candidates nearest to source j before / after it, nearest first.
  const prev: number[][] = sources.map(() => [])
  const next: number[][] = sources.map(() => [])
  // a is nearer than b: for a source's next neighbours the earlier, for its previous ones the later.
  const earlier = (a: number, b: number): boolean =>
    writtenAt[a]! < writtenAt[b]! || (writtenAt[a] === writtenAt[b] && byWrite(a, b) < 0)
  const later = (a: number, b: number): boolean => earlier(b, a)
  for (let c = 0; c < n; c++) {
    // lo = number of sources written before c; c is source lo itself when they compare equal.
    // Write times are compared as numbers; the full write order only breaks exact ties.
    const t = writtenAt[c]!
    let lo = 0, hi = S
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      const st = sourceTime[mid]!
      if (st < t || (st === t && byWrite(sources[mid]!, c) < 0)) lo = mid + 1
      else hi = mid
    }
    // Only the `reach` sources just before c can have it among their `reach` next neighbours
    // (sources are candidates too, so any earlier source has them in between), and likewise after.
    for (let j = lo - 1; j >= 0 && j >= lo - reach; j--) keepNearest(next[j]!, c, reach, earlier)
    const from = lo < S && sources[lo] === c ? lo + 1 : lo
    for (let j = from; j < S && j < from + reach; j++) keepNearest(prev[j]!, c, reach, later)
  }
  const loans = new Map<number, number>()
  for (let j = 0; j < S; j++) {
    const s = sources[j]!
    const validFrom = candidates[s]!.body.validFrom
    for (const side of [prev[j]!, next[j]!]) {
      side.forEach((c, d) => {
        if (Math.abs(candidates[c]!.body.validFrom - validFrom) > p.contextGap) return
        const loan = p.context * Math.pow(p.contextDecay, d) * own[s]!
        if (loan > (loans.get(c) ?? 0)) loans.set(c, loan)
      })
    }
  }
  return loans
}

/** Inserts `x` into `list` (nearest first), keeping at most `k` items. */
function keepNearest(list: number[], x: number, k: number, nearer: (a: number, b: number) => boolean): void {
  let i = list.length
  while (i > 0 && nearer(x, list[i - 1]!)) i--
  if (i >= k) return
  if (list.length < k) list.push(x)
  for (let m = list.length - 1; m > i; m--) list[m] = list[m - 1]!
  list[i] = x
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

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; ; i++) {
      if (i < this.#done.length) yield this.#done[i]!
      else {
        const x = this.next()
        if (x === undefined) return
        yield x
      }
    }
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
 * The relevant candidates by score, then the rest by importance, recency and ref (that part is
 * only gathered if it is reached). Re-iterable.
 */
class Ranked implements Iterable<Version> {
  readonly #candidates: readonly Version[]
  readonly #relevant: LazySorted<number>
  readonly #makeRest: () => LazySorted<number>
  #rest: LazySorted<number> | undefined

  constructor(candidates: readonly Version[], relevant: LazySorted<number>, rest: () => LazySorted<number>) {
    this.#candidates = candidates
    this.#relevant = relevant
    this.#makeRest = rest
  }

  *[Symbol.iterator](): Iterator<Version> {
    for (const i of this.#relevant) yield this.#candidates[i]!
    this.#rest ??= this.#makeRest()
    for (const i of this.#rest) yield this.#candidates[i]!
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
