import { parseHlc } from '../core/clock.js'
import { isPooled } from '../core/signed-record.js'
import { forgottenBy } from '../pools/state.js'
import type { PoolRecord } from '../pools/records.js'
import { applyPlan, tellApplied } from './apply.js'
import type { Plan } from './materialize.js'
import type { PassHost } from './pass-host.js'
import { Origin } from './pool-doc.js'
import type { PoolSync } from './pool-sync.js'
import { SliceSize } from './slice.js'
import { holdsValid, passVerdicts } from './verdicts.js'

/** Keys of a catch-up's first pass, before its cost per key is measured. */
const BULK_FIRST = 1_000

/** The longest delay a timer takes (2^31 - 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * The materialize step of a pass (materialize.ts judges, this runs it): the document's changed keys
 * are judged, a bounded slice at a time; stored records whose keys vanished are healed; forgotten
 * keys leave the document; the plan goes into storage (apply.ts).
 */
export class MaterializeStep {
  readonly #host: PassHost
  /** How many changed keys a materializer pass takes (slice.ts): passes stay short during a flood. */
  readonly #slice: SliceSize
  /** The same while a pool catches up (a join): larger passes. */
  readonly #bulk: SliceSize
  /** The sizer the current pass took its slice from. */
  #sizer: SliceSize
  /** Records the current pass took to judge (the cost per key of `#slice`). */
  #taken = 0

  constructor(host: PassHost, options: { readonly passBudgetMs?: number; readonly bulkBudgetMs?: number }) {
    this.#host = host
    this.#slice = new SliceSize(options.passBudgetMs ?? 50, { growth: 2 })
    // A catch-up's first pass need not feel its way up from a handful of keys: a thousand take tens
    // of ms against a budget of a second (a 100k join spent 0.35 s on passes of 4 to 1,000 keys).
    this.#bulk = new SliceSize(options.bulkBudgetMs ?? 1000, { first: BULK_FIRST })
    this.#sizer = this.#slice
  }

  /** Judges and applies one slice of the pool's changes; true when a bounded slice left changes for the next pass. */
  async run(ps: PoolSync): Promise<boolean> {
    ps.wantMaterialize = false
    const started = performance.now()
    this.#taken = 0
    let { plan, slice } = await this.#plan(ps)

    // Heal: a stored record whose key vanished (or holds something else) without a tombstone goes back in.
    // The keys this pass took (a deferred key is looked at in its own pass), or every stored one on open.
    let candidates = ps.fullCheck ? [...ps.stored] : [...slice].filter((k) => ps.stored.has(k))
    ps.fullCheck = false
    while (candidates.length) {
      // Verdicts on the values the candidates' keys hold now, decoded once: the verdict is kept on
      // the very object verified (a second decode had none, so every candidate was read back from
      // storage and planned again). A value that changes meanwhile is healed.
      const values = candidates.map((id) => ps.pdoc.map.get(id))
      const decoded = candidates.map((id, i) => ps.codec(id, values[i]))
      await this.#host.sigs.verify(decoded.flatMap((d) => (d.ok ? [d.record] : [])))
      // A key that is absent, though a tombstone names it, is healed unless that tombstone may forget
      // the record held here: whoever removed the key with the tombstone proves nothing (issue 13).
      const heal = candidates.filter((id, i) => ps.pdoc.map.get(id) !== values[i] || !holdsValid(this.#host.sigs, decoded[i]!))
      candidates = []
      if (!heal.length) break
      const got = (await this.#host.log.records(heal)) as Array<PoolRecord | undefined>
      const s = ps.planner.structure
      // Never a stored record whose stamp the codec refuses (kept by a version before it checked the range): it leaves `records`.
      const records = got.filter((r): r is PoolRecord => isPooled(r) && r.pool === ps.pool && parseHlc(r.hlc) !== null &&
        !(plan.forgotten.has(r.id) && s !== null && forgottenBy(s, r)))
      if (!records.length) break
      const healed = ps.pdoc.write(records, [], Origin.HEAL)
      ps.noteSent(healed)
      // The healed keys are judged in this plan, whatever its slice: one left deferred would keep
      // the value it was judged with (absent), and a tombstone taken without it would forget the
      // record again, out of the document and storage, on every replica alike (hostile-forget
      // under load, test/sync/sync-heal-slice.test.ts).
      const again = await this.#plan(ps, healed)
      plan = again.plan
      // This plan also took the keys that changed while the pass awaited (a peer's removal of a
      // stored record among them, of a key the first slice held too): they are looked at for a heal
      // as the first slice's were. Left out, such a key was judged absent, no longer pending, and
      // never put back: the replica kept the record in storage and no peer received it again
      // (pools-incremental seeds 75, 127 and 454).
      candidates = [...again.slice].filter((k) => ps.stored.has(k))
      slice = new Set([...slice, ...again.slice])
    }

    // Forgotten memories leave the document (the tombstone stays).
    const forget = [...plan.forgotten].filter((id) => ps.pdoc.map.has(id))
    if (forget.length) ps.pdoc.write([], forget, Origin.FORGET)

    await applyPlan(this.#host, ps, plan)
    await tellApplied(this.#host, ps)
    // Judged keys are no longer incoming (a key changed again meanwhile is pending again).
    for (const key of slice) if (!ps.isPending(key)) ps.touched.delete(key)
    this.#sizer.note(this.#taken, performance.now() - started)
    this.#wakeForHeld(ps)
    if (!ps.pending) return false
    // A bounded slice left changes for the next pass.
    ps.wantMaterialize = true
    return true
  }

  /** The materializer's plan for the document as it stands, judging only what changed where it can (planner.ts); and the keys it took (`first` among them). */
  async #plan(ps: PoolSync, first: readonly string[] = []): Promise<{ plan: Plan; slice: ReadonlySet<string> }> {
    ps.pruneDecoded()
    // Held records whose time came are judged in this pass, as new.
    ps.releaseDue()
    this.#sizer = ps.catchingUp ? this.#bulk : this.#slice
    const { slice, deferred } = ps.takeChanged(this.#sizer.next, first)
    const step = ps.planner.begin(slice, ps.pdoc.map, ps.decode, deferred)
    this.#taken += slice.size
    await passVerdicts(this.#host.sigs, ps, step.records, this.#host.trustCheckpoints)
    return { plan: step.finish(this.#known), slice }
  }

  /** The verdicts a pass judges with: the shared cache's, on the very objects `passVerdicts` checked. */
  readonly #known = (r: PoolRecord): boolean | undefined => this.#host.sigs.known(r)

  /**
   * Wakes the loop when the first record held for its stamp may be judged (docs/sync.md, "Clocks").
   * A timer that fires early (a timer's limit is about 24.8 days) just schedules the next.
   */
  #wakeForHeld(ps: PoolSync): void {
    const next = ps.nextRelease
    if (ps.timer !== null) clearTimeout(ps.timer)
    ps.timer = null
    if (next === null || this.#host.closed) return
    const delay = Math.min(Math.max(next - this.#host.log.now(), 0) + 1, MAX_TIMER_MS)
    ps.timer = setTimeout(() => {
      ps.timer = null
      ps.wantMaterialize = true
      this.#host.kick()
    }, delay)
    // A held record must not keep a process alive (Node): it is only waited for while the Memory runs.
    ;(ps.timer as { unref?: () => void }).unref?.()
  }
}
