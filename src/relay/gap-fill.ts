import * as encoding from 'lib0/encoding'
import * as Y from 'yjs'

/**
 * Gaps in a writer's clock that no replica may ever fill (issue 26, case 10).
 *
 * Yjs integrates a writer's structs in clock order only: when a damaged frame of a relay's log is
 * skipped, every later update of that writer stays pending, in the relay and in every client it
 * serves, until the missing clocks arrive. When the writer's device is gone they never do, and all
 * the later frames are lost to every reader (201 of 400 keys, every run).
 *
 * So the relay fills a gap with a GC struct of the missing length (what Yjs itself leaves where
 * content was deleted): the later structs integrate, and whatever the lost update held reads as
 * deleted. Yjs then treats those clocks as known: a replica that still holds the real update cannot
 * hand it over through Yjs any more (it is skipped as already there). The relay keeps the way back
 * open instead: it remembers the filled ranges (`lost.json` beside the log, so a restart or a
 * compaction does not forget them), asks every writer for them by announcing its state vector
 * lowered to the first lost clock ({@link LostRanges.stateVector}), and when a writer's update
 * carries an item of a lost range that sets a map key the document no longer has, the relay sets
 * that key again with the same value, as a change of its own that every replica receives
 * ({@link LostRanges.heal}). The trade-off: a lost item that was not a map entry (text, array
 * content) stays lost, and a healed entry is a new struct, not the original one.
 */

/** Clocks `[clock, clock + len)` of one writer, lost from the log. */
export interface LostRange {
  readonly client: number
  readonly clock: number
  readonly len: number
}

/** A V1 update of one GC struct covering `range`, with an empty delete set. */
export function gcUpdate(range: LostRange): Uint8Array {
  const e = encoding.createEncoder()
  encoding.writeVarUint(e, 1) // clients
  encoding.writeVarUint(e, 1) // structs
  encoding.writeVarUint(e, range.client)
  encoding.writeVarUint(e, range.clock)
  encoding.writeUint8(e, 0) // GC
  encoding.writeVarUint(e, range.len)
  encoding.writeVarUint(e, 0) // delete set: no clients
  return encoding.toUint8Array(e)
}

/** The lowest clock of each client among the structs Yjs holds pending, and the highest clock they reference of each client. */
function pendingClocks(doc: Y.Doc): { first: Map<number, number>; needed: Map<number, number> } {
  const first = new Map<number, number>()
  const needed = new Map<number, number>()
  const pending = doc.store.pendingStructs
  if (!pending) return { first, needed }
  const need = (id: Y.ID | null): void => {
    if (id && (needed.get(id.client) ?? -1) < id.clock) needed.set(id.client, id.clock)
  }
  for (const s of Y.decodeUpdateV2(pending.update).structs) {
    if (s instanceof Y.Skip) continue
    const f = first.get(s.id.client)
    if (f === undefined || s.id.clock < f) first.set(s.id.client, s.id.clock)
    if (s instanceof Y.Item) {
      need(s.origin)
      need(s.rightOrigin)
      if (s.parent !== null && typeof s.parent === 'object' && 'client' in s.parent) need(s.parent as Y.ID)
    }
  }
  return { first, needed }
}

/**
 * Fills every gap that holds structs pending in `doc` with GC structs, until nothing pending waits
 * for a missing clock (each round fills what the pending structs show; a filled range can uncover
 * the next). Returns the ranges filled. Cost: a decode of the pending content per round.
 */
export function fillGaps(doc: Y.Doc, origin: unknown): LostRange[] {
  const filled: LostRange[] = []
  for (let round = 0; round < 1_000 && doc.store.pendingStructs; round++) {
    const { first, needed } = pendingClocks(doc)
    const ranges: LostRange[] = []
    for (const client of new Set([...first.keys(), ...needed.keys()])) {
      const state = Y.getState(doc.store, client)
      const end = Math.max(first.get(client) ?? 0, (needed.get(client) ?? -1) + 1)
      if (end > state) ranges.push({ client, clock: state, len: end - state })
    }
    if (ranges.length === 0) break
    for (const r of ranges) Y.applyUpdate(doc, gcUpdate(r), origin)
    filled.push(...ranges)
  }
  return filled
}

/** The filled ranges of one room that no replica has brought back yet. */
export class LostRanges {
  #ranges: LostRange[]

  constructor(ranges: readonly LostRange[] = []) {
    this.#ranges = [...ranges]
  }

  get size(): number {
    return this.#ranges.length
  }

  list(): LostRange[] {
    return [...this.#ranges]
  }

  /** Adds ranges (a range already held is not added twice: a load that filled the same gap again). */
  add(ranges: readonly LostRange[]): void {
    for (const r of ranges) {
      if (!this.#ranges.some((h) => h.client === r.client && h.clock === r.clock && h.len === r.len)) this.#ranges.push(r)
    }
  }

  /**
   * The state vector to announce: the document's, lowered to the first lost clock of each writer
   * with a lost range, so that a replica holding those clocks sends them in its answer.
   */
  stateVector(doc: Y.Doc): Uint8Array {
    const sv = Y.decodeStateVector(Y.encodeStateVector(doc))
    for (const r of this.#ranges) sv.set(r.client, Math.min(sv.get(r.client) ?? 0, r.clock))
    const e = encoding.createEncoder()
    encoding.writeVarUint(e, sv.size)
    for (const [client, clock] of sv) {
      encoding.writeVarUint(e, client)
      encoding.writeVarUint(e, clock)
    }
    return encoding.toUint8Array(e)
  }

  /**
   * Takes from a writer's update the items of lost ranges, sets again in `doc` (as the relay's own
   * change, `origin`) each map entry the document lost with them and has no value for now, and
   * forgets the ranges the update covered. Returns the keys set again.
   */
  heal(doc: Y.Doc, decoded: ReturnType<typeof Y.decodeUpdate>, origin: unknown): string[] {
    const covered: Array<{ client: number; from: number; to: number }> = []
    const entries: Array<{ parent: string; key: string; value: unknown; id: Y.ID }> = []
    for (const s of decoded.structs) {
      // A GC proves nothing: it may be this relay's own filler, echoed back by a replica it served.
      if (!(s instanceof Y.Item)) continue
      const lost = this.#ranges.find((r) => r.client === s.id.client && s.id.clock < r.clock + r.len && s.id.clock + s.length > r.clock)
      if (!lost) continue
      covered.push({ client: s.id.client, from: s.id.clock, to: s.id.clock + s.length })
      if (!(s.content instanceof Y.ContentAny)) continue
      const where = entryOf(doc, s)
      if (!where) continue
      const values = s.content.getContent()
      entries.push({ ...where, value: values[values.length - 1], id: s.id })
    }
    if (covered.length === 0) return []
    const healed: string[] = []
    doc.transact(() => {
      for (const e of entries) {
        // Deleted by the writer since (a forgotten memory), or a value the document has now: not brought back.
        if (Y.isDeleted(decoded.ds, e.id)) continue
        const map = doc.getMap(e.parent)
        if (map.has(e.key)) continue
        map.set(e.key, e.value)
        healed.push(e.key)
      }
    }, origin)
    this.#ranges = this.#ranges.flatMap((r) => subtract(r, covered.filter((c) => c.client === r.client)))
    return healed
  }

  toJSON(): LostRange[] {
    return this.#ranges
  }
}

/** The root map and key an item sets: its own when it has them, else those of its origin (a map value's origin is the key's previous value). */
function entryOf(doc: Y.Doc, item: Y.Item): { parent: string; key: string } | null {
  if (typeof item.parent === 'string' && item.parentSub !== null) return { parent: item.parent, key: item.parentSub }
  if (item.parent !== null || item.origin === null) return null
  const origin = item.origin.clock < Y.getState(doc.store, item.origin.client) ? Y.getItem(doc.store, item.origin) : null
  if (!(origin instanceof Y.Item) || origin.parentSub === null) return null
  const parent = origin.parent as Y.AbstractType<unknown> | null
  const name = parent && parent._item === null ? rootName(doc, parent) : null
  return name === null ? null : { parent: name, key: origin.parentSub }
}

function rootName(doc: Y.Doc, type: Y.AbstractType<unknown>): string | null {
  for (const [name, t] of doc.share) if (t === type) return name
  return null
}

/** What is left of a range once `covered` clocks arrived. */
function subtract(r: LostRange, covered: ReadonlyArray<{ from: number; to: number }>): LostRange[] {
  let parts: LostRange[] = [r]
  for (const c of covered) {
    parts = parts.flatMap((p) => {
      const end = p.clock + p.len
      if (c.to <= p.clock || c.from >= end) return [p]
      const out: LostRange[] = []
      if (c.from > p.clock) out.push({ client: p.client, clock: p.clock, len: c.from - p.clock })
      if (c.to < end) out.push({ client: p.client, clock: c.to, len: end - c.to })
      return out
    })
  }
  return parts
}
