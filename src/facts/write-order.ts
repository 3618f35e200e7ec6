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
}

// Edits applied in place (one splice each) between two reads; past this many the order is dropped
// and rebuilt by one sort on the next read, so replaying 100k records on open costs one sort, not
// 100k splices, while a write between two queries stays an append or a memmove.
const EDITS_IN_PLACE = 32

/**
 * A set of versions by ref that also keeps them in write order, for the context-neighbour bonus
 * (a match's neighbours in write order: docs/retrieval.md). `values()` keeps insertion order.
 */
export class WriteOrder implements Candidates {
  readonly #byRef = new Map<string, Version>()
  #sorted: Version[] | null = []
  #edits = 0

  /** Candidates from a plain list (sorted once; a list already in write order sorts in O(n)). */
  static of(versions: readonly Version[]): WriteOrder {
    const w = new WriteOrder()
    for (const v of versions) w.#byRef.set(v.ref, v)
    w.#sorted = null
    return w
  }

  get size(): number {
    return this.#byRef.size
  }

  has(ref: string): boolean {
    return this.#byRef.has(ref)
  }

  get(ref: string): Version | undefined {
    return this.#byRef.get(ref)
  }

  /** In insertion order. */
  values(): IterableIterator<Version> {
    return this.#byRef.values()
  }

  add(v: Version): void {
    if (this.#byRef.has(v.ref)) return
    this.#byRef.set(v.ref, v)
    const s = this.#sorted
    if (s === null) return
    if (s.length === 0 || byWrite(s[s.length - 1]!, v) < 0) s.push(v)
    else if (this.#edits++ < EDITS_IN_PLACE) s.splice(this.#search(s, v), 0, v)
    else this.#sorted = null
  }

  delete(ref: string): void {
    const v = this.#byRef.get(ref)
    if (!v) return
    this.#byRef.delete(ref)
    const s = this.#sorted
    if (s === null) return
    if (this.#edits++ < EDITS_IN_PLACE) s.splice(this.#search(s, v), 1)
    else this.#sorted = null
  }

  clear(): void {
    this.#byRef.clear()
    this.#sorted = []
    this.#edits = 0
  }

  inWriteOrder(): readonly Version[] {
    this.#edits = 0
    return (this.#sorted ??= [...this.#byRef.values()].sort(byWrite))
  }

  indexOf(v: Version): number {
    const s = this.inWriteOrder()
    const i = this.#search(s, v)
    return s[i] === v || (i < s.length && s[i]!.ref === v.ref) ? i : -1
  }

  /** First position whose version is not before `v`. */
  #search(s: readonly Version[], v: Version): number {
    let lo = 0, hi = s.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (byWrite(s[mid]!, v) < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}
