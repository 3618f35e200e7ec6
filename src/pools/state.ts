import { decodeHlc } from '../core/clock.js'
import { Acl } from './acl.js'
import { Verdict, foundsPool, isWellFormed, judgeRecord, tombstoneForgets, type Authority } from './authority.js'
import { DEFAULT_POLICIES } from './input.js'
import {
  PoolKind, compareRecords,
  type AccessBody, type AclBody, type CreateBody, type KeyBody, type MemoryBody, type MemoryPayload, type PolicyBody,
  type PoolRecord, type RatingBody, type ResolveBody, type TombstoneBody,
} from './records.js'
import type { PoolId, PoolPolicies } from './types.js'

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
export interface ValidMemory {
  readonly id: string
  readonly record: PoolRecord<MemoryBody>
  /** Null while sealed under a key this identity does not hold. */
  readonly payload: MemoryPayload | null
}

export interface Structure {
  readonly id: PoolId
  readonly owner: string
  readonly tenant: string | null
  readonly createdAt: number
  readonly create: PoolRecord<CreateBody>
  readonly policies: PoolPolicies
  readonly acl: Acl
  /** Owner-signed key wraps. */
  readonly keys: readonly PoolRecord<KeyBody>[]
  readonly epoch: number
  /** Valid memories not covered by a tombstone (payload null when sealed to us). */
  readonly memories: ReadonlyMap<string, ValidMemory>
  /** Present memory records a valid tombstone covers: to be deleted from storage. */
  readonly dead: ReadonlySet<string>
  /**
   * Ids a valid tombstone forgot, with the links they had (chain repair). A target whose record is
   * not in the set counts (it cannot be judged, and after a hard delete it is absent everywhere);
   * a replica that holds it judges it with `forgottenBy` before believing its absence.
   */
  readonly forgotten: ReadonlyMap<string, readonly string[]>
  /** Valid tombstones by the ids they name (whether or not they may forget them). */
  readonly forgetters: ReadonlyMap<string, readonly PoolRecord<TombstoneBody>[]>
  /** In force (latest per pair wins): loser -> winner. */
  readonly resolutions: ReadonlyMap<string, string>
  readonly access: ReadonlyMap<string, { readonly count: number; readonly last: number }>
  readonly ratings: ReadonlyMap<string, number>
}

/**
 * One pool's records, plus what `derive` would otherwise recompute from all of them on every change
 * (at 10k records a write's derivation was a third of a synced write's cost, on each replica):
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
  cache: Structure | null | undefined

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
    const list = this.byKind.get(record.kind)?.list
    const i = list ? list.indexOf(record) : -1
    if (i >= 0) list!.splice(i, 1)
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
}

/** The kinds the pool's authority (owner, tenant, ACL) is derived from: verdicts of the others depend on them. */
const AUTHORITY_KINDS: ReadonlySet<string> = new Set([PoolKind.CREATE, PoolKind.ACL])

const wall = (r: PoolRecord): number => decodeHlc(r.hlc).wall

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
      p.cache = undefined
    }
    if (payload) this.setPayload(record.id, payload)
  }

  setPayload(id: string, payload: MemoryPayload): void {
    const p = this.#pools.get(this.#where.get(id) ?? '')
    if (p && !p.payloads.has(id)) {
      p.payloads.set(id, payload)
      p.cache = undefined
    }
  }

  /** The record's row was deleted from storage (hard delete by this or another handle). */
  remove(id: string): void {
    const pool = this.#where.get(id)
    if (pool === undefined) return
    const p = this.#pools.get(pool)!
    p.delete(id)
    this.#where.delete(id)
    p.cache = undefined
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

  /** The time-independent derivation of one pool, cached until its record set changes. Null until it is founded. */
  structure(poolId: string): Structure | null {
    const p = this.#pools.get(poolId)
    if (!p) return null
    if (p.cache === undefined) p.cache = derive(poolId as PoolId, p)
    return p.cache
  }
}

function derive(poolId: PoolId, p: PoolRecords): Structure | null {
  // Well-formed records only, by kind, in record order (PoolRecords keeps them so).
  const of = <B>(kind: string): readonly PoolRecord<B>[] => p.ofKind(kind) as readonly PoolRecord<B>[]

  const create = of<CreateBody>(PoolKind.CREATE).find((r) => r.pool === poolId && foundsPool(r))
  if (!create) return null
  const owner = create.author
  const tenant = create.tenant
  const acl = new Acl(owner)
  const auth: Authority = { owner, tenant, acl }
  // Who may author what is one rule (authority.ts), shared with the sync layer's materializer.
  const verdict = (r: PoolRecord): Verdict => {
    let v = p.verdicts.get(r.id)
    if (v === undefined) p.verdicts.set(r.id, (v = judgeRecord(auth, r)))
    return v
  }
  const valid = <B>(list: readonly PoolRecord<B>[]): PoolRecord<B>[] => list.filter((r) => verdict(r as PoolRecord) === Verdict.OK)

  for (const r of valid(of<AclBody>(PoolKind.ACL))) acl.add(r)

  const policyRecord = valid(of<PolicyBody>(PoolKind.POLICY)).at(-1)
  const policies = { ...DEFAULT_POLICIES, ...(policyRecord ? policyRecord.body.policies : create.body.policies) }
  const keys = valid(of<KeyBody>(PoolKind.KEY))
  const epoch = keys.reduce((e, k) => Math.max(e, k.body.epoch), 0)

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
      if (p.records.has(target.id)) dead.add(target.id)
    }
  }
  for (const id of dead) candidates.delete(id)

  // Conflict resolutions: the latest record about a pair decides it, so a later reversal wins.
  const pairs = new Map<string, { winner: string; loser: string }>()
  for (const r of valid(of<ResolveBody>(PoolKind.RESOLVE))) {
    for (const loser of r.body.losers) {
      if (loser === r.body.winner) continue
      pairs.set([r.body.winner, loser].sort().join('|'), { winner: r.body.winner, loser })
    }
  }
  const resolutions = new Map<string, string>()
  for (const { winner, loser } of pairs.values()) resolutions.set(loser, winner)

  const access = new Map<string, { count: number; last: number }>()
  for (const r of valid(of<AccessBody>(PoolKind.ACCESS))) {
    for (const id of r.body.reads) {
      const a = access.get(id)
      access.set(id, { count: (a?.count ?? 0) + 1, last: Math.max(a?.last ?? 0, r.body.at) })
    }
  }

  const latestRating = new Map<string, Map<string, number>>()
  for (const r of valid(of<RatingBody>(PoolKind.RATING))) {
    let m = latestRating.get(r.body.memory)
    if (!m) latestRating.set(r.body.memory, (m = new Map()))
    m.set(r.author, r.body.rating)
  }
  const ratings = new Map<string, number>()
  for (const [id, m] of latestRating) ratings.set(id, [...m.values()].reduce((s, x) => s + x, 0) / m.size)

  return {
    id: poolId, owner, tenant, createdAt: wall(create), create, policies, acl, keys, epoch,
    memories: candidates, dead, forgotten, forgetters, resolutions, access, ratings,
  }
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
 * believes a key's absence (src/sync/store.ts, heal).
 */
export function forgottenBy(s: Structure, record: PoolRecord): boolean {
  if (record.kind !== PoolKind.MEMORY) return false
  return s.forgetters.get(record.id)?.some((t) => tombstoneForgets(s, t, record)) ?? false
}

/** Epoch ms at which a memory expires, or null. */
export function expiresAt(p: MemoryPayload): number | null {
  return p.permanent || p.ttl === null ? null : p.createdAt + Math.round(p.ttl * 1000)
}

export interface LiveMemory extends ValidMemory {
  readonly payload: MemoryPayload
}

/** One pool at one instant: what is live (readable, unexpired), what replaces what, what is current. */
export interface View {
  readonly s: Structure
  readonly now: number
  readonly live: ReadonlyMap<string, LiveMemory>
  /** Readable memories past their TTL: hidden now, hard-deleted by the next sweep. */
  readonly expired: readonly LiveMemory[]
  readonly supersededBy: ReadonlyMap<string, readonly string[]>
  readonly current: readonly LiveMemory[]
  /** The next instant a live memory expires: until then the same view holds (only `now` moves). */
  readonly stableUntil: number
}

/**
 * Supersession follows chains through forgotten and expired memories, as GMP's fact chains do:
 * if B (superseding A) is forgotten, C (superseding B) now supersedes A; if C goes too, A is
 * current again.
 */
export function viewAt(s: Structure, now: number): View {
  const live = new Map<string, LiveMemory>()
  const expired: LiveMemory[] = []
  let stableUntil = Infinity
  for (const m of s.memories.values()) {
    if (!m.payload) continue
    const until = expiresAt(m.payload)
    if (until !== null && now >= until) expired.push(m as LiveMemory)
    else {
      live.set(m.id, m as LiveMemory)
      if (until !== null) stableUntil = Math.min(stableUntil, until)
    }
  }
  const gone = new Map<string, readonly string[]>(s.forgotten)
  for (const m of expired) gone.set(m.id, m.payload.supersedes)
  const resolve = (id: string, seen: Set<string>, out: Set<string>): void => {
    if (seen.has(id)) return
    seen.add(id)
    if (live.has(id)) out.add(id)
    else for (const next of gone.get(id) ?? []) resolve(next, seen, out)
  }
  const supersededBy = new Map<string, string[]>()
  const link = (pred: string, succ: string): void => {
    if (pred === succ) return
    let list = supersededBy.get(pred)
    if (!list) supersededBy.set(pred, (list = []))
    if (!list.includes(succ)) list.push(succ)
  }
  for (const m of live.values()) {
    const preds = new Set<string>()
    for (const s0 of m.payload.supersedes) resolve(s0, new Set(), preds)
    for (const pred of preds) link(pred, m.id)
  }
  for (const [loser, winner] of s.resolutions) if (live.has(loser) && live.has(winner)) link(loser, winner)
  for (const list of supersededBy.values()) list.sort()
  const current = [...live.values()].filter((m) => !supersededBy.has(m.id))
  return { s, now, live, expired, supersededBy, current, stableUntil }
}
