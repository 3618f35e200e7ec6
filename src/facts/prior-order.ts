import type { Version } from './version.js'

const compareRefs = (a: Version, b: Version): number => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0)

// Edits applied in place (one splice each) between two reads; past this many the order is dropped
// and built again on the next read (as WriteOrder does with the write order it is built from).
const EDITS_IN_PLACE = 32

/**
 * The candidates by importance (highest first), then write time (latest first), then ref: the
 * order of rank()'s zero-score tail (`prior` in rank.ts), read lazily from the top. A query that
 * matches nothing reads about twenty memories of it, not every current fact (issue 31: that walk
 * was the p95 of retrieve at 300k and 1M).
 *
 * Kept as one group per distinct importance, each in write order (`byWrite`, so a new write is an
 * append), and the importances sorted. Reading walks the highest group from its end; versions of
 * one importance and one write time (rare) are put in ref order as they are read. Built from the
 * write order in one pass when the tail is first read, then kept in step with the edits.
 *
 * Only a total order on numbers can be kept this way: a NaN importance or write time (a damaged
 * record) compares equal to anything in `prior`, so `of` refuses versions holding one.
 */
export class PriorOrder {
  /** Importance -> the versions of that importance, in write order. */
  readonly #groups = new Map<number, Version[]>()
  /** The groups' importances, highest first. */
  readonly #keys: number[] = []
  /** The write order the groups are kept in (write-order.ts's `byWrite`, passed in: that module holds this one). */
  readonly #byWrite: (a: Version, b: Version) => number
  #edits = 0

  private constructor(byWrite: (a: Version, b: Version) => number) {
    this.#byWrite = byWrite
  }

  /** The order of `inWriteOrder` (sorted by `byWrite`), or null when a NaN key makes `prior` no total order. */
  static of(inWriteOrder: readonly Version[], byWrite: (a: Version, b: Version) => number): PriorOrder | null {
    const p = new PriorOrder(byWrite)
    for (const v of inWriteOrder) {
      if (!orderable(v)) return null
      let g = p.#groups.get(v.importance)
      if (g === undefined) p.#groups.set(v.importance, (g = []))
      g.push(v)
    }
    p.#keys.push(...p.#groups.keys())
    p.#keys.sort((a, b) => b - a)
    return p
  }

  /** Adds a version (not already in). False when the order must be dropped (a NaN key, too many edits). */
  add(v: Version): boolean {
    if (!orderable(v)) return false
    const g = this.#groups.get(v.importance)
    if (g === undefined) {
      if (this.#edits++ >= EDITS_IN_PLACE) return false
      this.#groups.set(v.importance, [v])
      this.#keys.splice(this.#keyAt(v.importance), 0, v.importance)
      return true
    }
    if (this.#byWrite(g[g.length - 1]!, v) < 0) g.push(v)
    else {
      if (this.#edits++ >= EDITS_IN_PLACE) return false
      g.splice(search(g, v, this.#byWrite), 0, v)
    }
    return true
  }

  /** Removes a version. False when the order must be dropped (too many edits). */
  delete(v: Version): boolean {
    const g = this.#groups.get(v.importance)
    if (g === undefined) return true
    if (g[g.length - 1] === v) g.pop()
    else {
      if (this.#edits++ >= EDITS_IN_PLACE) return false
      const i = search(g, v, this.#byWrite)
      if (g[i] === v) g.splice(i, 1)
    }
    if (g.length === 0) {
      this.#groups.delete(v.importance)
      this.#keys.splice(this.#keyAt(v.importance), 1)
    }
    return true
  }

  /** Every version, best first. Lazy: read it before the next edit. */
  descending(): Iterator<Version> {
    this.#edits = 0
    return this.#walk()
  }

  *#walk(): Generator<Version> {
    for (const key of this.#keys) {
      const g = this.#groups.get(key)!
      for (let i = g.length - 1; i >= 0;) {
        // The versions sharing this write time (write order puts them together): by ref.
        let j = i
        const t = g[i]!.body.writtenAt
        while (j > 0 && g[j - 1]!.body.writtenAt === t) j--
        if (j === i) yield g[i]!
        else yield* g.slice(j, i + 1).sort(compareRefs)
        i = j - 1
      }
    }
  }

  /** Position of `importance` in `#keys`, or where it goes (highest first). */
  #keyAt(importance: number): number {
    const keys = this.#keys
    let lo = 0, hi = keys.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (keys[mid]! > importance) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

const orderable = (v: Version): boolean => !Number.isNaN(v.importance) && !Number.isNaN(v.body.writtenAt)

/** First position in `g` (in write order) whose version is not before `v`. */
function search(g: readonly Version[], v: Version, byWrite: (a: Version, b: Version) => number): number {
  let lo = 0, hi = g.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (byWrite(g[mid]!, v) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}
