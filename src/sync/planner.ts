import { Verdict } from '../pools/authority.js'
import { PoolKind, type PoolRecord, type TombstoneBody } from '../pools/records.js'
import { forgetInPlace } from '../pools/state.js'
import type { Structure } from '../pools/structure.js'
import type { PoolId } from '../pools/types.js'
import { isCheckpointKind } from './checkpoint.js'
import { decodeRecord, type Decoded } from './codec.js'
import { isContentKind, refuseContent } from './content.js'
import { judgePool, judgeSigned, refusal, verifiedBy, type Plan, type Verdicts } from './materialize.js'
import { PlanBook, type PlanDelta } from './plan-book.js'
import { additions, documentView, judgedView, type Addition, type RecordMap } from './plan-input.js'
import { QuarantineReason, type QuarantinedRecord } from './quarantine.js'

export type { PlanDelta } from './plan-book.js'
export type { RecordMap } from './plan-input.js'

const NONE: ReadonlySet<string> = new Set()

/** Refusals of a record whose signature verified, in this pool (the derivation holds such records, and judges them). */
const SIGNED_REFUSALS: ReadonlySet<string> = new Set([
  QuarantineReason.FORGED_CREATE, QuarantineReason.WRONG_TENANT, QuarantineReason.NOT_OWNER, QuarantineReason.NOT_MEMBER, QuarantineReason.READ_ONLY,
])

/** One pass: the records whose signature verdicts it needs, then the plan. */
export interface PlanStep {
  readonly records: readonly PoolRecord[]
  /** Whether the pass re-judges the whole set (for tests and diagnostics). */
  readonly full: boolean
  finish(signatures: Verdicts): Plan
}

/**
 * The materializer run pass after pass on one pool, without judging again what did not change.
 * Its plan is always the plan `materialize` makes of the document as it stands (the planner test
 * compares the two over random histories); only the work differs. `materialize` re-derives the
 * pool and re-judges every value: at 100k records that is seconds per pass, paid again for every
 * record that arrives. Here:
 * - a pass whose changes are only new values that are not records, or records of the memory,
 *   resolve, access, rating, tombstone and content kinds, and the removal of keys the plan forgets,
 *   judges those alone: against the authority (owner, tenant, ACL), which such records cannot change
 *   (judgeRecord reads only the owner, tenant and ACL); a valid tombstone forgets its targets as
 *   the derivation would (authority.ts `tombstoneForgets` against the record each target holds, or
 *   as absent), and content records are judged by their modules' rules again as a set (they are few);
 * - anything else re-judges the whole set as `materialize` does: the first pass, a value that
 *   changed, a key that vanished unforgotten, a create, ACL, policy or key record, a record that a
 *   tombstone names arriving (or a tombstone naming a record of its own pass), a pass begun before
 *   and never finished (its step threw).
 */
export class Planner {
  readonly #pool: PoolId
  /** The values judged, by key: the document as of the last plan; null before the first. */
  #values: Map<string, unknown> | null = null
  #structure: Structure | null = null
  #targets = new Set<string>()
  #forgotten: ReadonlySet<string> = new Set()
  /** The plan by id and by key, and what moved in it since the last `takeDelta`. */
  readonly #book = new PlanBook()
  /** Content records the ACL admits -> where their modules' rules put them: null accepted, else the refusal. */
  #content = new Map<string, { readonly record: PoolRecord; placed: QuarantinedRecord | null }>()
  #unfinished = false

  constructor(pool: PoolId) {
    this.#pool = pool
  }

  /** The pool's structure as of the last plan (null before the pool is founded). */
  get structure(): Structure | null {
    return this.#structure
  }

  /**
   * Starts a pass over the keys that changed since the last one (any origin); the values are read
   * now, so the document may change while signatures are verified (those changes are the next pass's).
   */
  begin(
    changed: Iterable<string>, map: RecordMap, decode: (key: string, value: unknown) => Decoded = decodeRecord, deferred: ReadonlySet<string> = NONE,
  ): PlanStep {
    const unfinished = this.#unfinished
    const values = this.#values
    const changes = unfinished || values === null ? null : additions(changed, map, decode, { pool: this.#pool, values, targets: this.#targets, forgotten: this.#forgotten })
    this.#unfinished = true
    if (changes === null) {
      const entries = unfinished || values === null ? documentView(map, values, deferred) : judgedView(changed, map, values, deferred)
      const records = entries.map(([k, v]) => decode(k, v)).flatMap((d) => (d.ok ? [d.record] : []))
      return {
        records, full: true,
        finish: (signatures) => this.#full(entries, signatures, decode),
      }
    }
    const { added, removed } = changes
    return {
      records: added.flatMap(({ d }) => (d.ok && d.record.pool === this.#pool ? [d.record] : [])),
      full: false,
      finish: (signatures) => this.#incremental(added, removed, signatures, decode),
    }
  }

  /**
   * Keys to judge again although their values did not change: records held for a stamp ahead of
   * this replica's clock whose time came (pool-sync.ts `releaseDue`). They leave the judged values
   * and the quarantine, so the next pass that takes them judges them as new.
   */
  retry(keys: Iterable<string>): void {
    for (const key of keys) {
      this.#values?.delete(key)
      const q = this.#book.quarantined(key)
      if (q) this.#book.release(q)
    }
  }

  /**
   * What changed since the last call, or null when a full pass ran in between (or none was taken
   * yet): then the caller compares the whole plan with what it holds.
   */
  takeDelta(): PlanDelta | null {
    return this.#book.takeDelta()
  }

  #full(entries: ReadonlyArray<readonly [string, unknown]>, signatures: Verdicts, decode: (key: string, value: unknown) => Decoded): Plan {
    const judged = judgePool({ pool: this.#pool, entries, signatures, decode })
    this.#values = new Map(entries)
    this.#structure = judged.structure
    this.#targets = new Set(judged.targets)
    this.#forgotten = judged.plan.forgotten
    this.#book.reset(judged.plan.accepted, judged.plan.quarantined)
    const refusedContent = new Map(judged.plan.quarantined.filter((q) => q.reason === QuarantineReason.PROTOCOL).map((q) => [q.key, q]))
    this.#content = new Map(judged.content.map((r) => [r.id, { record: r, placed: refusedContent.get(r.id) ?? null }]))
    this.#unfinished = false
    return this.#book.plan(this.#forgotten)
  }

  #incremental(
    added: readonly Addition[], removed: readonly string[], signatures: Verdicts,
    decode: (key: string, value: unknown) => Decoded,
  ): Plan {
    const pool = this.#pool
    const s = this.#structure
    let content = false
    for (const key of removed) {
      // A forgotten memory is neither accepted nor refused; one whose signature failed stays refused until it leaves.
      this.#values!.delete(key)
      const q = this.#book.quarantined(key)
      if (q) this.#book.release(q)
    }
    const tombstones: PoolRecord<TombstoneBody>[] = []
    for (const { key, value, d } of added) {
      this.#values!.set(key, value)
      if (!d.ok) {
        this.#book.quarantine(refusal(pool, key, d.reason, typeof value === 'object' ? (value as object) : null, d.detail))
        continue
      }
      const r = d.record
      if (r.pool !== pool) {
        this.#book.quarantine(refusal(pool, r.id, QuarantineReason.WRONG_POOL, r))
        continue
      }
      if (!verifiedBy(signatures, r)) {
        this.#book.quarantine(refusal(pool, r.id, QuarantineReason.BAD_SIGNATURE, r))
        continue
      }
      // Named by a signed tombstone, valid or not (materialize.ts `targets`): a record arriving under such an id goes the full way.
      if (r.kind === PoolKind.TOMBSTONE) for (const t of (r.body as TombstoneBody).targets) this.#targets.add(t.id)
      // A create record takes the full way, so an unfounded pool here means: no create yet.
      if (!s) this.#book.quarantine(refusal(pool, r.id, QuarantineReason.UNKNOWN_POOL, r))
      else {
        const verdict = judgeSigned(s, r)
        if (verdict !== Verdict.OK) this.#book.quarantine(refusal(pool, r.id, verdict, r))
        else if (r.kind === PoolKind.TOMBSTONE) {
          this.#book.accept(r)
          tombstones.push(r as PoolRecord<TombstoneBody>)
        } else if (isContentKind(r.kind)) {
          this.#content.set(r.id, { record: r, placed: null })
          this.#book.accept(r)
          content = true
        } else this.#book.accept(r)
      }
    }
    if (content && s) this.#judgeContent(s)
    if (s) for (const t of tombstones) this.#forgetBy(s, t, decode)
    this.#unfinished = false
    return this.#book.plan(this.#forgotten)
  }

  /**
   * A valid tombstone judged in an incremental pass: what `derive` (pools/state.ts) and
   * `judgePool` make of it, on the planner's structure. A target is forgotten when the set holds
   * no pool record under its id (a record whose signature failed, or another module's, counts as
   * absent), or holds a memory the tombstone may forget (`tombstoneForgets`); a forgotten memory
   * leaves the plan, accepted or refused, whoever wrote it.
   */
  #forgetBy(s: Structure, t: PoolRecord<TombstoneBody>, decode: (key: string, value: unknown) => Decoded): void {
    const added: string[] = []
    for (const { target, present } of forgetInPlace(s, t, (id) => this.#stateRecord(id, decode))) {
      if (this.#forgotten.has(target.id)) continue
      added.push(target.id)
      if (!present) continue
      if (this.#book.accepted(present.id)) this.#book.unaccept(present)
      const q = this.#book.quarantined(present.id)
      if (q) this.#book.release(q)
    }
    if (added.length === 0) return
    this.#forgotten = new Set([...this.#forgotten, ...added].sort())
    this.#book.forgot(added)
  }

  /**
   * The record the derivation holds under `id`: a record of this pool, of a pools kind, whose
   * signature verified (accepted, or refused only for who wrote it); undefined otherwise.
   */
  #stateRecord(id: string, decode: (key: string, value: unknown) => Decoded): PoolRecord | undefined {
    const accepted = this.#book.accepted(id)
    if (accepted) return isContentKind(accepted.kind) || isCheckpointKind(accepted.kind) ? undefined : accepted
    const q = this.#book.quarantined(id)
    if (!q || !SIGNED_REFUSALS.has(q.reason) || !this.#values?.has(id)) return undefined
    const d = decode(id, this.#values.get(id))
    return d.ok && !isContentKind(d.record.kind) && !isCheckpointKind(d.record.kind) ? d.record : undefined
  }

  /** The content modules' rules over the admitted content records as a set; moves the records whose placement changed. */
  #judgeContent(s: Structure): void {
    const refused = refuseContent(s, [...this.#content.values()].map((c) => c.record))
    for (const c of this.#content.values()) {
      const detail = refused.get(c.record.id)
      if ((c.placed?.detail ?? undefined) === detail) continue
      if (c.placed) this.#book.release(c.placed)
      else this.#book.unaccept(c.record)
      if (detail === undefined) {
        c.placed = null
        this.#book.accept(c.record)
      } else {
        c.placed = refusal(this.#pool, c.record.id, QuarantineReason.PROTOCOL, c.record, detail)
        this.#book.quarantine(c.placed)
      }
    }
  }
}
