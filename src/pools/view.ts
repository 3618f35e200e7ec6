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
  /**
   * The lineage of a pool's first derivation in this process (the records as an open read them):
   * what a reader kept in step with the last session (the fact view) had nothing to see before it.
   */
  opening = false

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
  /** `s.resolutions` by winner, once a forget asked (a structure's resolutions change only by deriving it again). */
  #byWinner: Map<string, string[]> | null = null

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

  /**
   * Memories of the structure were forgotten (a tombstone patched into it: they left `s.memories`
   * and are in `s.forgotten` with their links): what `build` would make of the structure now, in
   * place, reading only the forgotten memories, what they superseded and what superseded them. A
   * forget in a pool of 100k memories built the whole view again (0.1 s on each device) to change
   * a handful of entries. False, with nothing changed, when it cannot be done in place: a target
   * that was not readable here (sealed, absent, or forgotten again under other links), whose
   * links would send the chains of its successors elsewhere, or that is the view's next expiry
   * (`stableUntil` would move to the one after it); then the caller builds the view.
   */
  forget(ids: readonly string[]): boolean {
    const gone = this.s.forgotten
    const live: LiveMemory[] = []
    for (const id of ids) {
      const links = gone.get(id)
      if (links === undefined) return false
      const m = this.live.get(id) ?? this.expired.find((e) => e.id === id)
      // Readable here with the links the tombstone repairs through: chains read the same links as
      // before, and only what the memory itself held changes. Anything else could re-route chains
      // of memories nothing here leads to (no index of who names an id).
      if (m) {
        if (!sameLinks(m.payload.supersedes, links)) return false
        // The next expiry in the view: which one follows it is a walk over the live memories.
        if (this.live.get(id) === m && expiresAt(m.payload) === this.stableUntil) return false
        if (this.live.get(id) === m) live.push(m)
      } else if (!sameLinks(this.#gone.get(id), links)) return false
    }
    for (const id of ids) {
      this.#gone.set(id, gone.get(id)!)
      const at = this.expired.findIndex((e) => e.id === id)
      // Noted too: an expired memory's fact is still there until a reconcile looks at it (fact-view.ts).
      if (at >= 0) {
        this.expired.splice(at, 1)
        this.lineage.note(id)
      }
    }
    for (const m of live) this.#drop(m)
    return true
  }

  /** A live memory forgotten: it leaves; its successors supersede what it did; what only it superseded is current again. */
  #drop(m: LiveMemory): void {
    const preds = [...this.#predecessors(m), ...(this.#losersTo().get(m.id) ?? [])]
    const succs = this.supersededBy.get(m.id) ?? []
    this.live.delete(m.id)
    this.lineage.note(m.id)
    if (this.current.get(m.id) === m) {
      this.current.delete(m.id)
      this.index.leave(m)
    }
    this.supersededBy.delete(m.id)
    // Chains through `m` now go through its links (it is gone): its successors reach its predecessors.
    for (const succ of succs) {
      const s = this.live.get(succ)
      if (!s) continue
      for (const pred of this.#predecessors(s)) {
        this.#link(pred, succ)?.sort()
        this.#supersede(pred)
      }
    }
    for (const pred of preds) {
      const list = this.supersededBy.get(pred)
      const at = list?.indexOf(m.id) ?? -1
      if (!list || at < 0) continue
      list.splice(at, 1)
      if (list.length > 0) continue
      this.supersededBy.delete(pred)
      const p = this.live.get(pred)
      if (p && !this.current.has(pred)) {
        this.current.set(pred, p)
        this.index.enter(p)
        this.lineage.note(pred)
      }
    }
  }

  /** A live memory got a successor: it is no longer current. */
  #supersede(id: string): void {
    const was = this.current.get(id)
    if (!was) return
    this.current.delete(id)
    this.index.leave(was)
    this.lineage.note(id)
  }

  /** Resolutions in force between live memories, by winner (their links are in `supersededBy`); built on the first forget. */
  #losersTo(): ReadonlyMap<string, readonly string[]> {
    if (this.#byWinner) return this.#byWinner
    const out = new Map<string, string[]>()
    for (const [loser, winner] of this.s.resolutions) {
      let list = out.get(winner)
      if (!list) out.set(winner, (list = []))
      list.push(loser)
    }
    return (this.#byWinner = out)
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

/** Whether a forgotten memory's links are the ones it superseded (the same ids, whatever the order: chains read them as a set). */
function sameLinks(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.every((id) => b.includes(id)) && b.every((id) => a.includes(id))
}

/** The view of `s` at `now`, built from scratch (tests and one-off readers). */
export function viewAt(s: Structure, now: number): View {
  return ViewState.build(s, now).at(now)
}
