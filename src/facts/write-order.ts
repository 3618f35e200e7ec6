import { PriorOrder } from './prior-order.js'
import { timeOrder } from './time-order.js'
import type { Version } from './version.js'

const compareRefs = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Write order: write time, then sequence, then ref. A total order (refs are unique). */
export function byWrite(a: Version, b: Version): number {
  return a.body.writtenAt - b.body.writtenAt || compareRefs(a.hlc, b.hlc) || compareRefs(a.ref, b.ref)
}

/** What rank() needs of its candidates: lookup by ref and the write order, without a scan. */
export interface Candidates {
  /** The candidate with this ref, or undefined when it is not one. */
  get(ref: string): Version | undefined
  /** Every candidate in write order (`byWrite`). */
  inWriteOrder(): readonly Version[]
  /** Position of a candidate in `inWriteOrder()`: O(log n). */
  indexOf(v: Version): number
  /**
   * Every candidate by importance, write time (latest first) and ref, read lazily from the top (rank()'s
   * zero-score tail, `prior` there), or undefined when a NaN key leaves no such order. Read it
   * before the next edit. O(1) a version read, once built (one pass over the write order).
   */
  byPrior?(): Iterator<Version> | undefined
}

/**
 * `versions` in write order (`byWrite`). The write times are put in order as numbers
 * (`timeOrder`, a radix sort: O(n)); only versions sharing a time are compared with `byWrite`.
 * Sorting 100k versions with `byWrite` took a first query at 100k 150-190 ms; sorting the times
 * natively and finding each version again through a Map by time was still 72% of a first
 * retrieve's CPU in Chromium at 300k (issue 31, seventh round).
 */
function sortByWrite(versions: readonly Version[]): Version[] {
  const n = versions.length
  const times = new Float64Array(n)
  for (let i = 0; i < n; i++) times[i] = versions[i]!.body.writtenAt
  const order = timeOrder(times)
  const out: Version[] = []
  for (let i = 0; i < n; ) {
    // The run sharing this time (NaN, which a damaged record could carry, is one run: not equal to itself).
    const t = times[order[i]!]!
    let j = i + 1
    while (j < n && (times[order[j]!] === t || (t !== t && Number.isNaN(times[order[j]!])))) j++
    if (j - i === 1) out.push(versions[order[i]!]!)
    else {
      const run: Version[] = []
      for (let k = i; k < j; k++) run.push(versions[order[k]!]!)
      out.push(...run.sort(byWrite))
    }
    i = j
  }
  return out
}

// Edits applied in place (one splice each) between two reads; past this many the order is dropped
// and rebuilt by one sort on the next read, so replaying 100k records on open costs one sort, not
// 100k splices, while a write between two queries stays an append or a memmove.
const EDITS_IN_PLACE = 32

/**
 * Who belongs to a WriteOrder, by ref. Its own map by default; FactState's heads answer from a
 * flag on each version instead (`HeadMembers`), so a current fact costs no map entry of its own.
 */
export interface Members {
  readonly size: number
  has(ref: string): boolean
  get(ref: string): Version | undefined
  /** Adds a version (one of the same ref already a member: replaced in its place). */
  add(v: Version): void
  /** Removes a member. */
  delete(v: Version): void
  clear(): void
  /** Every member, once each. */
  values(): IterableIterator<Version>
}

/** Members in a map by ref, iterated in insertion order. */
class MapMembers implements Members {
  readonly #members = new Map<string, Version>()
  get size(): number {
    return this.#members.size
  }
  has(ref: string): boolean {
    return this.#members.has(ref)
  }
  get(ref: string): Version | undefined {
    return this.#members.get(ref)
  }
  add(v: Version): void {
    this.#members.set(v.ref, v)
  }
  delete(v: Version): void {
    this.#members.delete(v.ref)
  }
  clear(): void {
    this.#members.clear()
  }
  values(): IterableIterator<Version> {
    return this.#members.values()
  }
}

/**
 * A set of versions by ref that also keeps them in write order, for the context-neighbour bonus
 * (a match's neighbours in write order: docs/retrieval.md). With its own members (the default)
 * `values()` keeps insertion order.
 */
export class WriteOrder implements Candidates {
  readonly #members: Members
  #sorted: Version[] | null = []
  /**
   * The sorted versions' write times, in step with `#sorted` (valid while it is): `indexOf` binary
   * searches these numbers and touches versions only among equal times. Searching the versions
   * themselves was a cache miss per step at 100k, a tenth of a query.
   */
  #at = new Float64Array(64)
  #edits = 0
  /** The same versions by importance and recency, once the tail has been read (`byPrior`); kept in step. */
  #prior: PriorOrder | null = null

  constructor(members: Members = new MapMembers()) {
    this.#members = members
  }

  /** Candidates from a plain list (sorted once; a list already in write order sorts in O(n)). */
  static of(versions: readonly Version[]): WriteOrder {
    const w = new WriteOrder()
    for (const v of versions) w.#members.add(v)
    w.#sorted = null
    return w
  }

  get size(): number {
    return this.#members.size
  }

  has(ref: string): boolean {
    return this.#members.has(ref)
  }

  get(ref: string): Version | undefined {
    return this.#members.get(ref)
  }

  /** In insertion order. */
  values(): IterableIterator<Version> {
    return this.#members.values()
  }

  add(v: Version): void {
    if (this.#members.has(v.ref)) return
    this.#members.add(v)
    if (this.#prior && !this.#prior.add(v)) this.#prior = null
    const s = this.#sorted
    if (s === null) return
    if (s.length === 0 || byWrite(s[s.length - 1]!, v) < 0) {
      this.#room(s.length + 1)
      this.#at[s.length] = v.body.writtenAt
      s.push(v)
    } else if (this.#edits++ < EDITS_IN_PLACE) {
      const i = this.#search(s, v)
      this.#room(s.length + 1)
      this.#at.copyWithin(i + 1, i, s.length)
      this.#at[i] = v.body.writtenAt
      s.splice(i, 0, v)
    } else this.#sorted = null
  }

  delete(ref: string): void {
    const v = this.#members.get(ref)
    if (!v) return
    this.#members.delete(v)
    if (this.#prior && !this.#prior.delete(v)) this.#prior = null
    const s = this.#sorted
    if (s === null) return
    if (this.#edits++ < EDITS_IN_PLACE) {
      const i = this.#search(s, v)
      this.#at.copyWithin(i, i + 1, s.length)
      s.splice(i, 1)
    } else this.#sorted = null
  }

  clear(): void {
    this.#members.clear()
    this.#sorted = []
    this.#edits = 0
    this.#prior = null
  }

  byPrior(): Iterator<Version> | undefined {
    this.#prior ??= PriorOrder.of(this.inWriteOrder(), byWrite)
    return this.#prior?.descending()
  }

  /**
   * Builds now what the first query would otherwise build: the write order and the order by
   * importance (`byPrior`). Called at the end of a full load (FactState.prepareOrders), which is
   * O(facts) anyway: left to the query, the two builds were one retrieve per open that grew with
   * the store (issue 31: 100-160 ms at a million facts, the p95 of retrieve).
   */
  prepare(): void {
    this.#prior ??= PriorOrder.of(this.inWriteOrder(), byWrite)
  }

  inWriteOrder(): readonly Version[] {
    this.#edits = 0
    if (this.#sorted === null) {
      const s = sortByWrite([...this.#members.values()])
      this.#at = new Float64Array(Math.max(64, s.length))
      for (let i = 0; i < s.length; i++) this.#at[i] = s[i]!.body.writtenAt
      this.#sorted = s
    }
    return this.#sorted
  }

  indexOf(v: Version): number {
    const s = this.inWriteOrder()
    const i = this.#search(s, v)
    return s[i] === v || (i < s.length && s[i]!.ref === v.ref) ? i : -1
  }

  #room(n: number): void {
    if (n <= this.#at.length) return
    const grown = new Float64Array(Math.max(n, this.#at.length * 2))
    grown.set(this.#at)
    this.#at = grown
  }

  /** First position whose version is not before `v`: by write time on the numbers, then among equal times. */
  #search(s: readonly Version[], v: Version): number {
    const at = this.#at, t = v.body.writtenAt
    let lo = 0, hi = s.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (at[mid]! < t) lo = mid + 1
      else hi = mid
    }
    while (lo < s.length && at[lo] === t && byWrite(s[lo]!, v) < 0) lo++
    return lo
  }
}
