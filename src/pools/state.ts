import { decodeHlc } from '../core/clock.js'
import { lowerBound } from '../core/lower-bound.js'
import { Acl } from './acl.js'
import { Verdict, foundsPool, isWellFormed, judgeRecord, tombstoneForgets, type Authority } from './authority.js'
import { DEFAULT_POLICIES } from './input.js'
import {
  PoolKind, compareRecords,
  type AccessBody, type AclBody, type CreateBody, type KeyBody, type MemoryBody, type MemoryPayload, type PolicyBody,
  type PoolRecord, type RatingBody, type ResolveBody, type TombstoneBody,
} from './records.js'
import type { LiveMemory, Structure, ValidMemory } from './structure.js'
import type { PoolId } from './types.js'
import { ViewState, type View } from './view.js'

/**
 * The materialized state of every pool: a pure function of the record set (plus the payloads this
 * identity could decrypt), independent of the order records arrived in. Nothing here is stored;
 * all of it is re-derived from records, which is what lets a replica heal from any record set
 * (DESIGN.md "The one idea").
 *
 * Validity rules the materializer enforces (a CRDT cannot); who may author what is authority.ts,
 * which the sync layer's materializer (src/sync/) applies to a Y.Doc's records as well:
 * - a pool exists once its `pool-create` record is known and its id is `derivePoolId(author, nonce,
 *   tenant)`: only the owner can found it; records of another tenant are ignored;
 * - `pool-acl`, `pool-policy`, `pool-key` count only when the owner signed them;
 * - `pool-memory`, `pool-resolve` count only when their author could write the pool at the record's
 *   timestamp; `pool-access`, `pool-rating` when it could read;
 * - a valid `pool-tombstone` (a writer's, or a reader's consuming one) forgets a memory only if its
 *   author may forget that memory (authority.ts `mayForget`: the memory's author, the owner, a
 *   writer under `forgetBy: 'writers'`, or a condition every replica can check: EPHEMERAL, expired);
 * - a memory that a valid tombstone covers is dead even if its record arrives later: the replica
 *   deletes the record again (heals) instead of showing it.
 * - a record whose body does not have its kind's shape is ignored (authority.ts `isWellFormed`).
 * Signatures are checked before records reach this class (see replica.ts).
 */

/**
 * One pool's records, plus what `derive` would otherwise recompute from all of them on every change:
 * each record's well-formedness, checked once when it arrives; the well-formed records bucketed by
 * kind, kept in record order (appended in order as records usually arrive, sorted on the next
 * derivation otherwise); each record's verdict against the pool's authority, kept until a create or
 * ACL record (the authority's sources) comes or goes; the ValidMemory objects, reused while their
 * payload is the same. The derivation is the same function of the record set; only the work differs.
 */
class PoolRecords {
  readonly records = new Map<string, PoolRecord>()
  readonly payloads = new Map<string, MemoryPayload>()
  readonly byKind = new Map<string, { readonly list: PoolRecord[]; sorted: boolean }>()
  readonly verdicts = new Map<string, Verdict>()
  readonly memories = new Map<string, ValidMemory>()
  /** Ids of memory records with a sealed body (whether or not a payload was opened since). */
  readonly sealed = new Set<string>()
  /** The derivation of the current record set; undefined when it must be derived again. */
  derived: Derived | null | undefined
  /** A derivation was made before (the first one's views begin an `opening` lineage). */
  derivedBefore = false

  add(record: PoolRecord): void {
    this.records.set(record.id, record)
    if (record.kind === PoolKind.MEMORY && typeof record.body === 'object' && record.body !== null && 'sealed' in record.body) this.sealed.add(record.id)
    if (AUTHORITY_KINDS.has(record.kind)) this.verdicts.clear()
    // A signature proves authorship, not sanity: a malformed body is ignored, never dereferenced.
    if (!isWellFormed(record)) return
    let bucket = this.byKind.get(record.kind)
    if (!bucket) this.byKind.set(record.kind, (bucket = { list: [], sorted: true }))
    const last = bucket.list.at(-1)
    if (last && compareRecords(last, record) > 0) bucket.sorted = false
    bucket.list.push(record)
  }

  delete(id: string): void {
    const record = this.records.get(id)
    if (!record) return
    this.records.delete(id)
    this.payloads.delete(id)
    this.memories.delete(id)
    this.sealed.delete(id)
    this.verdicts.delete(id)
    if (AUTHORITY_KINDS.has(record.kind)) this.verdicts.clear()
    const bucket = this.byKind.get(record.kind)
    if (!bucket) return
    // In record order (as it mostly is) the record is found by halving: indexOf walked every memory of the pool per hard delete.
    const i = bucket.sorted ? sortedIndexOf(bucket.list, record) : bucket.list.indexOf(record)
    if (i >= 0) bucket.list.splice(i, 1)
  }

  /** The well-formed records of a kind, in record order. The caller must not change the list. */
  ofKind(kind: string): readonly PoolRecord[] {
    const bucket = this.byKind.get(kind)
    if (!bucket) return []
    if (!bucket.sorted) {
      bucket.list.sort(compareRecords)
      bucket.sorted = true
    }
    return bucket.list
  }

  verdict(auth: Authority, r: PoolRecord): Verdict {
    let v = this.verdicts.get(r.id)
    if (v === undefined) this.verdicts.set(r.id, (v = judgeRecord(auth, r)))
    return v
  }
}

/** Where `record` sits in `list`, sorted in record order (ids are unique, so one place compares equal), or -1. */
function sortedIndexOf(list: readonly PoolRecord[], record: PoolRecord): number {
  const at = lowerBound(list, record, compareRecords)
  return list[at] === record ? at : list.indexOf(record)
}

/** The kinds the pool's authority (owner, tenant, ACL) is derived from: verdicts of the others depend on them. */
const AUTHORITY_KINDS: ReadonlySet<string> = new Set([PoolKind.CREATE, PoolKind.ACL])

const wall = (r: PoolRecord): number => decodeHlc(r.hlc).wall

/** A structure whose maps the patches below keep up to date. */
interface Mutable {
  sealed: number
  readonly memories: Map<string, ValidMemory>
  readonly dead: Set<string>
  readonly forgotten: Map<string, readonly string[]>
  readonly access: Map<string, { count: number; last: number }>
  readonly ratings: Map<string, number>
}

/**
 * A pool's derivation and what patching it in place needs: the authority records are judged
 * against, every id something refers to (a supersession link of a memory or of a forgotten one, a
 * resolution, a tombstone), each member's latest rating of each memory, and the view last built.
 */
interface Derived {
  readonly s: Structure & Mutable
  readonly auth: Authority
  readonly referenced: Set<string>
  readonly ratingBy: Map<string, Map<string, PoolRecord<RatingBody>>>
  view?: ViewState | undefined
  /**
   * The pool's first derivation in this process (the records an open read), not changed before its
   * first view: that view begins an `opening` lineage (view.ts), whose changes are all noted.
   */
  first?: boolean
  /** The view must be built again from the structure (a tombstone patched it); the old one hands over its index. */
  viewStale?: boolean
}

/**
 * The materialized state of every pool. A record that changes who may do what (create, ACL,
 * policy, key) or how conflicts were settled (resolve) makes the pool derive again from all its
 * records; a memory, access, rating or tombstone record, the bulk of what a pool receives, is
 * patched into the derivation in place (`patch`), which is what keeps a write or a forget in a
 * pool of 100k memories as cheap as one in a pool of ten. A tombstone is patched into the view as
 * well (view.ts `forget`); where it cannot be, the view is built again from the patched structure,
 * keeping its index of current memories.
 */
export class PoolState {
  readonly #pools = new Map<string, PoolRecords>()
  readonly #where = new Map<string, string>()

  clear(): void {
    this.#pools.clear()
    this.#where.clear()
  }

  has(id: string): boolean {
    return this.#where.has(id)
  }

  poolOf(id: string): PoolId | undefined {
    return this.#where.get(id) as PoolId | undefined
  }

  poolIds(): PoolId[] {
    return [...this.#pools.keys()] as PoolId[]
  }

  record(id: string): PoolRecord | undefined {
    const pool = this.#where.get(id)
    return pool === undefined ? undefined : this.#pools.get(pool)?.records.get(id)
  }

  /** Adds a record (idempotent); `payload` is the plaintext of a memory record when known. */
  apply(record: PoolRecord, payload: MemoryPayload | null = null): void {
    let p = this.#pools.get(record.pool)
    if (!p) this.#pools.set(record.pool, (p = new PoolRecords()))
    if (!p.records.has(record.id)) {
      p.add(record)
      this.#where.set(record.id, record.pool)
      if (payload && !p.payloads.has(record.id)) p.payloads.set(record.id, payload)
      if (p.derived && !patch(p, p.derived, record)) p.derived = undefined
      else if (p.derived === null) p.derived = undefined
      // Changed before any view of it: what changed is in no view's lineage (see `first`).
      else if (p.derived && !p.derived.view) p.derived.first = false
      return
    }
    if (payload) this.setPayload(record.id, payload)
  }

  setPayload(id: string, payload: MemoryPayload): void {
    const p = this.#pools.get(this.#where.get(id) ?? '')
    if (p && !p.payloads.has(id)) {
      p.payloads.set(id, payload)
      const record = p.records.get(id)!
      if (p.derived && !(isWellFormed(record) && patchMemory(p, p.derived, record as PoolRecord<MemoryBody>))) p.derived = undefined
      else if (p.derived && !p.derived.view) p.derived.first = false
    }
  }

  /** The record's row was deleted from storage (hard delete by this or another handle). */
  remove(id: string): void {
    const pool = this.#where.get(id)
    if (pool === undefined) return
    const p = this.#pools.get(pool)!
    p.delete(id)
    this.#where.delete(id)
    // A forgotten memory's row going away changes nothing but the list of rows still to delete.
    if (p.derived?.s.dead.has(id)) p.derived.s.dead.delete(id)
    else p.derived = undefined
  }

  /** Ids of every record of `author` in a pool (valid or not), for a revocation's cutoff. */
  idsBy(poolId: string, author: string): string[] {
    const out: string[] = []
    for (const r of this.#pools.get(poolId)?.records.values() ?? []) if (r.author === author) out.push(r.id)
    return out
  }

  /** Sealed memory records without a payload yet. */
  sealedPending(): PoolRecord<MemoryBody>[] {
    const out: PoolRecord<MemoryBody>[] = []
    // Only the sealed ones are looked at: the refresh after every write asks, and a pool may hold 100k plaintext memories.
    for (const p of this.#pools.values()) {
      for (const id of p.sealed) if (!p.payloads.has(id)) out.push(p.records.get(id) as PoolRecord<MemoryBody>)
    }
    return out
  }

  /** The time-independent derivation of one pool, kept up to date as its records change. Null until it is founded. */
  structure(poolId: string): Structure | null {
    return this.#derived(poolId)?.s ?? null
  }

  /**
   * The pool at `now`: built when the structure was derived again, when `now` leaves the span in
   * which no live memory expires, or when the clock went back; patched in place otherwise.
   */
  view(poolId: string, now: number): View | null {
    const d = this.#derived(poolId)
    if (!d) return null
    if (!d.view || d.viewStale || now < d.view.now || now >= d.view.stableUntil) {
      const fresh = !d.view
      d.view = ViewState.build(d.s, now, d.view)
      if (fresh && d.first) d.view.lineage.opening = true
      d.viewStale = false
      // Its index is kept from here, patched with the view (a no-op for one handed over): built
      // with the view, not in the first write after an open or a join (issue 31).
      d.view.index.fill()
    }
    return d.view.at(now)
  }

  /** The views at `now` of the pools derived so far: none is derived for the asking (O(pool) each). */
  *derivedViews(now: number): Iterable<View> {
    for (const [id, p] of this.#pools) if (p.derived) yield this.view(id, now)!
  }

  #derived(poolId: string): Derived | null {
    const p = this.#pools.get(poolId)
    if (!p) return null
    if (p.derived === undefined) {
      p.derived = derive(poolId as PoolId, p)
      if (p.derived && !p.derivedBefore) p.derivedBefore = p.derived.first = true
    }
    return p.derived
  }
}

/** Patches a derivation with one new record; false when the pool must be derived again. */
function patch(p: PoolRecords, d: Derived, r: PoolRecord): boolean {
  // Malformed or of another pool's authority: derive would skip it too.
  if (!isWellFormed(r)) return true
  switch (r.kind) {
    case PoolKind.MEMORY:
      return patchMemory(p, d, r as PoolRecord<MemoryBody>)
    case PoolKind.ACCESS: {
      if (p.verdict(d.auth, r) !== Verdict.OK) return true
      countReads(d.s.access, (r as PoolRecord<AccessBody>).body)
      return true
    }
    case PoolKind.TOMBSTONE:
      return patchTombstone(p, d, r as PoolRecord<TombstoneBody>)
    case PoolKind.RATING: {
      if (p.verdict(d.auth, r) !== Verdict.OK) return true
      const rating = r as PoolRecord<RatingBody>
      let byAuthor = d.ratingBy.get(rating.body.memory)
      if (!byAuthor) d.ratingBy.set(rating.body.memory, (byAuthor = new Map()))
      const had = byAuthor.get(r.author)
      // Each member's latest rating (record order) counts, whatever order they arrive in.
      if (had && compareRecords(had, r) > 0) return true
      byAuthor.set(r.author, rating)
      d.s.ratings.set(rating.body.memory, meanRating(byAuthor))
      return true
    }
    default:
      return false
  }
}

/**
 * A tombstone arrived: what `derive` makes of it, on the derivation in place. Each target gets the
 * tombstone among its forgetters (record order); a target the tombstone may forget (or that is not
 * here: judged again if it arrives) is forgotten with the links of its latest such tombstone, and
 * a present one is dead and leaves the memories. The view follows in place (the supersession
 * chains through the forgotten memory change: view.ts `forget`), or is built again from the
 * structure keeping its index when it cannot.
 */
function patchTombstone(p: PoolRecords, d: Derived, t: PoolRecord<TombstoneBody>): boolean {
  if (p.verdict(d.auth, t) !== Verdict.OK) return true
  const s = d.s
  const forgotten = forgetInPlace(s, t, (id) => p.records.get(id))
  for (const { target, present } of forgotten) {
    for (const id of target.supersedes) d.referenced.add(id)
    if (!present) continue
    s.dead.add(target.id)
    const m = s.memories.get(target.id)
    if (m) {
      s.memories.delete(target.id)
      if (m.payload === null) s.sealed--
    }
  }
  // The view is patched too where it can be (view.ts `forget`), else built again keeping its index.
  if (forgotten.length && d.view && !d.viewStale && !d.view.forget(forgotten.map((f) => f.target.id))) d.viewStale = true
  return true
}

/**
 * `derive`'s rule for one more valid tombstone, on a structure in place: each target gets it among
 * its forgetters (record order); a target whose record (`present`) is a memory the tombstone may
 * forget, or that has no record, is forgotten with the links of its latest forgetting tombstone.
 * Returns those targets, with their records. The pools state (`patchTombstone`) and the sync
 * planner (src/sync/planner.ts, on the document's records) both patch by it.
 */
export function forgetInPlace(
  s: Structure, t: PoolRecord<TombstoneBody>, present: (id: string) => PoolRecord | undefined,
): Array<{ target: TombstoneBody['targets'][number]; present: PoolRecord | undefined }> {
  const forgetters = s.forgetters as Map<string, PoolRecord<TombstoneBody>[]>
  const forgotten = s.forgotten as Map<string, readonly string[]>
  const out: Array<{ target: TombstoneBody['targets'][number]; present: PoolRecord | undefined }> = []
  for (const target of t.body.targets) {
    let list = forgetters.get(target.id)
    if (!list) forgetters.set(target.id, (list = []))
    list.push(t)
    list.sort(compareRecords)
    const record = present(target.id)
    // Only memories can be forgotten: a writer must not erase the owner's ACL, keys or create record.
    if (record && record.kind !== PoolKind.MEMORY) continue
    const forgets = (x: PoolRecord<TombstoneBody>): boolean => !record || tombstoneForgets(s, x, record)
    if (!forgets(t)) continue
    // The latest forgetting tombstone in record order gives the links, as in `derive`.
    const latest = list.findLast(forgets)!
    forgotten.set(target.id, latest.body.targets.find((x) => x.id === target.id)!.supersedes)
    out.push({ target, present: record })
  }
  return out
}

/**
 * A memory record arrived, or its payload was opened. In place only when nothing refers to it yet:
 * a tombstone, resolution or supersession link that names it (it arrived after what names it) makes
 * the pool derive again, as does a memory that is already expired in the view.
 */
function patchMemory(p: PoolRecords, d: Derived, r: PoolRecord<MemoryBody>): boolean {
  if (p.verdict(d.auth, r) !== Verdict.OK) return true
  if (d.referenced.has(r.id) || d.s.forgetters.has(r.id) || d.s.forgotten.has(r.id)) return false
  const payload = p.payloads.get(r.id) ?? null
  const m: ValidMemory = { id: r.id, record: r, payload }
  if (d.s.memories.get(r.id)?.payload === null) d.s.sealed--
  if (payload === null) d.s.sealed++
  p.memories.set(r.id, m)
  d.s.memories.set(r.id, m)
  if (!payload) return true
  for (const id of payload.supersedes) d.referenced.add(id)
  if (d.view && !d.view.add(m as LiveMemory)) d.view = undefined
  return true
}

/** One `pool-access` record counted: each memory it lists was read once more, at `at` at the latest. */
function countReads(access: Map<string, { count: number; last: number }>, { reads, at }: AccessBody): void {
  for (const id of reads) {
    const a = access.get(id)
    access.set(id, { count: (a?.count ?? 0) + 1, last: Math.max(a?.last ?? 0, at) })
  }
}

/** The mean of the members' latest ratings, summed in member order so every replica gets the same float. */
function meanRating(byAuthor: ReadonlyMap<string, PoolRecord<RatingBody>>): number {
  const authors = [...byAuthor.keys()].sort()
  return authors.reduce((sum, a) => sum + byAuthor.get(a)!.body.rating, 0) / authors.length
}

function derive(poolId: PoolId, p: PoolRecords): Derived | null {
  // Well-formed records only, by kind, in record order (PoolRecords keeps them so).
  const of = <B>(kind: string): readonly PoolRecord<B>[] => p.ofKind(kind) as readonly PoolRecord<B>[]

  const create = of<CreateBody>(PoolKind.CREATE).find((r) => r.pool === poolId && foundsPool(r))
  if (!create) return null
  const owner = create.author
  const tenant = create.tenant
  const acl = new Acl(owner)
  const auth: Authority = { owner, tenant, acl }
  // Who may author what is one rule (authority.ts), shared with the sync layer's materializer.
  const valid = <B>(list: readonly PoolRecord<B>[]): PoolRecord<B>[] => list.filter((r) => p.verdict(auth, r as PoolRecord) === Verdict.OK)

  for (const r of valid(of<AclBody>(PoolKind.ACL))) acl.add(r)

  const policyRecord = valid(of<PolicyBody>(PoolKind.POLICY)).at(-1)
  const policies = { ...DEFAULT_POLICIES, ...(policyRecord ? policyRecord.body.policies : create.body.policies) }
  const keys = valid(of<KeyBody>(PoolKind.KEY))
  const epoch = keys.reduce((e, k) => Math.max(e, k.body.epoch), 0)

  const referenced = new Set<string>()
  const candidates = new Map<string, ValidMemory>()
  for (const r of valid(of<MemoryBody>(PoolKind.MEMORY))) {
    const payload = p.payloads.get(r.id) ?? null
    let m = p.memories.get(r.id)
    if (!m || m.payload !== payload) p.memories.set(r.id, (m = { id: r.id, record: r, payload }))
    candidates.set(r.id, m)
  }

  const forgotten = new Map<string, readonly string[]>()
  const dead = new Set<string>()
  const forgetAuth = { ...auth, policies }
  const forgetters = new Map<string, PoolRecord<TombstoneBody>[]>()
  for (const t of valid(of<TombstoneBody>(PoolKind.TOMBSTONE))) {
    for (const target of t.body.targets) {
      let list = forgetters.get(target.id)
      if (!list) forgetters.set(target.id, (list = []))
      list.push(t)
      // Only memories can be forgotten: a writer must not erase the owner's ACL, keys or create record.
      const present = p.records.get(target.id)
      if (present && present.kind !== PoolKind.MEMORY) continue
      // Who may forget whose memory (authority.ts `mayForget`). A target not here yet counts as
      // forgotten (it may be the tombstone author's own); it is judged again once it arrives.
      if (present && !tombstoneForgets(forgetAuth, t, present)) continue
      forgotten.set(target.id, target.supersedes)
      for (const id of target.supersedes) referenced.add(id)
      if (p.records.has(target.id)) dead.add(target.id)
    }
  }
  for (const id of dead) candidates.delete(id)
  for (const m of candidates.values()) for (const id of m.payload?.supersedes ?? []) referenced.add(id)

  // Conflict resolutions: the latest record about a pair decides it, so a later reversal wins.
  const pairs = new Map<string, { winner: string; loser: string }>()
  for (const r of valid(of<ResolveBody>(PoolKind.RESOLVE))) {
    for (const loser of r.body.losers) {
      referenced.add(loser)
      if (loser === r.body.winner) continue
      pairs.set([r.body.winner, loser].sort().join('|'), { winner: r.body.winner, loser })
    }
    referenced.add(r.body.winner)
  }
  const resolutions = new Map<string, string>()
  for (const { winner, loser } of pairs.values()) resolutions.set(loser, winner)

  const access = new Map<string, { count: number; last: number }>()
  for (const r of valid(of<AccessBody>(PoolKind.ACCESS))) countReads(access, r.body)

  const ratingBy = new Map<string, Map<string, PoolRecord<RatingBody>>>()
  for (const r of valid(of<RatingBody>(PoolKind.RATING))) {
    let m = ratingBy.get(r.body.memory)
    if (!m) ratingBy.set(r.body.memory, (m = new Map()))
    m.set(r.author, r)
  }
  const ratings = new Map<string, number>()
  for (const [id, m] of ratingBy) ratings.set(id, meanRating(m))

  let sealed = 0
  for (const m of candidates.values()) if (m.payload === null) sealed++
  const s = {
    id: poolId, owner, tenant, createdAt: wall(create), create, policies, acl, keys, epoch,
    memories: candidates, dead, forgotten, forgetters, resolutions, access, ratings, sealed,
  }
  return { s, auth, referenced, ratingBy }
}

/**
 * The tombstone that forgot each forgotten id: the earliest valid one (record order) that may
 * forget it (for a target not in the set: the earliest naming it). Sorted by that tombstone.
 */
export function forgetLog(s: Structure, record: (id: string) => PoolRecord | undefined): Array<{ id: string; by: PoolRecord<TombstoneBody> }> {
  const out: Array<{ id: string; by: PoolRecord<TombstoneBody> }> = []
  for (const id of s.forgotten.keys()) {
    const target = record(id)
    const by = (s.forgetters.get(id) ?? []).find((t) => !target || tombstoneForgets(s, t, target))
    if (by) out.push({ id, by })
  }
  return out.sort((a, b) => compareRecords(a.by, b.by) || (a.id < b.id ? -1 : 1))
}

/**
 * Whether a valid tombstone of the pool forgets `record` (a memory this replica holds, whatever
 * the set says): a peer that removes a key together with its tombstone must not make a replica
 * drop a record the tombstone's author had no right to forget. The sync layer asks before it
 * believes a key's absence (src/sync/materialize-step.ts, heal).
 */
export function forgottenBy(s: Structure, record: PoolRecord): boolean {
  if (record.kind !== PoolKind.MEMORY) return false
  return s.forgetters.get(record.id)?.some((t) => tombstoneForgets(s, t, record)) ?? false
}

