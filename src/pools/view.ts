import { CurrentIndex } from './current-index.js'
import { expiresAt, type LiveMemory, type Structure } from './structure.js'

/** One pool at one instant: what is live (readable, unexpired), what replaces what, what is current. */
export interface View {
  readonly s: Structure
  readonly now: number
  readonly live: ReadonlyMap<string, LiveMemory>
  /** Readable memories past their TTL: hidden now, hard-deleted by the next sweep. */
  readonly expired: readonly LiveMemory[]
  readonly supersededBy: ReadonlyMap<string, readonly string[]>
  /** The live memories nothing live supersedes, in the order they became current. */
  readonly current: ReadonlyMap<string, LiveMemory>
  /** The next instant a live memory expires: until then the same view holds (only `now` moves). */
  readonly stableUntil: number
  /** Duplicates, near-duplicates and conflicts among the current memories, found by key, not by scan. */
  readonly index: CurrentIndex
  /** Shared by the views built one after another over one structure: what those rebuilds changed. */
  readonly lineage: ViewLineage
}

const NO_IDS: ReadonlySet<string> = new Set()

/** Past this many ids changed by rebuilds, a reader that follows them reads everything instead. */
const MAX_CHANGED = 10_000

/**
 * What views built one after another over one structure (a tombstone patched into it, a memory
 * expired) share: the ids whose liveness or currency those rebuilds changed, until a reader that
 * keeps something in step with the view (the fact view) takes them, so that it looks at those and
 * not at the whole pool. Null once more changed than is worth listing.
 */
export class ViewLineage {
  #changed: Set<string> | null = new Set()

  note(id: string): void {
    if (this.#changed === null) return
    this.#changed.add(id)
    if (this.#changed.size > MAX_CHANGED) this.#changed = null
  }

  /** The ids changed since the last call (null: too many, read everything), and starts again. */
  take(): ReadonlySet<string> | null {
    const changed = this.#changed
    this.#changed = new Set()
    return changed
  }
}

/**
 * The view of one structure, kept while its records change: a memory that arrives is added in
 * place (`add`), so a write into a pool of 100k memories costs the write, not a new view. Anything
 * `add` cannot do in place (the memory is already expired) answers false, and the caller builds the
 * view again from the structure: `ViewState.build(s, now)` is the definition, `add` a shortcut to
 * the same result (test/pools/pools-incremental.test.ts compares the two over random histories).
 *
 * Supersession follows chains through forgotten and expired memories, as GMP's fact chains do:
 * if B (superseding A) is forgotten, C (superseding B) now supersedes A; if C goes too, A is
 * current again.
 */
export class ViewState {
  readonly live = new Map<string, LiveMemory>()
  readonly expired: LiveMemory[] = []
  readonly supersededBy = new Map<string, string[]>()
  readonly current = new Map<string, LiveMemory>()
  stableUntil = Infinity
  /** Ids no longer live whose links supersession follows: forgotten and expired memories. */
  readonly #gone: Map<string, readonly string[]>
  readonly index: CurrentIndex
  readonly lineage: ViewLineage
  /** The view of the same structure this one was built after: it hands over its index and lineage. */
  readonly #previous: ViewState | undefined

  private constructor(readonly s: Structure, readonly now: number, previous: ViewState | undefined) {
    this.#gone = new Map(s.forgotten)
    // The same structure patched in place (a tombstone) or seen later (a memory expired): the index
    // of current memories is kept and told who left and entered, instead of built again (at 100k
    // memories that was most of a forget's cost).
    this.#previous = previous?.s === s ? previous : undefined
    this.index = this.#previous ? this.#previous.index : new CurrentIndex(s, this.current)
    this.lineage = this.#previous ? this.#previous.lineage : new ViewLineage()
  }

  /** The view of `s` at `now`; `previous`, a view of the same structure, hands over its index. */
  static build(s: Structure, now: number, previous?: ViewState): ViewState {
    const v = new ViewState(s, now, previous)
    for (const m of s.memories.values()) {
      if (!m.payload) continue
      const until = expiresAt(m.payload)
      if (until !== null && now >= until) v.expired.push(m as LiveMemory)
      else {
        v.live.set(m.id, m as LiveMemory)
        if (until !== null) v.stableUntil = Math.min(v.stableUntil, until)
      }
    }
    for (const m of v.expired) v.#gone.set(m.id, m.payload.supersedes)
    for (const m of v.live.values()) for (const pred of v.#predecessors(m)) v.#link(pred, m.id)
    for (const [loser, winner] of s.resolutions) if (v.live.has(loser) && v.live.has(winner)) v.#link(loser, winner)
    for (const list of v.supersededBy.values()) list.sort()
    for (const m of v.live.values()) if (!v.supersededBy.has(m.id)) v.current.set(m.id, m)
    const was = v.#previous
    if (was) {
      for (const [id, m] of was.live) if (v.live.get(id) !== m) v.lineage.note(id)
      for (const id of v.live.keys()) if (!was.live.has(id)) v.lineage.note(id)
      v.index.rebind(v.current, (id) => v.lineage.note(id))
    }
    return v
  }

  /** This view at `now` (within its stable span: only the clock that importance reads moves). */
  at(now: number): View {
    const { s, live, expired, supersededBy, current, stableUntil, index, lineage } = this
    return { s, now, live, expired, supersededBy, current, stableUntil, index, lineage }
  }

  /**
   * A memory of the structure became readable (new, or its payload opened). The caller has checked
   * that nothing refers to it yet (no supersession link, resolution or tombstone names it), so it is
   * current and only its predecessors change. False when it cannot be added in place.
   */
  add(m: LiveMemory): boolean {
    const until = expiresAt(m.payload)
    if (until !== null && this.now >= until) return false
    this.live.set(m.id, m)
    if (until !== null) this.stableUntil = Math.min(this.stableUntil, until)
    for (const pred of this.#predecessors(m)) {
      const list = this.#link(pred, m.id)
      list?.sort()
      const was = this.current.get(pred)
      if (was) {
        this.current.delete(pred)
        this.index.leave(was)
      }
    }
    this.current.set(m.id, m)
    this.index.enter(m)
    return true
  }

  /** The live memories `m` supersedes, through forgotten and expired ones. */
  #predecessors(m: LiveMemory): ReadonlySet<string> {
    // Most memories supersede nothing: no sets to build for them (a view of 100k memories is built
    // again after every tombstone).
    if (m.payload.supersedes.length === 0) return NO_IDS
    const out = new Set<string>()
    const seen = new Set<string>()
    const resolve = (id: string): void => {
      if (seen.has(id)) return
      seen.add(id)
      if (this.live.has(id)) out.add(id)
      else for (const next of this.#gone.get(id) ?? []) resolve(next)
    }
    for (const id of m.payload.supersedes) resolve(id)
    out.delete(m.id)
    return out
  }

  #link(pred: string, succ: string): string[] | undefined {
    if (pred === succ) return undefined
    let list = this.supersededBy.get(pred)
    if (!list) this.supersededBy.set(pred, (list = []))
    if (!list.includes(succ)) list.push(succ)
    return list
  }
}

/** The view of `s` at `now`, built from scratch (tests and one-off readers). */
export function viewAt(s: Structure, now: number): View {
  return ViewState.build(s, now).at(now)
}
