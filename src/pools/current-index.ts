import { deleteFrom, setOf } from '../core/set-map.js'
import { conflictOf } from './conflicts.js'
import { compareRecords } from './records.js'
import { contradicts, duplicateKey, nearDuplicate, norm, slotKey } from './similarity.js'
import type { LiveMemory, Structure } from './structure.js'
import type { PoolConflict } from './types.js'

type Buckets = Map<string, Set<string>>

const topicKey = (m: LiveMemory): string => `${m.payload.type}\u001f${norm(m.payload.subject)}\u001f${norm(m.payload.predicate)}`

/**
 * The current memories of one view by the keys the pool's rules compare them on: duplicate key
 * (deduplication), type + subject + predicate (near-duplicates for autoMerge), slot (contradictions)
 * and direct predecessor (competing updates), with the conflicts these imply. Built on first use,
 * then kept as memories enter and leave the current set, so that neither a write's duplicate check
 * nor a conflict listing reads the whole pool.
 */
export class CurrentIndex {
  readonly #s: Structure
  #current: ReadonlyMap<string, LiveMemory>
  #built = false
  readonly #byDuplicate: Buckets = new Map()
  readonly #byTopic: Buckets = new Map()
  readonly #bySlot: Buckets = new Map()
  readonly #byPredecessor: Buckets = new Map()
  readonly #conflicts = new Map<string, PoolConflict>()
  readonly #conflictsOf: Buckets = new Map()
  #listed: PoolConflict[] | null = null
  /** The pool's multi-valued predicates, normalized (policies do not change under a patch). */
  readonly #multi: ReadonlySet<string>

  constructor(s: Structure, current: ReadonlyMap<string, LiveMemory>) {
    this.#s = s
    this.#current = current
    this.#multi = new Set(s.policies.multiValuedPredicates.map(norm))
  }

  /** `m` became current (the view's map already holds it). */
  enter(m: LiveMemory): void {
    if (this.#built) this.#add(m)
  }

  /**
   * The view was built again over the same structure and `next` is its current set: the memories
   * that left are taken out before it replaces the old one, those that entered are added after;
   * `changed` hears the id of each (the view's lineage notes them).
   */
  rebind(next: ReadonlyMap<string, LiveMemory>, changed: (id: string) => void): void {
    const was = this.#current
    for (const [id, m] of was) {
      if (next.get(id) === m) continue
      changed(id)
      if (this.#built) this.leave(m)
    }
    this.#current = next
    for (const [id, m] of next) {
      if (was.get(id) === m) continue
      changed(id)
      if (this.#built) this.#add(m)
    }
  }

  /** `m` stopped being current. */
  leave(m: LiveMemory): void {
    if (!this.#built) return
    const p = m.payload
    if (!p.ephemeral) {
      deleteFrom(this.#byDuplicate, duplicateKey(p), m.id)
      deleteFrom(this.#byTopic, topicKey(m), m.id)
    }
    deleteFrom(this.#bySlot, slotKey(p), m.id)
    for (const pred of p.supersedes) deleteFrom(this.#byPredecessor, pred, m.id)
    for (const id of this.#conflictsOf.get(m.id) ?? []) {
      const c = this.#conflicts.get(id)!
      this.#conflicts.delete(id)
      for (const other of c.memories) if (other !== m.id) deleteFrom(this.#conflictsOf, other, id)
      this.#listed = null
    }
    this.#conflictsOf.delete(m.id)
  }

  /** The current, non-EPHEMERAL memory with this duplicate key (the earliest record when concurrent writes made two). */
  duplicate(key: string): LiveMemory | undefined {
    return this.#earliest(this.#ensure().#byDuplicate.get(key))
  }

  /** Every current, non-EPHEMERAL memory with this duplicate key (usually one; concurrent writes can make more). */
  duplicates(key: string): LiveMemory[] {
    return [...(this.#ensure().#byDuplicate.get(key) ?? [])].map((id) => this.#current.get(id)!)
  }

  /** Current, non-EPHEMERAL memories other than `m` that are near-duplicates of it (similarity.ts). */
  nearDuplicates(m: LiveMemory, threshold: number): LiveMemory[] {
    const out: LiveMemory[] = []
    for (const id of this.#ensure().#byTopic.get(topicKey(m)) ?? []) {
      const c = this.#current.get(id)!
      if (id !== m.id && nearDuplicate(c.payload, m.payload, threshold)) out.push(c)
    }
    return out
  }

  /** Every conflict between current memories (conflicts.ts), in a fixed order: contradictions first, then by memory ids. */
  conflicts(): readonly PoolConflict[] {
    this.#ensure()
    this.#listed ??= [...this.#conflicts.values()].sort(
      (a, b) => (a.kind === b.kind ? 0 : a.kind === 'contradiction' ? -1 : 1) || cmp(a.memories[0], b.memories[0]) || cmp(a.memories[1], b.memories[1]),
    )
    return this.#listed
  }

  #earliest(ids: Set<string> | undefined): LiveMemory | undefined {
    let best: LiveMemory | undefined
    for (const id of ids ?? []) {
      const m = this.#current.get(id)!
      if (!best || compareRecords(m.record, best.record) < 0) best = m
    }
    return best
  }

  #ensure(): this {
    if (!this.#built) {
      this.#built = true
      for (const m of this.#current.values()) this.#add(m)
    }
    return this
  }

  #add(m: LiveMemory): void {
    const p = m.payload
    for (const id of this.#bySlot.get(slotKey(p)) ?? []) {
      const other = this.#current.get(id)!
      if (contradicts(other.payload, p, this.#s.policies.similarity, this.#multi)) this.#flag('contradiction', other, m)
    }
    for (const pred of p.supersedes) for (const id of this.#byPredecessor.get(pred) ?? []) if (id !== m.id) this.#flag('competing-update', this.#current.get(id)!, m)
    if (!p.ephemeral) {
      setOf(this.#byDuplicate, duplicateKey(p)).add(m.id)
      setOf(this.#byTopic, topicKey(m)).add(m.id)
    }
    setOf(this.#bySlot, slotKey(p)).add(m.id)
    for (const pred of p.supersedes) setOf(this.#byPredecessor, pred).add(m.id)
  }

  #flag(kind: PoolConflict['kind'], a: LiveMemory, b: LiveMemory): void {
    const c = conflictOf(kind, a, b, this.#s)
    // A pair in one slot that also competes for one predecessor is flagged once, as a contradiction (as before).
    const had = this.#conflicts.get(c.id)
    if (had && (had.kind === 'contradiction' || kind !== 'contradiction')) return
    this.#conflicts.set(c.id, c)
    for (const id of c.memories) setOf(this.#conflictsOf, id).add(c.id)
    this.#listed = null
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
