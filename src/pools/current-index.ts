import { deleteFrom, setOf } from '../core/set-map.js'
import { conflictOf, groupOf } from './conflicts.js'
import { compareRecords } from './records.js'
import { duplicateKey, jaccard, nearDuplicate, norm, slotKey, text, words } from './similarity.js'
import type { LiveMemory, Structure } from './structure.js'
import type { PoolConflict, PoolConflictGroup } from './types.js'

type Buckets = Map<string, Set<string>>

/**
 * Ids by duplicate key: nearly every key has one memory, held as its id alone (a Set per memory was
 * most of what building this bucket allocated at 100k memories); a key with more holds them in a Set.
 */
type OneOrMore = Map<string, string | Set<string>>

function addOne(map: OneOrMore, key: string, id: string): void {
  const was = map.get(key)
  if (was === undefined) map.set(key, id)
  else if (typeof was === 'string') {
    if (was !== id) map.set(key, new Set([was, id]))
  } else was.add(id)
}

function deleteOne(map: OneOrMore, key: string, id: string): void {
  const was = map.get(key)
  if (was === id) map.delete(key)
  else if (typeof was === 'object' && was.delete(id) && was.size === 0) map.delete(key)
}

function idsOf(map: OneOrMore, key: string): Iterable<string> {
  const ids = map.get(key)
  return ids === undefined ? [] : typeof ids === 'string' ? [ids] : ids
}

const topicKey = (m: LiveMemory): string => `${m.payload.type}\u001f${norm(m.payload.subject)}\u001f${norm(m.payload.predicate)}`

/** The current memories of one slot holding one value (equal texts: similarity 1, never a contradiction). */
interface Value {
  /** Its memories: nearly always one, held as its id alone (a Set only for two or more). */
  ids: string | Set<string>
  /** The value's text (the slot's key for it). */
  readonly text: string
  /**
   * Its words, made when the value is first compared: most slots hold one value and are never
   * compared, and a word set per memory was most of what building this index allocated (issue 31).
   */
  words: ReadonlySet<string> | null
}

/**
 * One slot's current memories by value. Whether two of its values contradict is found when a
 * listing asks: `witness` is a contradicting pair of values, null when none contradict (but those
 * in `unchecked`, added since, are still to be compared with the others), undefined when unknown
 * (a witness left: look again); `forced` when looking again ran out of comparisons.
 */
interface Slot {
  readonly values: Map<string, Value>
  readonly multi: boolean
  witness: readonly [string, string] | null | undefined
  /** Made when a second value enters (null while none wait: most slots never hold two). */
  unchecked: Set<string> | null
  forced: boolean
  /** Its memories by id, made when a memory's conflicts are asked and dropped when the slot changes. */
  sorted: string[] | null
}

const idsIn = (v: Value): Iterable<string> => (typeof v.ids === 'string' ? [v.ids] : v.ids)

/** Pair listings stop past this many value comparisons, whatever their limit (crafted near-duplicates could ask k²). */
const MAX_COMPARISONS = 1_000_000

/**
 * The current memories of one view by the keys the pool's rules compare them on: duplicate key
 * (deduplication), type + subject + predicate (near-duplicates for autoMerge), slot (contradictions)
 * and direct predecessor (competing updates). Built with the pools' view (`fill`, from
 * PoolState.view; a bare index builds on first use), then kept as memories enter and leave the
 * current set, so that neither a write's duplicate check nor a conflict listing reads the whole
 * pool. The duplicate keys are built apart from the rest, and may be built ahead
 * (`buildDuplicates`): the fact view looks memories up by them when a forget takes a fact away, and
 * a device that only reads a pool built the whole index in its first forget (4 s at 100k memories,
 * issue 31); the rest (topics, slots, predecessors) is for writes and conflict listings.
 *
 * Conflicts are kept as groups, never as pairs: a slot is its memories by value, a predecessor its
 * current successors, and what a write changes is one entry of each (issue 26: a member's 2,000
 * memories in one slot were 2 million pairs, rebuilt into an index on every write's reply). Which
 * groups hold a conflict, their suggestions and any pairs are worked out when someone lists them,
 * and kept until a group they read changes; a memory's own conflicts (`conflictsWith`) read its
 * slot and predecessors only.
 */
export class CurrentIndex {
  readonly #s: Structure
  #current: ReadonlyMap<string, LiveMemory>
  /** Whether the duplicate keys are kept (`#byDuplicate`), and the rest (topics, slots, predecessors). */
  #dupsBuilt = false
  #built = false
  readonly #byDuplicate: OneOrMore = new Map()
  readonly #byTopic: OneOrMore = new Map()
  readonly #slots = new Map<string, Slot>()
  readonly #byPredecessor: Buckets = new Map()
  /** Slots with two values or more under a single-valued predicate: where contradictions can be. */
  readonly #openSlots = new Set<string>()
  /** Predecessors with two current successors or more. */
  readonly #openPredecessors = new Set<string>()
  #groups: PoolConflictGroup[] | null = null
  #groupsById: Map<string, PoolConflictGroup> | null = null
  /** Pairs in the order they were found (the first `limit` of them are a listing of `limit`), and the limit they were found for. */
  #pairs: { readonly limit: number; readonly found: PoolConflict[] } | null = null
  /** The pool's multi-valued predicates, normalized (policies do not change under a patch). */
  readonly #multi: ReadonlySet<string>

  constructor(s: Structure, current: ReadonlyMap<string, LiveMemory>) {
    this.#s = s
    this.#current = current
    this.#multi = new Set(s.policies.multiValuedPredicates.map(norm))
  }

  /** `m` became current (the view's map already holds it). */
  enter(m: LiveMemory): void {
    if (this.#dupsBuilt) this.#addDuplicate(m)
    if (this.#built) this.#add(m)
  }

  /**
   * Builds the duplicate keys now if not yet built (once per index; then kept as memories enter and
   * leave). The fact view calls it when it reads the whole pool anyway (a join's view, a pool derived
   * again), so that the first forget it brings in line does not build them (issue 31).
   */
  buildDuplicates(): void {
    this.#ensureDuplicates()
  }

  /**
   * Builds the whole index now if not yet built (once per index; then kept as memories enter and
   * leave). The pools' state calls it where it builds a view from scratch, in the pass that reads
   * the whole pool anyway (an open's first read, a join's view, a pool derived again), so that the
   * first write after it does O(its slot) work, not the whole pool's index (issue 31: 1,064 ms
   * and ~56 MB at once in the first write after a 100k join).
   */
  fill(): void {
    this.#ensureDuplicates()
    this.#ensure()
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
      this.leave(m)
    }
    this.#current = next
    for (const [id, m] of next) {
      if (was.get(id) === m) continue
      changed(id)
      this.enter(m)
    }
  }

  /** `m` stopped being current. */
  leave(m: LiveMemory): void {
    const p = m.payload
    if (this.#dupsBuilt && !p.ephemeral) deleteOne(this.#byDuplicate, duplicateKey(p), m.id)
    if (!this.#built) return
    if (!p.ephemeral) deleteOne(this.#byTopic, topicKey(m), m.id)
    const key = slotKey(p)
    const slot = this.#slots.get(key)!
    const value = text(p.object)
    const v = slot.values.get(value)!
    const left = typeof v.ids === 'string' ? v.ids === m.id : v.ids.delete(m.id) && v.ids.size === 0
    slot.sorted = null
    if (this.#openSlots.has(key)) this.#changed()
    if (left) {
      slot.values.delete(value)
      slot.unchecked?.delete(value)
      if (slot.witness && slot.witness.includes(value)) slot.witness = undefined
      if (slot.values.size < 2) {
        // One value contradicts nothing: known, not to be looked for again.
        this.#openSlots.delete(key)
        slot.witness = null
        slot.forced = false
        slot.unchecked = null
      }
      if (slot.values.size === 0) this.#slots.delete(key)
    }
    for (const pred of p.supersedes) {
      deleteFrom(this.#byPredecessor, pred, m.id)
      if (this.#openPredecessors.has(pred)) {
        this.#changed()
        if ((this.#byPredecessor.get(pred)?.size ?? 0) < 2) this.#openPredecessors.delete(pred)
      }
    }
  }

  /** The current, non-EPHEMERAL memory with this duplicate key (the earliest record when concurrent writes made two). */
  duplicate(key: string): LiveMemory | undefined {
    return this.#earliest(idsOf(this.#ensureDuplicates().#byDuplicate, key))
  }

  /** Every current, non-EPHEMERAL memory with this duplicate key (usually one; concurrent writes can make more). */
  duplicates(key: string): LiveMemory[] {
    return [...idsOf(this.#ensureDuplicates().#byDuplicate, key)].map((id) => this.#current.get(id)!)
  }

  /** Current, non-EPHEMERAL memories other than `m` that are near-duplicates of it (similarity.ts). */
  nearDuplicates(m: LiveMemory, threshold: number): LiveMemory[] {
    const out: LiveMemory[] = []
    for (const id of idsOf(this.#ensure().#byTopic, topicKey(m))) {
      const c = this.#current.get(id)!
      if (id !== m.id && nearDuplicate(c.payload, m.payload, threshold)) out.push(c)
    }
    return out
  }

  /**
   * The current memories `m` conflicts with (contradicts in its slot, or competes with for a
   * predecessor), sorted, at most `limit`; none when `m` is not current. Reads `m`'s slot and
   * predecessors, nothing else: what a write's reply asks.
   */
  conflictsWith(m: LiveMemory, limit: number): string[] {
    this.#ensure()
    if (this.#current.get(m.id) !== m) return []
    const p = m.payload
    const out = new Set<string>()
    const slot = this.#slots.get(slotKey(p))
    if (slot && !slot.multi && slot.values.size > 1) {
      // The slot in id order, up to `limit` that contradict: a query presenting every memory of a
      // slot of 20,000 costs about `limit` comparisons each, not the slot each.
      const mine = slot.values.get(text(p.object))!
      const contradicts = new Map<Value, boolean>()
      slot.sorted ??= [...slot.values.values()].flatMap((v) => [...idsIn(v)]).sort()
      for (const id of slot.sorted) {
        if (out.size >= limit) break
        const v = slot.values.get(text(this.#current.get(id)!.payload.object))!
        if (v === mine) continue
        let c = contradicts.get(v)
        if (c === undefined) contradicts.set(v, (c = this.#contradict(mine, v)))
        if (c) out.add(id)
      }
    }
    for (const pred of p.supersedes) for (const id of this.#byPredecessor.get(pred) ?? []) if (id !== m.id) out.add(id)
    return [...out].sort().slice(0, limit)
  }

  /**
   * Every conflict group among current memories, contradictions first, then by first member. A
   * group of successors that all sit in one contradicting slot is that slot's group, not another.
   */
  groups(): readonly PoolConflictGroup[] {
    this.#ensure()
    if (this.#groups) return this.#groups
    const out: PoolConflictGroup[] = []
    const seen = new Set<string>()
    for (const key of this.#openSlots) {
      const slot = this.#slots.get(key)!
      if (!this.#witness(slot)) continue
      const ids: string[] = []
      for (const v of slot.values.values()) for (const id of idsIn(v)) ids.push(id)
      out.push(groupOf('contradiction', this.#members(ids), this.#s))
    }
    for (const pred of this.#openPredecessors) {
      const members = this.#members([...this.#byPredecessor.get(pred)!])
      const key = slotKey(members[0]!.payload)
      if (members.every((m) => slotKey(m.payload) === key) && this.#openSlots.has(key) && this.#witness(this.#slots.get(key)!)) continue
      const g = groupOf('competing-update', members, this.#s)
      if (!seen.has(g.id)) out.push(g)
      seen.add(g.id)
    }
    out.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'contradiction' ? -1 : 1) || cmp(a.memories[0]!, b.memories[0]!) || cmp(a.id, b.id))
    this.#groups = out
    return out
  }

  /** The conflict group with this id, if there is one now. */
  group(id: string): PoolConflictGroup | undefined {
    this.#groupsById ??= new Map(this.groups().map((g) => [g.id, g]))
    return this.#groupsById.get(id)
  }

  /**
   * Conflicting pairs of current memories (conflicts.ts), at most `limit`, in a fixed order:
   * contradictions first, then by memory ids. Past the limit, the pairs of the first groups (by slot
   * and value, then predecessor); `groups()` holds every member of every conflict.
   */
  conflicts(limit = Infinity): readonly PoolConflict[] {
    this.#ensure()
    if (!this.#pairs || this.#pairs.limit < limit) this.#pairs = { limit, found: this.#findPairs(limit) }
    // Sorted after the cut: a listing of `limit` is the same whatever longer one was cached.
    return this.#pairs.found.slice(0, limit).sort(
      (a, b) => (a.kind === b.kind ? 0 : a.kind === 'contradiction' ? -1 : 1) || cmp(a.memories[0], b.memories[0]) || cmp(a.memories[1], b.memories[1]),
    )
  }

  /** Up to `limit` conflicting pairs, in a fixed order: contradicting slots by key, their values by text, then predecessors. */
  #findPairs(limit: number): PoolConflict[] {
    const out = new Map<string, PoolConflict>()
    let budget = MAX_COMPARISONS
    const put = (kind: PoolConflict['kind'], a: string, b: string): void => {
      const key = a < b ? `${a} ${b}` : `${b} ${a}`
      if (!out.has(key)) out.set(key, conflictOf(kind, this.#current.get(a)!, this.#current.get(b)!, this.#s))
    }
    pairs: {
      for (const key of [...this.#openSlots].sort()) {
        const slot = this.#slots.get(key)!
        if (!this.#witness(slot)) continue
        const values = [...slot.values.keys()].sort().map((k) => slot.values.get(k)!)
        for (let i = 0; i < values.length; i++) {
          for (let j = i + 1; j < values.length; j++) {
            if (--budget < 0) break pairs
            if (!this.#contradict(values[i]!, values[j]!)) continue
            for (const a of idsIn(values[i]!)) for (const b of idsIn(values[j]!)) {
              if (out.size >= limit) break pairs
              put('contradiction', a, b)
            }
          }
        }
      }
      for (const pred of [...this.#openPredecessors].sort()) {
        const ids = [...this.#byPredecessor.get(pred)!].sort()
        for (let i = 0; i < ids.length; i++) {
          for (let j = i + 1; j < ids.length; j++) {
            if (out.size >= limit || --budget < 0) break pairs
            const a = this.#current.get(ids[i]!)!, b = this.#current.get(ids[j]!)!
            // A pair in one slot that also competes for one predecessor is flagged once, as a contradiction.
            if (!this.#contradicting(a, b)) put('competing-update', a.id, b.id)
          }
        }
      }
    }
    return [...out.values()]
  }

  /** Whether two current memories contradict (same slot and a single-valued predicate, values not near-duplicates). */
  #contradicting(a: LiveMemory, b: LiveMemory): boolean {
    const key = slotKey(a.payload)
    if (key !== slotKey(b.payload)) return false
    const slot = this.#slots.get(key)!
    if (slot.multi) return false
    const va = slot.values.get(text(a.payload.object))!, vb = slot.values.get(text(b.payload.object))!
    return va !== vb && this.#contradict(va, vb)
  }

  /** Two different values of one slot contradict unless near-duplicates (similarity.ts `contradicts`). */
  #contradict(a: Value, b: Value): boolean {
    return jaccard((a.words ??= words(a.text)), (b.words ??= words(b.text))) < this.#s.policies.similarity
  }

  /**
   * Whether two values of an open slot contradict: found once and kept while its witnesses stay. A
   * slot known to hold none compares only the values added since with the others (a value each
   * write, not the slot's pairs). Looking again from nothing stops at MAX_COMPARISONS and then
   * flags the slot (a slot of thousands of near-duplicate values, where one contradicting value
   * left): a conflict shown too readily is a person's click, one hidden is not seen.
   */
  #witness(slot: Slot): boolean {
    if (slot.witness === null && slot.unchecked && slot.unchecked.size > 0) {
      let found: readonly [string, string] | null = null
      find: for (const key of slot.unchecked) {
        const v = slot.values.get(key)!
        for (const [other, w] of slot.values) {
          if (other !== key && this.#contradict(v, w)) {
            found = [key, other]
            break find
          }
        }
      }
      slot.unchecked = null
      slot.witness = found
    }
    if (slot.witness !== undefined) return slot.witness !== null || slot.forced
    slot.witness = null
    slot.forced = false
    slot.unchecked = null
    let budget = MAX_COMPARISONS
    const values = [...slot.values]
    find: for (let i = 0; i < values.length; i++) {
      for (let j = i + 1; j < values.length; j++) {
        if (--budget < 0) {
          slot.forced = true
          break find
        }
        if (this.#contradict(values[i]![1], values[j]![1])) {
          slot.witness = [values[i]![0], values[j]![0]]
          break find
        }
      }
    }
    return slot.witness !== null || slot.forced
  }

  #members(ids: string[]): LiveMemory[] {
    return ids.sort().map((id) => this.#current.get(id)!)
  }

  #changed(): void {
    this.#groups = null
    this.#groupsById = null
    this.#pairs = null
  }

  #earliest(ids: Iterable<string>): LiveMemory | undefined {
    let best: LiveMemory | undefined
    for (const id of ids) {
      const m = this.#current.get(id)!
      if (!best || compareRecords(m.record, best.record) < 0) best = m
    }
    return best
  }

  /** The topics, slots and predecessors, built on first use. */
  #ensure(): this {
    if (!this.#built) {
      this.#built = true
      for (const m of this.#current.values()) this.#add(m)
    }
    return this
  }

  /** The duplicate keys, built on first use (or ahead, `buildDuplicates`). */
  #ensureDuplicates(): this {
    if (!this.#dupsBuilt) {
      this.#dupsBuilt = true
      for (const m of this.#current.values()) this.#addDuplicate(m)
    }
    return this
  }

  #addDuplicate(m: LiveMemory): void {
    if (!m.payload.ephemeral) addOne(this.#byDuplicate, duplicateKey(m.payload), m.id)
  }

  #add(m: LiveMemory): void {
    const p = m.payload
    if (!p.ephemeral) addOne(this.#byTopic, topicKey(m), m.id)
    const key = slotKey(p)
    let slot = this.#slots.get(key)
    if (!slot) this.#slots.set(key, (slot = { values: new Map(), multi: this.#multi.has(norm(p.predicate)), witness: null, unchecked: null, forced: false, sorted: null }))
    const value = text(p.object)
    let v = slot.values.get(value)
    if (!v) {
      slot.values.set(value, (v = { ids: m.id, text: value, words: null }))
      // A new value may contradict where none did (compared when asked); a known contradiction stays.
      // A slot's only value is not noted: the next value, noted, is compared with it (as `leave` leaves a slot of one).
      if (slot.witness === null && slot.values.size > 1) (slot.unchecked ??= new Set()).add(value)
      if (slot.values.size > 1 && !slot.multi) this.#openSlots.add(key)
    } else if (typeof v.ids === 'object') v.ids.add(m.id)
    else if (v.ids !== m.id) v.ids = new Set([v.ids, m.id])
    slot.sorted = null
    if (this.#openSlots.has(key)) this.#changed()
    for (const pred of p.supersedes) {
      const successors = setOf(this.#byPredecessor, pred)
      successors.add(m.id)
      if (successors.size > 1) {
        this.#openPredecessors.add(pred)
        this.#changed()
      }
    }
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
