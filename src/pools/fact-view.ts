import { ErrorCode, isMemweaveError } from '../core/errors.js'
import { Capability } from '../facts/capabilities.js'
import type { FactEntry, FactLookup, FactRef, FactStore, FactWrite } from '../facts/types.js'
import { duplicateKeyOf } from './similarity.js'
import type { LiveMemory, Structure } from './structure.js'
import type { MemoryId } from './types.js'
import type { View, ViewLineage } from './view.js'

/** The fact store as the view uses it: the public API to write, and a lookup by metadata to find its facts. */
export type ViewedFactStore = FactStore & FactLookup

/**
 * The fact versions of one pool's memories, by memory id (each list in sequence order), as one
 * lookup found them; `heads` is computed once per memory id and kept.
 */
class PoolFacts {
  readonly byMemory = new Map<string, FactEntry[]>()
  readonly #heads = new Map<string, readonly FactEntry[]>()
  /** How many heads each memory's view has: most have one, and only the others need their heads listed. */
  readonly #headCount = new Map<string, number>()

  constructor(versions: readonly FactEntry[], s: Structure) {
    for (const f of versions) {
      if (typeof f.metadata['memoryId'] !== 'string' || f.tenantId !== s.tenant) continue
      const id = f.metadata['memoryId'] as string
      let list = this.byMemory.get(id)
      if (!list) this.byMemory.set(id, (list = []))
      list.push(f)
      if (f.supersededBy === null) this.#headCount.set(id, (this.#headCount.get(id) ?? 0) + 1)
    }
  }

  /** The oldest head of a memory's view (`heads(id)[0]`, without listing them): sequences are unique in a fact store. */
  head(id: string): FactEntry | undefined {
    let best: FactEntry | undefined
    for (const f of this.byMemory.get(id) ?? []) if (f.supersededBy === null && (!best || f.sequence < best.sequence)) best = f
    return best
  }

  /** Heads that should not be: every head of a memory that is not current, all but the first of one that is. */
  extraHeads(id: string, current: boolean): readonly FactEntry[] {
    const n = this.#headCount.get(id) ?? 0
    if (n === 0 || (current && n === 1)) return []
    const h = this.heads(id)
    return current ? h.slice(1) : h
  }

  /** Current (unsuperseded) versions of a memory's view, oldest first (not to be changed by the caller). */
  heads(id: string): readonly FactEntry[] {
    const list = this.byMemory.get(id)
    if (list === undefined) return NONE
    // Nearly every memory has one version: its list is its heads, or it has none (a join asks for each of 100k).
    if (list.length === 1) return list[0]!.supersededBy === null ? list : NONE
    let h = this.#heads.get(id)
    if (!h) {
      h = (this.byMemory.get(id) ?? []).filter((f) => f.supersededBy === null).sort((a, b) => (a.sequence < b.sequence ? -1 : 1))
      this.#heads.set(id, h)
    }
    return h
  }
}

/**
 * One truth, two views: a pool memory that is a fact also appears in `mem.facts`, written through
 * the public FactStore API (`write` / `supersede` / `delete`) in the pool's tenant with metadata
 * `{subject, predicate, object, importance, pool, memoryId, memoryType, confidence, context?}`.
 *
 * The pool record is authoritative; the fact is a projection of it that this module keeps in step:
 * - a memory is a fact when its type is in the pool's `factTypes` policy (KNOWLEDGE, PREFERENCE,
 *   RELATIONSHIP, TEMPORAL by default), it is not EPHEMERAL, and the pool is not encrypted (a fact
 *   view would put plaintext in storage);
 * - a new current memory gets a fact, valid from the memory's `createdAt`; an update (or a merge) supersedes its predecessor's fact, so
 *   GMP's chain, valid-until and as-of queries hold (a merge continues the chain of its newest
 *   source; the other sources' facts are removed from current answers by deletion);
 * - forgetting a memory (forget, cascade, TTL, pruning) hard-deletes every fact version of it,
 *   through GMP HARD_DELETE, so nothing of it survives in `mem.facts`' storage either;
 * - a memory that stops being current (conflict lost, merged away) loses its head fact;
 * - two current memories that say one text and were made in one millisecond share one fact (GMP
 *   answers the second write with the first's); when the view takes that fact away from the one
 *   it names, the other gets a fact of its own (`reconcile` step 5).
 * Views are created only for memories a pool operation just made current (`dirty`), so a fact the
 * caller deleted through `mem.facts.delete` is not resurrected by a later unrelated operation
 * (one exception: step 5 writes the fact of a current memory that has none when the view takes
 * away a fact saying the same text, since it cannot tell a deleted fact from a shared one).
 * `metadata.importance` is the memory's importance / 10000 when its view was written; the pool's
 * value moves with reads, the fact's does not (fact records are immutable).
 * The view needs AUDIT, HARD_DELETE and SUPERSESSION_CHAIN (and MULTI_TENANT for a pool with a
 * tenant); without them it is off.
 */
export class FactView {
  readonly #facts: ViewedFactStore | null
  #caps: Promise<ReadonlySet<string>> | undefined
  /** Per pool, the view (its live map and lineage) the last reconcile brought the facts in line with. */
  readonly #seen = new Map<string, { readonly live: ReadonlyMap<string, LiveMemory>; readonly lineage: ViewLineage; readonly until: number }>()
  /** Per pool, the memories that were current when its facts were last brought in line. */
  readonly #wasCurrent = new Map<string, Set<string>>()
  /**
   * Per pool started after an open (see `reconcile`), the memories whose currency `#wasCurrent`
   * records; of the others it holds nothing, and they are taken to be as current as the open found them.
   */
  readonly #looked = new Map<string, Set<string>>()
  /** Per pool, memories whose fact the fact store refused (memory id -> its reason), until one is written. */
  readonly #refused = new Map<string, Map<string, string>>()

  /**
   * The facts in storage were left in line with the pools by the last sessions (fact-view-marker.ts):
   * only then may a reconcile after the open start from them (`reconcile`, the start).
   */
  #trusted = false

  constructor(facts: ViewedFactStore | null) {
    this.#facts = facts
  }

  #indexed = false

  /**
   * Has the fact store keep its index by memory id (and of heads by content) from now on: once the
   * pools are loaded and hold a pool (fact-view-guard.ts), so a store of facts alone never pays for
   * it at the open (O(facts): lease31 did it here, in every `createMemory`), and a pool's first write
   * after the open does not either (pools-first-write-cost.test.ts); else by the first reconcile.
   */
  indexFacts(): void {
    if (this.#indexed || !this.#facts) return
    this.#indexed = true
    this.#facts.indexWhere('memoryId')
  }

  /** Whether there is a fact store to keep views in. */
  get present(): boolean {
    return this.#facts !== null
  }

  /** What the open found (fact-view-marker.ts): the last sessions left the facts in line, or not. */
  trust(inLine: boolean): void {
    this.#trusted = inLine
  }

  /** Awaited before each change of the facts (the session's marker row). */
  #beforeChange: () => Promise<void> = () => Promise.resolve()

  /**
   * Forgets what this view knew of a pool's facts: its next reconcile reads them whole (a repair
   * after another handle was killed, fact-view-guard.ts).
   */
  unsee(pool: string): void {
    this.#seen.delete(pool)
    this.#wasCurrent.delete(pool)
    this.#looked.delete(pool)
  }

  /** Sets what each change of the facts waits for first. */
  beforeChange(hook: () => Promise<void>): void {
    this.#beforeChange = hook
  }

  async enabled(s: Structure): Promise<boolean> {
    if (!this.#facts || s.create.body.encrypted) return false
    this.#caps ??= this.#facts.capabilities().then((c) => new Set(c))
    const caps = await this.#caps
    const need = [Capability.AUDIT, Capability.HARD_DELETE, Capability.SUPERSESSION_CHAIN, ...(s.tenant === null ? [] : [Capability.MULTI_TENANT])]
    return need.every((c) => caps.has(c))
  }

  /** `mem.facts` reads wait for `work`, the fact view being brought in line in the background (see FactLookup.hold). */
  hold(work: Promise<unknown>): void {
    this.#facts?.hold(work)
  }

  /** `mem.facts` reads first ask `due` for work to wait for (see FactLookup.holdWhenDue). */
  holdWhenDue(due: () => Promise<unknown> | undefined): void {
    this.#facts?.holdWhenDue(due)
  }

  /**
   * Whether the pool's facts may show a memory that `view` holds expired: the pool has a fact view,
   * a memory in it expired, and the facts were not brought in line since it did (not in this
   * session, or with a view it has outlived: `now` at or past that view's first expiry).
   */
  outlived(view: View): boolean {
    if (view.expired.length === 0 || view.s.create.body.encrypted) return false
    const seen = this.#seen.get(view.s.id)
    return seen === undefined || view.now >= seen.until
  }

  /**
   * Current memories of the pool whose fact the fact store refused, with its reason (oldest first).
   * Records that arrive by sync meet the API's caps before they reach the view (record-shape.ts), so
   * this stays empty unless the two sets of caps disagree; such a memory is then reported here and
   * left without a fact, and never stops the facts of other memories, sharing or revocation.
   */
  refused(view: View): Array<{ readonly memoryId: MemoryId; readonly reason: string }> {
    const out: Array<{ readonly memoryId: MemoryId; readonly reason: string }> = []
    for (const [id, reason] of this.#refused.get(view.s.id) ?? []) if (view.current.has(id)) out.push({ memoryId: id as MemoryId, reason })
    return out
  }

  /**
   * One bulk write, whose refusal by the fact store (INVALID_ARGUMENT: one write's input) is taken
   * apart: the halves are written again, down to the writes refused alone, which are noted in
   * `#refused`. A bad write costs log2(n) more bulk writes, and the others land as they would have.
   * Any other failure (storage, a closed store) is the batch's and is thrown.
   */
  async #writeIsolated(facts: ViewedFactStore, pool: string, ids: readonly string[], writes: readonly FactWrite[], out: Map<string, FactRef>): Promise<void> {
    if (ids.length === 0) return
    let refs: FactRef[]
    try {
      await this.#beforeChange()
      refs = await facts.writeMany(writes)
    } catch (err) {
      if (!isMemweaveError(err) || err.code !== ErrorCode.INVALID_ARGUMENT) throw err
      if (ids.length === 1) {
        let refused = this.#refused.get(pool)
        if (!refused) this.#refused.set(pool, (refused = new Map()))
        refused.set(ids[0]!, err.message)
        return
      }
      const half = ids.length >> 1
      await this.#writeIsolated(facts, pool, ids.slice(0, half), writes.slice(0, half), out)
      await this.#writeIsolated(facts, pool, ids.slice(half), writes.slice(half), out)
      return
    }
    const refused = this.#refused.get(pool)
    ids.forEach((id, i) => {
      out.set(id, refs[i]!)
      refused?.delete(id)
    })
  }

  static isFactual(m: LiveMemory, s: Structure): boolean {
    return !s.create.body.encrypted && !m.payload.ephemeral && s.policies.factTypes.includes(m.payload.type)
  }

  /**
   * The fact versions of the pool's memories, by memory id: of every memory (`ids` null), found
   * through the fact store's index of `metadata.pool`, or of the memories `ids` lists, through its
   * index of `metadata.memoryId` (FactLookup, not an audit(), which builds a public Memory of every
   * fact in the store).
   */
  async #factsOf(s: Structure, ids: ReadonlySet<string> | null): Promise<PoolFacts> {
    this.indexFacts()
    const versions = ids === null ? await this.#facts!.versionsWhere('pool', s.id) : ids.size ? await this.#facts!.versionsWhere('memoryId', [...ids]) : []
    return new PoolFacts(ids === null ? versions : versions.filter((f) => f.metadata['pool'] === s.id), s)
  }

  /** Memory id -> its current (head) fact ref, for the memories `ids` lists. */
  async refs(view: View, ids: Iterable<string>): Promise<Map<string, FactRef>> {
    const out = new Map<string, FactRef>()
    if (!(await this.enabled(view.s))) return out
    const facts = await this.#factsOf(view.s, new Set(ids))
    for (const id of facts.byMemory.keys()) {
      const head = facts.head(id)
      if (head) out.set(id, head.ref)
    }
    return out
  }

  /**
   * `dirty` and every memory that became current since this pool's facts were last brought in line,
   * by whatever path: a loser whose winner was forgotten, a resolution decided again, a merge or
   * forget on another replica arriving in some order. Callers name what their operation made
   * current, and some interleavings of concurrent resolves, merges and forgets made a memory
   * current by a path none of them named: it had no fact (test/pools/pools-incremental.test.ts found it
   * in 4% of random histories). A memory that stayed current is not in it, so a fact its user
   * deleted through `mem.facts.delete` is not written again. After a patch only the patched
   * memories and their ancestry (`scope`) can have changed, and only they are compared; after a derivation,
   * every current memory is (the reconcile reads the whole pool's facts then anyway).
   */
  #newlyCurrent(view: View, dirty: ReadonlySet<string>, scope: ReadonlySet<string> | null, changed: ReadonlySet<string>): Set<string> {
    const fresh = new Set(dirty)
    const pool = view.s.id
    let before = this.#wasCurrent.get(pool)
    let looked = this.#looked.get(pool)
    // A start after an open (scoped, nothing recorded yet): currency is recorded memory by memory.
    if (scope && !before) {
      this.#wasCurrent.set(pool, (before = new Set()))
      this.#looked.set(pool, (looked = new Set()))
    }
    if (scope && before) {
      for (const id of scope) {
        // Not looked at since the open: it was current then if it is now and no patch since changed it.
        const was = looked === undefined || looked.has(id) ? before.has(id) : view.current.has(id) && !changed.has(id)
        looked?.add(id)
        if (!view.current.has(id)) before.delete(id)
        else {
          if (!was) fresh.add(id)
          before.add(id)
        }
      }
      return fresh
    }
    if (before) for (const id of view.current.keys()) if (!before.has(id) && (looked === undefined || looked.has(id) || changed.has(id))) fresh.add(id)
    this.#wasCurrent.set(pool, new Set(view.current.keys()))
    this.#looked.delete(pool)
    return fresh
  }

  /**
   * Brings the fact view of one pool in line with `view`. `dirty` are memories a pool operation
   * just made current; `importanceOf` gives the value to record. When only memories arrived since
   * the last reconcile of this view (the pool's view was patched, not rebuilt), only the facts of
   * `dirty` and of the memories they supersede can be out of line, and only those are looked up;
   * so after views built again over the same structure (a tombstone, an expiry) or patched by a
   * forget, with the memories those changed (the view's lineage); otherwise (a resolution, an authority change,
   * another handle's changes: the pool was derived again) every fact of the pool is.
   */
  async reconcile(view: View, dirty: ReadonlySet<string>, importanceOf: (m: LiveMemory) => number): Promise<void> {
    if (!(await this.enabled(view.s))) return
    const facts = this.#facts!
    const s = view.s
    const seen = this.#seen.get(s.id)
    this.#seen.set(s.id, { live: view.live, lineage: view.lineage, until: view.stableUntil })
    const rebuilt = view.lineage.take()
    // What became current in a patch is in the patch's scope, and so is its ancestry: one scope serves both.
    // A view patched in place by a forget (view.ts `forget`) keeps its maps and notes what it changed in its lineage too.
    // (One view, or views built one after another over one structure, share a lineage; null: too many changed, read everything.)
    const changed = rebuilt === null || rebuilt.size === 0 ? dirty : new Set([...dirty, ...rebuilt])
    // The first reconcile of a pool after an open, of a view patched from the pool's first
    // derivation (not derived again since; not a join, which names most of the pool), starts from
    // the facts in storage as the last session left them, in line with the pool (close waits for
    // maintenance; when the marker rows say a session was killed, or are missing, the open brings
    // every pool in line first: maintenance.ts `#repair`), and looks only at what changed since: the
    // patches' memories and those that expired while the store was closed. Not O(pool) in a write
    // (issue 31, factview31, factview31b).
    const start = this.#trusted && seen === undefined && view.lineage.opening && rebuilt !== null && changed.size + view.expired.length <= view.live.size / 2
    const scope = (start || seen?.lineage === view.lineage) && rebuilt !== null
      ? touched(view, start && view.expired.length ? new Set([...changed, ...view.expired.map((m) => m.id)]) : changed)
      : null
    const fresh = this.#newlyCurrent(view, dirty, scope, changed)
    // Reading the whole pool (a join's view, a pool derived again): the index step 5 looks up is
    // built now, with the O(pool) work it costs, rather than in the first forget (issue 31).
    if (scope === null) view.index.buildDuplicates()
    let known = await this.#factsOf(s, scope)
    const heads = (id: string): readonly FactEntry[] => known.heads(id)
    // Current memories whose fact is current now: this reconcile must not leave them without one.
    const hadFact: string[] = []
    for (const id of known.byMemory.keys()) if (view.current.has(id) && heads(id).length > 0) hadFact.push(id)
    // Head facts this reconcile takes away (deletes, or continues with a later version): another
    // current memory, outside the scope, may have been answered with one of them (step 5).
    const released: FactEntry[] = []

    // Each change waits for the session's marker row (fact-view-marker.ts): resolved after the first.
    const change = async (run: () => Promise<unknown>): Promise<unknown> => {
      await this.#beforeChange()
      return run()
    }
    // Calls are issued together so the fact store commits them in one transaction per tick.
    const all = async (calls: Array<Promise<unknown>>): Promise<boolean> => {
      await Promise.all(calls)
      return calls.length > 0
    }

    // 1. Views of forgotten memories go entirely (GMP repairs the chain: a predecessor's view is current again).
    const gone: Array<Promise<unknown>> = []
    for (const [id, list] of known.byMemory) {
      if (view.live.has(id)) continue
      for (const f of list) {
        if (f.supersededBy === null) released.push(f)
        gone.push(change(() => facts.delete(f.ref)))
      }
    }
    if (await all(gone)) known = await this.#factsOf(s, scope)

    // 2. New current memories get a view, continuing their predecessor's chain where there is one,
    //    all in one bulk write (one mutation, one transaction), not one GMP write per memory.
    // Each write's objects are built once (a join writes a view of every memory of the pool: what
    // is built per memory here, the collector pays for).
    const viewOf = (m: LiveMemory): FactWrite => {
      const p = m.payload
      const content = statement(p)
      const metadata: Record<string, unknown> = {
        subject: p.subject, predicate: p.predicate, object: p.object, importance: importanceOf(m) / 10_000,
        pool: s.id, memoryId: m.id, memoryType: p.type, confidence: p.confidence,
      }
      if (p.context) metadata['context'] = p.context
      if (p.noTraining) metadata['no_training'] = true
      const pred = latestHead(p.supersedes, heads)
      if (pred) {
        released.push(pred)
        return { content, options: { tenantId: s.tenant, metadata }, supersedes: pred.ref }
      }
      // Valid from when the memory was made. It also keeps two memories that say one text apart
      // when they were made at different times: GMP answers a re-assertion of a current text with
      // the fact already there (same text, validFrom and signer). Two made in one millisecond still
      // share one fact, which names one of them; step 5 gives the other its own when it goes.
      // A writer chooses createdAt: one a GMP time cannot hold is left out rather than failing the batch.
      const made = Number.isInteger(p.createdAt) && p.createdAt >= 0 && p.createdAt <= LAST_GMP_MS
      return { content, options: made ? { tenantId: s.tenant, metadata, validFrom: new Date(p.createdAt) } : { tenantId: s.tenant, metadata } }
    }
    // A join brings a whole pool at once: in bulk writes of WRITE_CHUNK, each after a macrotask, so
    // that other work (a status listener, a write, a read of mem.pools) is not held up for the whole view.
    // A write the fact store refuses is left out and reported (`refused`), never failing the others.
    const writeViews = async (ids: readonly string[]): Promise<Map<string, FactRef>> => {
      const out = new Map<string, FactRef>()
      for (let i = 0; i < ids.length; i += WRITE_CHUNK) {
        if (i > 0) await new Promise<void>((ok) => setTimeout(ok, 0))
        const chunk = ids.slice(i, i + WRITE_CHUNK)
        await this.#writeIsolated(facts, s.id, chunk, chunk.map((id) => viewOf(view.current.get(id)!)), out)
      }
      return out
    }
    const toWrite: string[] = []
    for (const id of fresh) {
      const m = view.current.get(id)
      if (m !== undefined && FactView.isFactual(m, s) && heads(id).length === 0) toWrite.push(id)
    }
    const written = await writeViews(toWrite)
    if (written.size) known = await this.#factsOf(s, scope)
    // A write of a text that another memory's current fact already says is answered with that fact
    // (GMP §1.2: re-asserting a current fact is idempotent), and the memory has no fact of its own.
    // When that other memory is not current, step 3 deletes its fact and the text with it: delete it
    // now and write again. (Two current memories saying one text share its fact.)
    const again: string[] = []
    for (const [id, ref] of written) {
      if (heads(id).length > 0) continue
      const entry = await facts.entry(ref)
      const owner = entry?.metadata['memoryId']
      if (!entry || typeof owner !== 'string' || owner === id || view.current.has(owner)) continue
      released.push(entry)
      await change(() => facts.delete(ref))
      again.push(id)
    }
    if (again.length) {
      known = await this.#factsOf(s, scope)
      await writeViews(again)
      known = await this.#factsOf(s, scope)
    }

    // 3. Memories that stopped being current leave current answers; two handles racing may both
    //    have written a view of one memory: the first stays. Deleting a head makes its GMP
    //    predecessor current again (chain repair), which may be the view of a memory that is not
    //    current either (records from another replica arrive in any order: an update of an update
    //    before the update itself), so repeat until no view of a non-current memory is a head.
    for (let round = 0; round < 64; round++) {
      const stale: Array<Promise<unknown>> = []
      for (const id of known.byMemory.keys()) {
        for (const f of known.extraHeads(id, view.current.has(id))) {
          released.push(f)
          stale.push(change(() => facts.delete(f.ref)))
        }
      }
      if (!(await all(stale))) break
      known = await this.#factsOf(s, scope)
    }

    // 4. A deletion above can take a current memory's fact with it: its fact continued the chain of
    //    a fact deleted here (two merges of one memory on two replicas fork a chain), or said the text
    //    a deleted fact said. A current memory that had its fact, or was to get one, gets it again.
    const lost: string[] = []
    for (const id of new Set([...hadFact, ...written.keys()])) if (view.current.has(id) && heads(id).length === 0) lost.push(id)
    if ((await writeViews(lost)).size) known = await this.#factsOf(s, scope)

    // 5. Two current memories that say one text, made in one millisecond (written on two replicas
    //    before they met, say), share one GMP fact: the second's write was answered with the first's
    //    (GMP §1.2), which names only the first in its metadata. A head this reconcile took away
    //    (steps 1 to 4: deleted, or continued by a later version) can be such a shared fact, and the
    //    other memory, which the patch's scope does not reach (nothing links it to the one that
    //    changed), was left current without its text. Those that say the text of a fact taken away
    //    are found through the view's index (by duplicate key, per factual type: O(facts taken
    //    away), not O(pool)), and those without a head fact of their own get one. Such a write
    //    seldom continues a chain (its predecessors' facts are gone or out of the scope); when one
    //    does, the next round looks at what it took away.
    for (let done = 0, round = 0; done < released.length && round < 64; round++) {
      const sayers = sayersOf(view, released.slice(done))
      done = released.length
      if (!sayers.size) break
      const theirs = await this.#factsOf(s, sayers)
      const bare = [...sayers].filter((id) => theirs.heads(id).length === 0)
      if ((await writeViews(bare)).size) known = await this.#factsOf(s, scope)
    }
  }
}

/** The text of a memory's fact (its GMP content), from the memory or from the metadata of its fact. */
function statement(p: { readonly subject: unknown; readonly predicate: unknown; readonly object: unknown; readonly context?: unknown }): string {
  return `${String(p.subject)} ${String(p.predicate).replace(/_/g, ' ')} ${String(p.object)}${p.context ? ` (${String(p.context)})` : ''}`
}

/**
 * The current factual memories, other than the one each fact names, that say the text of one of
 * `facts`: by the view's index of duplicate keys, one look-up per fact and factual type.
 */
function sayersOf(view: View, facts: readonly FactEntry[]): Set<string> {
  const out = new Set<string>()
  const s = view.s
  const seen = new Set<string>()
  for (const f of facts) {
    const { subject, predicate, object, context, memoryId } = f.metadata
    if (typeof subject !== 'string' || typeof predicate !== 'string') continue
    if (typeof object !== 'string' && typeof object !== 'number' && typeof object !== 'boolean') continue
    const said = statement(f.metadata as { subject: string; predicate: string; object: unknown; context?: unknown })
    if (seen.has(said)) continue
    seen.add(said)
    for (const type of new Set(s.policies.factTypes)) {
      for (const m of view.index.duplicates(duplicateKeyOf(type, subject, predicate, object, typeof context === 'string' ? context : null))) {
        if (m.id !== memoryId && FactView.isFactual(m, s) && statement(m.payload) === said) out.add(m.id)
      }
    }
  }
  return out
}

const NONE: readonly FactEntry[] = Object.freeze([])

/** The head with the highest sequence among the heads of `ids` (the predecessor a new view continues), without listing them. */
function latestHead(ids: readonly string[], heads: (id: string) => readonly FactEntry[]): FactEntry | undefined {
  let best: FactEntry | undefined
  for (const id of ids) for (const f of heads(id)) if (!best || f.sequence > best.sequence) best = f
  return best
}

/** Facts per bulk write of one reconcile (see `writeViews`). */
const WRITE_CHUNK = 5000

/** 9999-12-31T23:59:59.999Z, the last instant a GMP time (four-digit year) holds. */
const LAST_GMP_MS = 253_402_300_799_999

/**
 * The memories whose facts a patch of the view can have put out of line: the dirty ones and their
 * ancestry (every memory they supersede, through forgotten and expired links). Not only the nearest
 * live ones: deleting the head fact of a memory that stopped being current makes its GMP
 * predecessor, the fact of an older version, a head again. The cost is the length of the chains,
 * not the size of the pool.
 */
function touched(view: View, dirty: ReadonlySet<string>): Set<string> {
  const out = new Set<string>()
  const todo = [...dirty]
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (out.has(id)) continue
    out.add(id)
    todo.push(...(view.s.memories.get(id)?.payload?.supersedes ?? view.s.forgotten.get(id) ?? []))
  }
  return out
}
