import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { defer } from '../storage/batcher.js'
import { mayForget } from './authority.js'
import type { FactView } from './fact-view.js'
import { FactViewGuard } from './fact-view-guard.js'
import { byRecency, mergePayloads } from './merge.js'
import { importanceOf } from './present.js'
import type { Presenter } from './presenter.js'
import { PoolKind, type PoolRecord, type ResolveBody, type TombstoneReason } from './records.js'
import type { Ctx, PoolReplica } from './replica.js'
import type { LiveMemory, Structure } from './structure.js'
import type { MergeStrategy, PoolId } from './types.js'

/**
 * What follows a committed change of a pool, once per pool and tick: expired memories forgotten,
 * near-duplicates merged (autoMerge), the pool pruned to its maxSize, and the pool's fact view
 * (fact-view.ts) brought in line. Decisions of the replica that writes: a replica that only
 * received records (`synced`) updates its fact view and nothing else, or every replica would make
 * its own, divergent merge of the same pair.
 */
export class Maintenance {
  readonly #r: PoolReplica
  readonly #factView: FactView
  readonly #show: Presenter
  readonly #pending = new Map<string, { dirty: Set<string>; done: Promise<Map<string, string>> }>()
  #serial: Promise<unknown> = Promise.resolve()
  #stopped = false

  constructor(r: PoolReplica, factView: FactView, show: Presenter) {
    this.#r = r
    this.#factView = factView
    this.#show = show
    factView.holdWhenDue(() => this.#expiries())
    this.#guard = factView.present
      ? new FactViewGuard(r, factView, (pool) => this.#exclusive(async () => {
        await new Promise<void>((res) => defer(res))
        if (this.#stopped || !r.state.structure(pool)) return
        // Read whole, nothing named as newly current: a fact its user deleted stays deleted; forgotten memories' facts go.
        factView.unsee(pool)
        await this.#reconcile(r.context(pool), new Set())
      }))
      : null
  }

  /** The marker rows that say whether the facts were left in line (null: no fact store). */
  readonly #guard: FactViewGuard | null

  /** At a clean close, once maintenance has run: the facts are left in line. */
  async closed(): Promise<void> {
    await this.#guard?.closed()
  }

  /**
   * Before a read of `mem.facts`: maintenance for each pool whose fact view shows a memory that has
   * expired since, as after a commit (a writer's `expired` tombstone, then the facts), which the read
   * waits for. Else the fact stayed until the next commit, and an operation that commits nothing (a
   * write answered with an existing memory, a merge of nothing) or none at all left `mem.facts`
   * answering with a memory `mem.pools` no longer lists (i-resolve's repro).
   */
  #expiries(): Promise<unknown> | undefined {
    if (this.#stopped) return undefined
    const due: Array<Promise<unknown>> = []
    for (const view of this.#r.state.derivedViews(this.#r.now())) if (this.#factView.outlived(view)) due.push(this.afterCommit(view.s.id, []))
    return due.length ? Promise.all(due) : undefined
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#serial.then(fn, fn)
    this.#serial = run.catch(() => undefined)
    return run
  }

  /** Resolves once the maintenance queued so far has run. */
  async idle(): Promise<void> {
    await this.#serial
  }

  /** After close: what other replicas send is no longer reflected here. */
  stop(): void {
    this.#stopped = true
    this.#guard?.stop()
  }

  /** Runs maintenance once for everything committed in this tick; resolves to replacements (autoMerge). */
  afterCommit(pool: PoolId, dirty: Iterable<string>): Promise<Map<string, string>> {
    let pending = this.#pending.get(pool)
    if (!pending) {
      const entry = { dirty: new Set<string>(), done: undefined as unknown as Promise<Map<string, string>> }
      entry.done = this.#exclusive(async () => {
        await new Promise<void>((r) => defer(r))
        this.#pending.delete(pool)
        return this.#maintain(pool, entry.dirty)
      })
      this.#pending.set(pool, (pending = entry))
    }
    for (const id of dirty) pending.dirty.add(id)
    return pending.done
  }

  async #maintain(pool: PoolId, dirty: Set<string>): Promise<Map<string, string>> {
    const r = this.#r
    const replaced = new Map<string, string>()
    await r.ready()
    let ctx = r.context(pool)
    // A reader forgets nothing, but its facts follow what its view shows (an expired memory hidden).
    if (!ctx.rights.write) {
      await this.#reconcile(ctx, dirty)
      return replaced
    }
    const expired = this.forgettable(ctx, ctx.view.expired, 'expired')
    if (expired.length) {
      for (const id of predecessors(ctx.s, expired)) dirty.add(id)
      // Named too, for the fact view: one that expired while the store was closed was never live in
      // this process's views, so no view's lineage notes it, and a reconcile started after the open
      // finds its facts by the ids it is given (fact-view.ts).
      for (const id of expired) dirty.add(id)
      await r.tombstone(ctx.s, expired, 'expired')
      ctx = r.context(pool)
    }
    if (ctx.s.policies.autoMerge) {
      for (const id of [...dirty]) {
        const m = ctx.view.current.get(id)
        if (!m || m.payload.ephemeral) continue
        const twin = ctx.view.index
          .nearDuplicates(m, ctx.s.policies.similarity)
          .sort((a, b) => byRecency({ id: a.id, hlc: a.record.hlc, payload: a.payload }, { id: b.id, hlc: b.record.hlc, payload: b.payload }))[0]
        if (!twin) continue
        const merged = await writeMerge(r, ctx, [twin, m], ctx.s.policies.mergeStrategy)
        replaced.set(id, merged)
        dirty.add(merged)
        ctx = r.context(pool)
      }
    }
    const victims = this.#pruneVictims(ctx, new Set([...dirty, ...replaced.values()]))
    if (victims.length) {
      for (const id of predecessors(ctx.s, victims)) dirty.add(id)
      await r.tombstone(ctx.s, victims, 'pruned')
      ctx = r.context(pool)
    }
    await this.#reconcile(ctx, dirty)
    return replaced
  }

  async #reconcile(ctx: Ctx, dirty: ReadonlySet<string>): Promise<void> {
    await this.#factView.reconcile(ctx.view, dirty, (m) => importanceOf(ctx.view, m))
  }

  /**
   * Who may write, or what counts as a fact, changed (share, revoke, configure, or such a record
   * from another replica): memories of a member may have become valid or invalid, so the fact view
   * of every current memory is brought in line, not only of the ones just written.
   */
  afterAuthority(pool: PoolId): Promise<void> {
    return this.#exclusive(async () => {
      if (this.#stopped) return
      const r = this.#r
      await r.ready()
      if (!r.state.structure(pool)) return
      const ctx = r.context(pool)
      await this.#reconcile(ctx, new Set(ctx.view.current.keys()))
    })
  }

  /**
   * The sync layer stored records of `pool` that came from another replica, or hard-deleted
   * forgotten ones (`ids`): catch up and bring the pool's fact view in line. Resolves once it is.
   */
  synced(pool: PoolId, ids: readonly string[], { background = false }: { background?: boolean } = {}): Promise<void> {
    const done = this.#exclusive(async () => {
      // Not waited for (a join): the sync layer reports `synced` and other work gets a turn before
      // the first slice of the view, which holds the thread for a while (the hold below is taken now).
      if (background) await new Promise<void>((r) => defer(r))
      if (this.#stopped) return
      const r = this.#r
      await r.ready()
      if (!r.state.structure(pool)) return
      // Each record looked up once (a join names every record of the pool): its kind says whether
      // it is chatter, an authority change or a resolution.
      let chatterOnly = true
      let authority = false
      const resolved: ResolveBody[] = []
      for (const id of ids) {
        const rec = r.state.record(id)
        const kind = rec?.kind ?? ''
        // Reads and ratings of others (the bulk of what travels) change no memory's currency.
        if (kind !== PoolKind.ACCESS && kind !== PoolKind.RATING) chatterOnly = false
        if (AUTHORITY.has(kind)) authority = true
        if (kind === PoolKind.RESOLVE) resolved.push(rec!.body as ResolveBody)
      }
      if (chatterOnly) return
      const ctx = r.context(pool)
      const dirty = new Set(authority ? ctx.view.current.keys() : ids.filter((id) => ctx.s.memories.has(id)))
      // A resolution decides a pair both ways: a later one may make the earlier loser current again.
      for (const body of resolved) for (const m of [body.winner, ...body.losers]) dirty.add(m)
      for (const id of predecessors(ctx.s, ids.filter((id) => ctx.s.forgotten.has(id)))) dirty.add(id)
      await this.#reconcile(ctx, dirty)
    })
    // The sync layer does not wait for a big change (a join): `mem.facts` reads do, so that they
    // never answer from a fact view half brought in line.
    this.#factView.hold(done)
    return done
  }

  /**
   * The ids among `memories` that this identity may forget for `reason` (authority.ts `mayForget`,
   * the rule every replica applies to the tombstone): a tombstone that would be ignored is not written.
   */
  forgettable(ctx: Ctx, memories: readonly { readonly id: string; readonly record: PoolRecord }[], reason: TombstoneReason): string[] {
    const me = this.#r.identity?.did
    if (!me) return []
    return memories.filter((m) => mayForget(ctx.s, me, ctx.rights.write, reason, ctx.now, m.record)).map((m) => m.id)
  }

  #pruneVictims(ctx: Ctx, keep: ReadonlySet<string>): string[] {
    const max = ctx.s.policies.maxSize
    if (max === null || ctx.view.live.size <= max) return []
    const stored = [...ctx.view.live.values()]
    const target = Math.floor(max * ctx.s.policies.pruningThreshold)
    // Only memories this identity may forget: another writer's pruned tombstone would be ignored everywhere.
    const mine = new Set(this.forgettable(ctx, stored, 'pruned'))
    const ranked = stored
      .filter((m) => !m.payload.permanent && !keep.has(m.id) && mine.has(m.id))
      .map((m) => ({ m, imp: importanceOf(ctx.view, m) }))
      .sort((a, b) => a.imp - b.imp || a.m.payload.createdAt - b.m.payload.createdAt || (a.m.id < b.m.id ? -1 : 1))
    return ranked.slice(0, Math.max(0, stored.length - target)).map((x) => x.m.id)
  }
}

/** Records that change which memories are valid, or which are facts. */
const AUTHORITY: ReadonlySet<string> = new Set([PoolKind.CREATE, PoolKind.ACL, PoolKind.POLICY])

/** Memories that may become current again when `removed` go (their supersession predecessors, and losers to them). */
export function predecessors(s: Structure, removed: readonly string[]): string[] {
  const gone = new Set(removed)
  const out = new Set<string>()
  const walk = (id: string): void => {
    for (const p of s.memories.get(id)?.payload?.supersedes ?? s.forgotten.get(id) ?? []) {
      if (gone.has(p)) walk(p)
      else out.add(p)
    }
  }
  removed.forEach(walk)
  // A conflict's loser is current again once its winner goes.
  for (const [loser, winner] of s.resolutions) if (gone.has(winner) && !gone.has(loser)) out.add(loser)
  return [...out]
}

/**
 * LCS-004 §4.4: writes the merge of current memories of one pool (merge.ts `mergePayloads`), which
 * supersedes them; returns its id.
 * @throws CONFLICT when one is already superseded; INVALID_ARGUMENT for EPHEMERAL or mixed types.
 */
export async function writeMerge(r: PoolReplica, ctx: Ctx, sources: readonly LiveMemory[], strategy: MergeStrategy): Promise<string> {
  for (const m of sources) {
    if (ctx.view.supersededBy.has(m.id)) throw new MemweaveError(ErrorCode.CONFLICT, `memory ${m.id} is already superseded`, { id: m.id })
    if (m.payload.ephemeral) throw invalidArgument('memoryIds', 'EPHEMERAL memories cannot be merged')
    if (m.payload.type !== sources[0]!.payload.type) throw invalidArgument('memoryIds', 'memories of different types cannot be merged')
  }
  const payload = mergePayloads(sources.map((m) => ({ id: m.id, hlc: m.record.hlc, payload: m.payload })), strategy, ctx.now)
  const put = await r.memoryRecord(ctx.s, { ...payload, noTraining: payload.noTraining || ctx.s.create.body.noTraining })
  await r.save([put])
  return put.record.id
}
