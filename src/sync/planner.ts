import { Verdict } from '../pools/authority.js'
import { PoolKind, compareRecords, type PoolRecord, type TombstoneBody } from '../pools/records.js'
import { forgetInPlace } from '../pools/state.js'
import type { Structure } from '../pools/structure.js'
import type { PoolId } from '../pools/types.js'
import { isCheckpointKind } from './checkpoint.js'
import { decodeRecord, type Decoded } from './codec.js'
import { isContentKind, refuseContent } from './content.js'
import { STRUCTURAL_KINDS, compareQuarantined, judgePool, judgeSigned, refusal, verifiedBy, type Plan, type Verdicts } from './materialize.js'
import { QuarantineReason, type QuarantinedRecord } from './quarantine.js'

const NONE: ReadonlySet<string> = new Set()

/** Refusals of a record whose signature verified, in this pool (the derivation holds such records, and judges them). */
const SIGNED_REFUSALS: ReadonlySet<string> = new Set([
  QuarantineReason.FORGED_CREATE, QuarantineReason.WRONG_TENANT, QuarantineReason.NOT_OWNER, QuarantineReason.NOT_MEMBER, QuarantineReason.READ_ONLY,
])

/** Each key once: a Set as it is (a pass's slice is one; copying it cost a Set per pass of up to 50k keys). */
const distinct = (keys: Iterable<string>): Iterable<string> => (keys instanceof Set ? keys : new Set(keys))

/** What the planner reads of a pool's Y.Map. */
export interface RecordMap {
  has(key: string): boolean
  get(key: string): unknown
  entries(): IterableIterator<[string, unknown]>
}

/**
 * What changed in the plan since the caller last asked (`Planner.takeDelta`): the records that
 * entered `accepted`, the ids that left it, and the quarantine entries that appeared, changed or
 * went, each as the plan now has it. Lets a caller keep storage in line in O(change) per pass.
 */
export interface PlanDelta {
  readonly accepted: readonly PoolRecord[]
  readonly unaccepted: readonly string[]
  readonly quarantined: readonly QuarantinedRecord[]
  /** Keys that no longer have a quarantine entry. */
  readonly released: readonly string[]
  /** Ids a tombstone judged in the pass forgets (the plan's `forgotten` only grows between full passes). */
  readonly forgotten: readonly string[]
}

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
  /**
   * The plan by id and by key. Sorted only when a plan's lists are read (a full pass, tests): kept
   * sorted on every insertion they cost O(n) each, which made a join of 100k quadratic.
   */
  #acceptedById = new Map<string, PoolRecord>()
  #quarantinedByKey = new Map<string, QuarantinedRecord>()
  /** Ids and keys whose place may have changed since the last `takeDelta`, and ids newly forgotten; null after a full pass (everything may have). */
  #touched: { ids: Set<string>; keys: Set<string>; forgotten: string[] } | null = null
  /** Bumped by every finished pass: a plan's lists are read in the pass that made them. */
  #version = 0
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
    const changes = unfinished ? null : this.#additions(changed, map, decode)
    this.#unfinished = true
    if (changes === null) {
      const entries = unfinished || this.#values === null ? this.#view(map, deferred) : this.#judgedView(changed, map, deferred)
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
   * The document as this planner takes it: its entries, except that a `deferred` key (changed, and
   * left for a later pass by a bounded slice, materialize-step.ts) keeps the value it had when last judged, or
   * stays out if it was never judged. So a full pass costs what was taken, not what is pending.
   */
  #view(map: RecordMap, deferred: ReadonlySet<string>): Array<[string, unknown]> {
    if (deferred.size === 0) return [...map.entries()]
    const judged = this.#values
    const out: Array<[string, unknown]> = []
    for (const [k, v] of map.entries()) {
      if (!deferred.has(k)) out.push([k, v])
      else if (judged?.has(k)) out.push([k, judged.get(k)])
    }
    // A deferred removal: the key is judged as it was until its pass comes.
    for (const k of deferred) if (!map.has(k) && judged?.has(k)) out.push([k, judged.get(k)])
    return out
  }

  /**
   * `#view` without reading the whole document, once a pass has finished: every key the document
   * holds was then judged (`#values`) or changed since (the observer saw it: it is in `changed`,
   * or still `deferred`). A join's first pass used to walk 100k entries to keep the thousand it took.
   */
  #judgedView(changed: Iterable<string>, map: RecordMap, deferred: ReadonlySet<string>): Array<[string, unknown]> {
    const judged = this.#values!
    const out: Array<[string, unknown]> = []
    for (const [k, v] of judged) {
      if (deferred.has(k)) out.push([k, v])
      else if (map.has(k)) out.push([k, map.get(k)])
    }
    for (const k of distinct(changed)) if (!judged.has(k) && !deferred.has(k) && map.has(k)) out.push([k, map.get(k)])
    return out
  }

  /**
   * The new values among `changed` and the forgotten keys that left the document, or null when the
   * pass must re-judge everything.
   */
  #additions(
    changed: Iterable<string>, map: RecordMap, decode: (key: string, value: unknown) => Decoded,
  ): { added: Array<{ key: string; value: unknown; d: Decoded }>; removed: string[] } | null {
    const values = this.#values
    if (values === null) return null
    const added: Array<{ key: string; value: unknown; d: Decoded }> = []
    const removed: string[] = []
    let named: Set<string> | null = null
    for (const key of distinct(changed)) {
      const present = map.has(key)
      if (values.has(key)) {
        if (present && map.get(key) === values.get(key)) continue
        // A forgotten memory's key leaving (this replica or a peer removing it after the tombstone)
        // changes nothing but the value judged; any other change or removal goes the full way (heal).
        if (present || !this.#forgotten.has(key) || !this.#isPoolMemory(decode(key, values.get(key)))) return null
        removed.push(key)
        continue
      }
      if (!present) continue
      const value = map.get(key)
      const d = decode(key, value)
      if (d.ok && d.record.pool === this.#pool) {
        const { kind, id } = d.record
        if ((STRUCTURAL_KINDS.has(kind) && kind !== PoolKind.TOMBSTONE) || this.#targets.has(id)) return null
        if (kind === PoolKind.TOMBSTONE) for (const t of (d.record.body as TombstoneBody).targets) (named ??= new Set()).add(t.id)
      }
      added.push({ key, value, d })
    }
    // A tombstone and a record it names in one pass: which comes first decides, as in a full pass.
    if (named && added.some(({ key }) => named.has(key))) return null
    return { added, removed }
  }

  #isPoolMemory(d: Decoded): boolean {
    return d.ok && d.record.pool === this.#pool && d.record.kind === PoolKind.MEMORY
  }

  /**
   * Keys to judge again although their values did not change: records held for a stamp ahead of
   * this replica's clock whose time came (pool-sync.ts `releaseDue`). They leave the judged values
   * and the quarantine, so the next pass that takes them judges them as new.
   */
  retry(keys: Iterable<string>): void {
    for (const key of keys) {
      this.#values?.delete(key)
      const q = this.#quarantinedByKey.get(key)
      if (q) this.#release(q)
    }
  }

  /**
   * What changed since the last call, or null when a full pass ran in between (or none was taken
   * yet): then the caller compares the whole plan with what it holds.
   */
  takeDelta(): PlanDelta | null {
    const touched = this.#touched
    this.#touched = { ids: new Set(), keys: new Set(), forgotten: [] }
    if (touched === null) return null
    const accepted: PoolRecord[] = []
    const unaccepted: string[] = []
    for (const id of touched.ids) {
      const r = this.#acceptedById.get(id)
      if (r) accepted.push(r)
      else unaccepted.push(id)
    }
    const quarantined: QuarantinedRecord[] = []
    const released: string[] = []
    for (const key of touched.keys) {
      const q = this.#quarantinedByKey.get(key)
      if (q) quarantined.push(q)
      else released.push(key)
    }
    return { accepted, unaccepted, quarantined, released, forgotten: touched.forgotten }
  }

  #accept(r: PoolRecord): void {
    this.#acceptedById.set(r.id, r)
    this.#touched?.ids.add(r.id)
  }

  #unaccept(r: PoolRecord): void {
    this.#acceptedById.delete(r.id)
    this.#touched?.ids.add(r.id)
  }

  #quarantine(q: QuarantinedRecord): void {
    this.#quarantinedByKey.set(q.key, q)
    this.#touched?.keys.add(q.key)
  }

  #release(q: QuarantinedRecord): void {
    this.#quarantinedByKey.delete(q.key)
    this.#touched?.keys.add(q.key)
  }

  #full(entries: ReadonlyArray<readonly [string, unknown]>, signatures: Verdicts, decode: (key: string, value: unknown) => Decoded): Plan {
    const judged = judgePool({ pool: this.#pool, entries, signatures, decode })
    this.#values = new Map(entries)
    this.#structure = judged.structure
    this.#targets = new Set(judged.targets)
    this.#forgotten = judged.plan.forgotten
    this.#acceptedById = new Map(judged.plan.accepted.map((r) => [r.id, r]))
    this.#quarantinedByKey = new Map(judged.plan.quarantined.map((q) => [q.key, q]))
    this.#touched = null
    const refusedContent = new Map(judged.plan.quarantined.filter((q) => q.reason === QuarantineReason.PROTOCOL).map((q) => [q.key, q]))
    this.#content = new Map(judged.content.map((r) => [r.id, { record: r, placed: refusedContent.get(r.id) ?? null }]))
    this.#unfinished = false
    return this.#plan()
  }

  #incremental(
    added: ReadonlyArray<{ key: string; value: unknown; d: Decoded }>, removed: readonly string[], signatures: Verdicts,
    decode: (key: string, value: unknown) => Decoded,
  ): Plan {
    const pool = this.#pool
    const s = this.#structure
    let content = false
    for (const key of removed) {
      // A forgotten memory is neither accepted nor refused; one whose signature failed stays refused until it leaves.
      this.#values!.delete(key)
      const q = this.#quarantinedByKey.get(key)
      if (q) this.#release(q)
    }
    const tombstones: PoolRecord<TombstoneBody>[] = []
    for (const { key, value, d } of added) {
      this.#values!.set(key, value)
      if (!d.ok) {
        this.#quarantine(refusal(pool, key, d.reason, typeof value === 'object' ? (value as object) : null, d.detail))
        continue
      }
      const r = d.record
      if (r.pool !== pool) {
        this.#quarantine(refusal(pool, r.id, QuarantineReason.WRONG_POOL, r))
        continue
      }
      if (!verifiedBy(signatures, r)) {
        this.#quarantine(refusal(pool, r.id, QuarantineReason.BAD_SIGNATURE, r))
        continue
      }
      // Named by a signed tombstone, valid or not (materialize.ts `targets`): a record arriving under such an id goes the full way.
      if (r.kind === PoolKind.TOMBSTONE) for (const t of (r.body as TombstoneBody).targets) this.#targets.add(t.id)
      // A create record takes the full way, so an unfounded pool here means: no create yet.
      if (!s) this.#quarantine(refusal(pool, r.id, QuarantineReason.UNKNOWN_POOL, r))
      else {
        const verdict = judgeSigned(s, r)
        if (verdict !== Verdict.OK) this.#quarantine(refusal(pool, r.id, verdict, r))
        else if (r.kind === PoolKind.TOMBSTONE) {
          this.#accept(r)
          tombstones.push(r as PoolRecord<TombstoneBody>)
        } else if (isContentKind(r.kind)) {
          this.#content.set(r.id, { record: r, placed: null })
          this.#accept(r)
          content = true
        } else this.#accept(r)
      }
    }
    if (content && s) this.#judgeContent(s)
    if (s) for (const t of tombstones) this.#forgetBy(s, t, decode)
    this.#unfinished = false
    return this.#plan()
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
      if (this.#acceptedById.has(present.id)) this.#unaccept(present)
      const q = this.#quarantinedByKey.get(present.id)
      if (q) this.#release(q)
    }
    if (added.length === 0) return
    this.#forgotten = new Set([...this.#forgotten, ...added].sort())
    this.#touched?.forgotten.push(...added)
  }

  /**
   * The record the derivation holds under `id`: a record of this pool, of a pools kind, whose
   * signature verified (accepted, or refused only for who wrote it); undefined otherwise.
   */
  #stateRecord(id: string, decode: (key: string, value: unknown) => Decoded): PoolRecord | undefined {
    const accepted = this.#acceptedById.get(id)
    if (accepted) return isContentKind(accepted.kind) || isCheckpointKind(accepted.kind) ? undefined : accepted
    const q = this.#quarantinedByKey.get(id)
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
      if (c.placed) this.#release(c.placed)
      else this.#unaccept(c.record)
      if (detail === undefined) {
        c.placed = null
        this.#accept(c.record)
      } else {
        c.placed = refusal(this.#pool, c.record.id, QuarantineReason.PROTOCOL, c.record, detail)
        this.#quarantine(c.placed)
      }
    }
  }

  #plan(): Plan {
    // The lists are copied only when read (a pass that stores by `takeDelta` never reads them), and
    // only in the pass that made the plan: the next pass changes them.
    const version = ++this.#version
    const current = (): void => {
      if (this.#version !== version) throw new Error('a plan of the sync planner is read after the next pass began')
    }
    const acceptedById = this.#acceptedById
    const quarantinedByKey = this.#quarantinedByKey
    let accepted: PoolRecord[] | undefined
    let quarantined: QuarantinedRecord[] | undefined
    return {
      get accepted() {
        if (!accepted) current()
        return (accepted ??= [...acceptedById.values()].sort(compareRecords))
      },
      forgotten: this.#forgotten,
      get quarantined() {
        if (!quarantined) current()
        return (quarantined ??= [...quarantinedByKey.values()].sort(compareQuarantined))
      },
    }
  }
}
