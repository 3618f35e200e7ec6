import { deleteFrom, setOf } from '../core/set-map.js'
import type { StoredRecord } from '../storage/schema.js'
import { FreeTextConflicts } from './free-text-conflicts.js'
import { LexicalIndex, type LexicalSnapshot } from './lexical-index.js'
import type { FactConflict, FactRef } from './types.js'
import { compareVersions, versionFromRecord, type TombstoneBody, type Version } from './version.js'
import { HeadMembers, isCurrent } from './head-members.js'
import { WriteOrder, byWrite, type Candidates } from './write-order.js'

/** A fact's `conflictsWith` names at most this many (`conflicts()` lists the pairs). */
export const MAX_CONFLICTS_WITH = 100
/** A conflict listing stops past this many pairs looked at, whatever its limit (a slot of one repeated object has pairs to skip, not to list). */
const MAX_COMPARISONS = 1_000_000

/** The key of a tenant's indexes (and of its lexical snapshot: src/facts/store.ts). */
export const tenantKey = (tenant: string | null): string => tenant ?? '\u0000'

/**
 * The materialized state of a fact store: a pure function of its record set (fact versions and
 * tombstones), maintained incrementally. Supersession links, valid-until, heads and conflicts are
 * all derived here, never stored, so replaying the same records in any order gives the same state.
 */
export class FactState {
  readonly versions = new Map<string, Version>()
  /** Deleted ref -> the ref it superseded, so a chain can be repaired around the hole. */
  readonly tombstones = new Map<string, string | null>()
  readonly #successors = new Map<string, Set<string>>()
  /** Declared links (`supersedes` as written), kept even while the predecessor is absent, so arrival order never matters. */
  readonly #declared = new Map<string, Set<string>>()
  /** Tombstones by the ref their target superseded: how a chain is followed through a deleted link. */
  readonly #tombstonedLinks = new Map<string, Set<string>>()
  /**
   * Live versions per tenant, kept in write order too: asOf answers come out already in that order.
   * Built on the first asOf query rather than on open (a Map entry per fact nobody reads until then).
   */
  #byTenantIndex: Map<string, WriteOrder> | null = null
  /**
   * Heads per tenant by ref and in write order: retrieve() looks matches up and finds their
   * neighbours here. By ref through `versions` and a slot on each version (head-members.ts), not a map of their own.
   */
  readonly #heads = new Map<string, WriteOrder>()
  readonly #lexical = new Map<string, LexicalIndex>()
  /** Documents indexed or removed since the lexical indexes were last restored or snapshotted. */
  #lexicalChanges = 0
  readonly #slots = new Map<string, Set<string>>()
  /**
   * Heads by tenant and content id: re-assertion checks in O(1) instead of scanning every head.
   * Built on the first write's check, not on open (100k entries nobody reads until then), then kept
   * in step. One ref per key is a string, more an array: nearly every key has one.
   */
  #headsByFactId: Map<string, string | string[]> | null = null
  /**
   * A metadata key (FactLookup.indexWhere) whose first version in the store builds `#headsByFactId`:
   * a store that holds such facts (a pool's fact view) is written by a module after every open, and
   * its first write should not pay for the index. A store without them never builds it before a write.
   */
  #headsWith: string | null = null
  /**
   * Metadata key -> string value -> refs of live versions, for the keys someone looked up
   * (`withMetadata`): built on a key's first lookup, then kept in step with every apply and removal.
   */
  readonly #byMetadata = new Map<string, Map<string, Set<string>>>()
  readonly #multiValued: ReadonlySet<string>
  /** Contradictions among free-text facts; null when turned off (`facts: { freeTextConflicts: false }`). */
  readonly #freeText: FreeTextConflicts | null

  constructor(multiValued: ReadonlySet<string>, freeText: FreeTextConflicts | null = null) {
    this.#multiValued = multiValued
    this.#freeText = freeText
  }

  clear(): void {
    this.versions.clear()
    this.tombstones.clear()
    this.#successors.clear()
    this.#declared.clear()
    this.#tombstonedLinks.clear()
    this.#byTenantIndex = null
    this.#heads.clear()
    this.#lexical.clear()
    this.#lexicalChanges = 0
    this.#slots.clear()
    this.#headsByFactId = null
    // A load follows: the free-text tallies are counted from the heads when first read, not per record.
    this.#freeText?.defer({ any: () => this.versions.size > 0, current: () => this.#headsInWriteOrder(), isCurrent })
    // Keys stay indexed: their (now empty) indexes fill again as records are applied.
    for (const index of this.#byMetadata.values()) index.clear()
  }

  /** Applies one record (fact or tombstone); idempotent. */
  apply(record: StoredRecord): void {
    if (record.kind === 'tombstone') this.#applyTombstone(record)
    else if (record.kind === 'fact') this.#applyFact(record)
  }

  /** Removes a version whose tombstone is unknown to us (another handle deleted it). */
  forget(ref: string): void {
    const v = this.versions.get(ref)
    if (v) this.#remove(v, null)
  }

  #applyFact(record: StoredRecord): void {
    if (this.versions.has(record.id) || this.tombstones.has(record.id)) return
    const tk = tenantKey(record.tenant)
    let lex = this.#lexical.get(tk)
    if (!lex) this.#lexical.set(tk, (lex = new LexicalIndex()))
    // A version the restored snapshot indexes takes the index's string for its ref (one string a
    // fact, not two: issue 31, open37) and is not tokenized again (its terms stay uncomputed).
    const slot = lex.slotOf(record.id)
    const v = versionFromRecord(record, this.#multiValued, slot < 0 ? record.id : lex.refAt(slot))
    this.versions.set(v.ref, v)
    if (this.#byMetadata.size > 0) for (const [key, index] of this.#byMetadata) indexMetadata(index, key, v, true)
    if (this.#headsWith !== null && this.#headsByFactId === null && typeof v.body.metadata[this.#headsWith] === 'string') this.#indexHeads()
    if (this.#byTenantIndex) orderOf(this.#byTenantIndex, tk).add(v)
    if (slot >= 0) lex.attachAt(slot, v)
    else {
      lex.add(v.ref, v.terms, v)
      this.#lexicalChanges++
    }
    if (v.body.supersedes) setOf(this.#declared, v.body.supersedes).add(v.ref)
    const pred = this.predecessor(v)
    if (pred) this.#link(pred, v.ref)
    // Successors that arrived before this version now attach to it.
    for (const s of this.#waitingFor(v.ref)) if (this.predecessor(this.versions.get(s)!) === v.ref) this.#link(v.ref, s)
    // A version just applied is current exactly when nothing supersedes it (isHead's three lookups, answered here).
    if (!this.#successors.get(v.ref)?.size) {
      this.#setHead(v, true)
      this.#freeText?.enqueue(v.ref)
    }
  }

  /** Every tenant's heads in write order, one list (`byWrite` across tenants: a handle writes them in one order). */
  #headsInWriteOrder(): readonly Version[] {
    const lists = [...this.#heads.values()].map((heads) => heads.inWriteOrder())
    return lists.length === 1 ? lists[0]! : lists.flat().sort(byWrite)
  }

  /** A current version by ref, for the free-text comparison (null when superseded or gone). */
  readonly #currentVersion = (ref: string): Version | null => (this.isHead(ref) ? (this.versions.get(ref) ?? null) : null)
  readonly #lexicalOf = (v: Version): LexicalIndex | undefined => this.#lexical.get(tenantKey(v.tenant))

  /** Live versions whose declared link leads to `ref`, directly or through deleted versions. */
  #waitingFor(ref: string): string[] {
    // Nearly always nothing waits: answer without allocating (this runs once per fact on open).
    if (!this.#declared.has(ref) && !this.#tombstonedLinks.has(ref)) return NOTHING
    const out: string[] = []
    const stack = [ref]
    const seen = new Set<string>()
    while (stack.length) {
      const r = stack.pop()!
      if (seen.has(r)) continue
      seen.add(r)
      for (const s of this.#declared.get(r) ?? []) if (this.versions.has(s)) out.push(s)
      for (const t of this.#tombstonedLinks.get(r) ?? []) stack.push(t)
    }
    return out
  }

  #applyTombstone(record: StoredRecord): void {
    const { target, supersedes } = record.body as TombstoneBody
    if (this.tombstones.has(target)) return
    this.tombstones.set(target, supersedes)
    if (supersedes) setOf(this.#tombstonedLinks, supersedes).add(target)
    const v = this.versions.get(target)
    if (v) return this.#remove(v, supersedes)
    // The target never arrived: versions waiting for it now follow the chain past it.
    for (const s of this.#waitingFor(target)) {
      const pred = this.predecessor(this.versions.get(s)!)
      if (pred) this.#link(pred, s)
    }
  }

  #remove(v: Version, supersedes: string | null): void {
    const pred = this.#resolve(supersedes ?? v.body.supersedes)
    this.#setHead(v, false)
    if (pred) this.#successors.get(pred)?.delete(v.ref)
    const orphans = this.#successors.get(v.ref)
    this.#successors.delete(v.ref)
    this.versions.delete(v.ref)
    for (const [key, index] of this.#byMetadata) indexMetadata(index, key, v, false)
    const tk = tenantKey(v.tenant)
    this.#byTenantIndex?.get(tk)?.delete(v.ref)
    const lex = this.#lexical.get(tk)
    if (lex?.has(v.ref)) {
      lex.remove(v.ref, v.terms)
      this.#lexicalChanges++
    }
    this.#freeText?.remove(v.ref)
    // Chain repair: successors of the deleted version now follow its predecessor.
    if (pred) {
      for (const s of orphans ?? []) this.#link(pred, s)
      const p = this.versions.get(pred)
      if (p && !this.#successors.get(pred)?.size) this.#setHead(p, true)
    }
  }

  #link(pred: string, succ: string): void {
    setOf(this.#successors, pred).add(succ)
    const p = this.versions.get(pred)
    if (p) this.#setHead(p, false)
  }

  #setHead(v: Version, head: boolean): void {
    const tk = tenantKey(v.tenant)
    this.#lexical.get(tk)?.mark(v.ref, head)
    this.#freeText?.current(v, head)
    if (head) {
      let heads = this.#heads.get(tk)
      if (!heads) this.#heads.set(tk, (heads = new WriteOrder(new HeadMembers(this.versions))))
      heads.add(v)
      if (this.#headsByFactId) addRef(this.#headsByFactId, factKey(tk, v.body.factId), v.ref)
      if (v.slot) setOf(this.#slots, v.slot).add(v.ref)
    } else {
      this.#heads.get(tk)?.delete(v.ref)
      if (this.#headsByFactId) deleteRef(this.#headsByFactId, factKey(tk, v.body.factId), v.ref)
      if (v.slot) this.#slots.get(v.slot)?.delete(v.ref)
    }
  }

  /** Follows a supersedes link through deleted versions to the nearest live one. */
  #resolve(ref: string | null): string | null {
    // Made on the first deleted link only: this runs once per fact on open, nearly always with no link.
    let seen: Set<string> | null = null
    while (ref && !this.versions.has(ref)) {
      if (!this.tombstones.has(ref) || seen?.has(ref)) return null
      ;(seen ??= new Set()).add(ref)
      ref = this.tombstones.get(ref) ?? null
    }
    return ref
  }

  predecessor(v: Version): string | null {
    return this.#resolve(v.body.supersedes)
  }

  /** Live successors of a version, in sequence order. */
  successors(ref: string): Version[] {
    const s = this.#successors.get(ref)
    if (!s?.size) return []
    return [...s].map((r) => this.versions.get(r)!).filter(Boolean).sort(compareVersions)
  }

  supersededBy(ref: string): FactRef | null {
    return this.successors(ref)[0]?.ref ?? null
  }

  /** GMP §3.2: the interval closes at the earliest successor's valid-from. */
  validUntil(ref: string): number | null {
    let until: number | null = null
    for (const s of this.successors(ref)) until = until === null ? s.body.validFrom : Math.min(until, s.body.validFrom)
    return until
  }

  isHead(ref: string): boolean {
    const v = this.versions.get(ref)
    return v !== undefined && isCurrent(v)
  }

  /** Current versions of a tenant with this content id (usually none or one). */
  headsWithFactId(tenant: string | null, factId: string): Version[] {
    const refs = (this.#headsByFactId ?? this.#indexHeads()).get(factKey(tenantKey(tenant), factId))
    if (refs === undefined) return []
    return (typeof refs === 'string' ? [refs] : refs).map((r) => this.versions.get(r)!)
  }

  #indexHeads(): Map<string, string | string[]> {
    const index = new Map<string, string | string[]>()
    for (const [tk, heads] of this.#heads) for (const v of heads.values()) addRef(index, factKey(tk, v.body.factId), v.ref)
    return (this.#headsByFactId = index)
  }

  /** Builds the heads' index by content id as soon as a version with `metadata[key]` is (or is already) here. */
  indexHeadsWith(key: string): void {
    this.#headsWith = key
    if (this.#headsByFactId === null && (this.#byMetadata.get(key)?.size ?? 0) > 0) this.#indexHeads()
  }

  heads(tenant: string | null): Version[] {
    return [...(this.#heads.get(tenantKey(tenant))?.values() ?? [])]
  }

  /** A tenant's current versions as retrieve() reads them: by ref and in write order, no copy. */
  current(tenant: string | null): Candidates {
    return this.#heads.get(tenantKey(tenant)) ?? NO_CANDIDATES
  }

  /** Versions of a tenant valid at `at` (µs): validFrom ≤ at < validUntil, in write order. */
  validAt(tenant: string | null, at: number): Version[] {
    const out: Version[] = []
    for (const v of this.#byTenant().get(tenantKey(tenant))?.inWriteOrder() ?? []) {
      if (v.body.validFrom > at) continue
      const until = this.validUntil(v.ref)
      if (until === null || at < until) out.push(v)
    }
    return out
  }

  #byTenant(): Map<string, WriteOrder> {
    if (!this.#byTenantIndex) {
      const index = new Map<string, WriteOrder>()
      for (const v of this.versions.values()) orderOf(index, tenantKey(v.tenant)).add(v)
      this.#byTenantIndex = index
    }
    return this.#byTenantIndex
  }

  /**
   * Puts every tenant's heads in write order and in the tail's order (`WriteOrder.prepare`), so the
   * first query after a load finds them built. For the end of a full load only: after each batch
   * of a sync it would be O(facts) per batch.
   */
  prepareOrders(): void {
    for (const heads of this.#heads.values()) heads.prepare()
  }

  lexical(tenant: string | null): LexicalIndex | undefined {
    return this.#lexical.get(tenantKey(tenant))
  }

  /**
   * Starts a load from lexical snapshots (tenant key -> snapshot), right after `clear()`: versions
   * applied next that a snapshot indexes are not tokenized. Call `checkLexical()` once the load is done.
   */
  restoreLexical(snapshots: ReadonlyMap<string, LexicalSnapshot>): void {
    for (const [tk, snap] of snapshots) this.#lexical.set(tk, LexicalIndex.restore(snap))
  }

  /**
   * After a load from snapshots: an index holding a ref that is not a live version of its tenant
   * (a snapshot older than a removal it missed) is rebuilt from the versions. Returns how many were.
   */
  checkLexical(): number {
    let rebuilt = 0
    for (const [tk, lex] of this.#lexical) {
      // Every version applied was attached to its tenant's index or added to it, and every one
      // removed was removed from it: a snapshot ref still unattached has no live version here.
      if (lex.unattached === 0) {
        lex.settled()
        continue
      }
      const fresh = new LexicalIndex()
      for (const v of this.versions.values()) {
        if (tenantKey(v.tenant) !== tk) continue
        fresh.add(v.ref, v.terms, v)
        if (this.isHead(v.ref)) fresh.mark(v.ref, true)
      }
      this.#lexical.set(tk, fresh)
      this.#lexicalChanges += fresh.size
      rebuilt++
    }
    return rebuilt
  }

  /** Documents indexed or removed since the last restore or snapshot: 0 when a snapshot would say nothing new. */
  get lexicalChanges(): number {
    return this.#lexicalChanges
  }

  /** Every tenant's lexical index as a snapshot (tenant key -> snapshot); counts as saved. */
  lexicalSnapshots(): Map<string, LexicalSnapshot> {
    this.#lexicalChanges = 0
    const out = new Map<string, LexicalSnapshot>()
    for (const [tk, lex] of this.#lexical) if (lex.size > 0) out.set(tk, lex.snapshot())
    return out
  }

  /**
   * Current facts that contradict this one: same slot, different object; at most `limit`, sorted
   * (a slot a writer filled with 20,000 objects would put 19,999 refs on every one of its facts).
   */
  conflictsWith(v: Version, limit = MAX_CONFLICTS_WITH): FactRef[] {
    const out: FactRef[] = []
    if (v.slot && this.isHead(v.ref)) {
      for (const other of this.#slots.get(v.slot) ?? []) {
        const o = this.versions.get(other)!
        if (other !== v.ref && o.objectKey !== v.objectKey) out.push(o.ref)
      }
    }
    if (this.#freeText && this.isHead(v.ref)) {
      this.#freeText.settle(v.ref, this.#lexicalOf, this.#currentVersion)
      for (const [other] of this.#freeText.listedPartners(v.ref, this.#currentVersion)) if (this.isHead(other) && !out.includes(other as FactRef)) out.push(other as FactRef)
    }
    const pred = this.predecessor(v)
    if (pred && this.isHead(v.ref)) {
      for (const sibling of this.successors(pred)) {
        if (sibling.ref !== v.ref && this.isHead(sibling.ref) && !out.includes(sibling.ref)) out.push(sibling.ref)
      }
    }
    return out.sort().slice(0, limit)
  }

  /**
   * Current conflicts of a tenant (or of all tenants), each pair once, in a stable order: at most
   * `limit`, free-text pairs at `minConfidence` or above. A slot of k objects holds k²/2 pairs; the listing stops at the limit, not after them all
   * (issue 26: 20,000 in one slot were 200 million pairs).
   */
  conflicts(tenant: string | null | undefined, limit = Infinity, minConfidence?: number): FactConflict[] {
    const out: FactConflict[] = []
    const seen = new Set<string>()
    let budget = MAX_COMPARISONS
    const push = (c: FactConflict): void => {
      const key = `${c.kind}|${c.refs[0]}|${c.refs[1]}`
      if (!seen.has(key)) {
        seen.add(key)
        out.push(c)
      }
    }
    const full = (): boolean => out.length >= limit || budget <= 0
    slots: for (const refs of this.#slots.values()) {
      if (refs.size < 2) continue
      const vs = [...refs].map((r) => this.versions.get(r)!).sort(compareVersions)
      if (tenant !== undefined && vs[0]!.tenant !== tenant) continue
      for (let i = 0; i < vs.length; i++) {
        for (let j = i + 1; j < vs.length; j++) {
          if (full()) break slots
          budget--
          const a = vs[i]!, b = vs[j]!
          if (a.objectKey === b.objectKey) continue
          const md = a.body.metadata
          push({
            kind: 'single-valued-predicate',
            refs: [a.ref, b.ref],
            tenantId: a.tenant,
            subject: md['subject'] as string,
            predicate: md['predicate'] as string,
            reason: `"${String(md['predicate'])}" of "${String(md['subject'])}" is single-valued, but two current facts say ${JSON.stringify(a.body.metadata['object'])} and ${JSON.stringify(b.body.metadata['object'])}`,
          })
        }
      }
    }
    successors: for (const [pred, succ] of this.#successors) {
      if (full()) break
      const live = [...succ].map((r) => this.versions.get(r)).filter((v): v is Version => !!v && this.isHead(v.ref))
      if (live.length < 2) continue
      live.sort(compareVersions)
      if (tenant !== undefined && live[0]!.tenant !== tenant) continue
      for (let i = 0; i < live.length; i++) {
        for (let j = i + 1; j < live.length; j++) {
          if (full()) break successors
          budget--
          push({
            kind: 'competing-supersession',
            refs: [live[i]!.ref, live[j]!.ref],
            tenantId: live[i]!.tenant,
            subject: (live[i]!.body.metadata['subject'] as string | undefined) ?? null,
            predicate: (live[i]!.body.metadata['predicate'] as string | undefined) ?? null,
            reason: `both supersede ${pred}; neither is the agreed successor`,
          })
        }
      }
    }
    // Free-text contradictions between current facts: flagged both ways, never resolved here.
    this.#freeText?.settleAll(this.#lexicalOf, this.#currentVersion)
    for (const [x, y, { reason, confidence }] of this.#freeText?.listedPairs(this.#currentVersion, minConfidence) ?? []) {
      if (!this.isHead(x) || !this.isHead(y)) continue
      const [a, b] = [this.versions.get(x)!, this.versions.get(y)!].sort(compareVersions) as [Version, Version]
      if (tenant !== undefined && a.tenant !== tenant) continue
      if (full()) break
      push({ kind: 'free-text', refs: [a.ref, b.ref], tenantId: a.tenant, subject: null, predicate: null, reason, confidence })
    }
    return out
  }

  /**
   * Live versions (current and superseded) whose `metadata[key]` is the string `value`, in no
   * particular order. The first lookup of a key indexes every version once (O(n)); later ones cost
   * what they return.
   */
  withMetadata(key: string, value: string): Version[] {
    return [...(this.indexByMetadata(key).get(value) ?? [])].map((r) => this.versions.get(r)!)
  }

  /** The index of `metadata[key]`, built now over every version if not yet (once per key; then kept). */
  indexByMetadata(key: string): ReadonlyMap<string, ReadonlySet<string>> {
    let index = this.#byMetadata.get(key)
    if (!index) {
      index = new Map()
      for (const v of this.versions.values()) indexMetadata(index, key, v, true)
      this.#byMetadata.set(key, index)
    }
    return index
  }

  /** All live versions in sequence order (optionally one tenant). */
  all(): Version[] {
    return [...this.versions.values()].sort(compareVersions)
  }
}

function indexMetadata(index: Map<string, Set<string>>, key: string, v: Version, add: boolean): void {
  const value = v.body.metadata[key]
  if (typeof value !== 'string') return
  if (add) setOf(index, value).add(v.ref)
  else deleteFrom(index, value, v.ref)
}

const NO_CANDIDATES: Candidates = WriteOrder.of([])
const NOTHING: string[] = []

const factKey = (tk: string, factId: string): string => `${tk}\u001f${factId}`

function addRef(index: Map<string, string | string[]>, key: string, ref: string): void {
  const refs = index.get(key)
  if (refs === undefined) index.set(key, ref)
  else if (typeof refs === 'string') {
    if (refs !== ref) index.set(key, [refs, ref])
  } else if (!refs.includes(ref)) refs.push(ref)
}

function deleteRef(index: Map<string, string | string[]>, key: string, ref: string): void {
  const refs = index.get(key)
  if (refs === ref) index.delete(key)
  else if (Array.isArray(refs)) {
    const rest = refs.filter((r) => r !== ref)
    if (rest.length === 0) index.delete(key)
    else index.set(key, rest.length === 1 ? rest[0]! : rest)
  }
}

function orderOf(map: Map<string, WriteOrder>, key: string): WriteOrder {
  let w = map.get(key)
  if (!w) map.set(key, (w = new WriteOrder()))
  return w
}
