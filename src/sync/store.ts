import * as Y from 'yjs'
import { parseHlc } from '../core/clock.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { parsePoolId } from '../pools/input.js'
import { isPooled, signedRecordId, type SignedRecord } from '../core/signed-record.js'
import { forgottenBy } from '../pools/state.js'
import { POOL_KINDS, PoolKind, type MemoryBody, type PoolRecord, type ResolveBody } from '../pools/records.js'
import type { PoolId } from '../pools/types.js'
import { logFor, type RecordLog } from '../records/log.js'
import type { LogChange } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import { decodeRecord, sameContent } from './codec.js'
import { CHECKPOINT_KIND, MAX_COVERED, checkpointBody, isCheckpointKind, recordDigest } from './checkpoint.js'
import { CONTENT_KINDS, isContentKind } from './content.js'
import { compareQuarantined, type Plan } from './materialize.js'
import { Origin } from './pool-doc.js'
import { PoolSync } from './pool-sync.js'
import { EVICTING_REASONS, bareQuarantineRow, quarantineRowId, toQuarantineRow, toReport, type QuarantineRow, type QuarantinedRecord } from './quarantine.js'
import { SignatureCache } from './signatures.js'
import { SliceSize } from './slice.js'
import { SyncState, type ConnectOptions, type PoolSyncStatus, type Sync, type SyncProvider, type SyncStatus } from './types.js'
import { withoutTooDeep } from './update-depth.js'
import { websocketProvider } from './websocket.js'

export interface SyncStoreOptions {
  /** Called after records of a pool were stored or hard-deleted from another replica (the pool store's fact view catches up). */
  readonly onApplied?: (pool: PoolId, ids: readonly string[], options: { readonly background: boolean }) => Promise<void>
  /**
   * A change of this many records or more (a join of a big pool) is not waited for by the pass that
   * stored it: the pools module brings its fact view in line in the background (`#applied`). Default 10,000.
   */
  readonly backgroundFrom?: number
  /** Yjs client ids for new documents (tests inject them for reproducible runs). Random by default. */
  readonly clientId?: () => number
  /** Compact a pool's persisted updates once it has this many rows. Default 100. */
  readonly compactEvery?: number
  /** The WebSocket class for `connect()` where the runtime has none (Node 20: the `ws` package's). */
  readonly WebSocketPolyfill?: unknown
  /** Signature verdicts, shared with the pools module so that a record is verified once per Memory; a cache of its own by default. */
  readonly signatures?: SignatureCache
  /**
   * About how long one materializer pass may take, in ms (default 100): a pass takes as many
   * changed keys as fit at the measured cost per key, fairly by author (slice.ts), so an honest
   * record never waits for a whole flood of another writer's.
   */
  readonly passBudgetMs?: number
  /**
   * The same while a pool catches up on what an exchange of states brought (a device joining, or
   * back from offline; default 1000): nobody waits on one record then, and every pass has a part
   * that does not depend on its size, so passes are large and few.
   */
  readonly bulkBudgetMs?: number
  /**
   * On the pool owner's replica: sign a checkpoint (checkpoint.ts) once this many accepted records
   * are covered by none. Default 1000; 0 makes none.
   */
  readonly checkpointEvery?: number
  /** Take a valid checkpoint of the owner in place of each covered record's signature check. Default true. */
  readonly trustCheckpoints?: boolean
}

const STATE_RANK: Record<SyncState, number> = { offline: 0, connected: 1, syncing: 2, synced: 3 }

/** Records per record-log batch when a pass stores many (a device catching up): large transactions, not one per pass of everything. */
const APPEND_CHUNK = 10_000

/** Keys of a catch-up's first pass, before its cost per key is measured. */
const BULK_FIRST = 1_000

/** The longest delay a timer takes (2^31 - 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** A change of this many records or more is taken in by the pools module in the background (`#applied`). */
const BACKGROUND_FROM = 10_000

/** Whether two quarantine reports say the same (the stored row is rewritten only when not). */
function sameReport(a: QuarantinedRecord | undefined, b: QuarantinedRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b)
}

/**
 * `mem.sync`: replicates pools, one Y.Doc each, under DESIGN.md's rule that the document is a
 * transport and a merge log, never the authority. One loop does all the work, one step at a time,
 * so the steps never race each other:
 * 1. outbound: pooled records the record log appended (`pool-*` ones, and other modules' records
 *    that name a pool, content.ts) enter their pool's document: this Memory's commits at once,
 *    other handles' on the same database when the log catches up (its `onAppend` feed); the
 *    targets a tombstone may forget leave it in step 2;
 * 2. materialize (materialize.ts): the document's record set is judged; accepted records are
 *    appended through the record log and forgotten ones hard-deleted through it, in one batch (the
 *    pools module derives them from the log, and its fact view hears of them through `onApplied`);
 *    their keys leave the document; refused values go to quarantine; keys that vanished without a
 *    tombstone are healed from the store;
 * 3. persistence: the document's updates are appended to `syncUpdates`, and compacted (one row per
 *    pool, the garbage-collected state) after a key was removed or every `compactEvery` rows.
 */
export class SyncStore implements Sync {
  readonly #log: RecordLog
  readonly #ownsLog: boolean
  /** The quarantine and `syncUpdates` tables, and reads of records by kind or id: sync's own, not the record log's. */
  readonly #storage: StoragePort
  readonly #pools = new Map<PoolId, { sync: PoolSync; ready: Promise<void> }>()
  readonly #sigs: SignatureCache
  readonly #onApplied: SyncStoreOptions['onApplied']
  readonly #backgroundFrom: number
  readonly #clientId: (() => number) | undefined
  readonly #compactEvery: number
  readonly #WebSocket: unknown
  readonly #subscribers = new Set<(status: SyncStatus) => void>()
  readonly #unlisten: () => void
  /** Stops following other handles' commits (set while a pool is open). */
  #unfollow: (() => void) | undefined
  /** What the record log appended since the last pass, in order: the outbound step's input. */
  #appended: LogChange[] = []
  #running: Promise<void> | null = null
  #again = false
  #lastStatus = ''
  #closed = false
  /** How many changed keys a materializer pass takes (slice.ts): passes stay short during a flood. */
  readonly #slice: SliceSize
  /** The same while a pool catches up (a join): larger passes. */
  readonly #bulk: SliceSize
  /** The sizer the current pass took its slice from. */
  #sizer: SliceSize
  readonly #checkpointEvery: number
  readonly #trustCheckpoints: boolean
  /** Records the current pass took to judge (the cost per key of `#slice`). */
  #taken = 0
  #yield = false

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: SyncStoreOptions = {}) {
    const { log, owned } = logFor(source, {})
    this.#log = log
    this.#ownsLog = owned
    this.#storage = log.storage
    this.#sigs = options.signatures ?? new SignatureCache()
    this.#onApplied = options.onApplied
    this.#backgroundFrom = options.backgroundFrom ?? BACKGROUND_FROM
    this.#clientId = options.clientId
    this.#compactEvery = options.compactEvery ?? 100
    this.#WebSocket = options.WebSocketPolyfill
    this.#slice = new SliceSize(options.passBudgetMs ?? 50, { growth: 2 })
    // A catch-up's first pass need not feel its way up from a handful of keys: a thousand take tens
    // of ms against a budget of a second (a 100k join spent 0.35 s on passes of 4 to 1,000 keys).
    this.#bulk = new SliceSize(options.bulkBudgetMs ?? 1000, { first: BULK_FIRST })
    this.#sizer = this.#slice
    this.#checkpointEvery = options.checkpointEvery ?? 1000
    this.#trustCheckpoints = options.trustCheckpoints ?? true
    this.#unlisten = log.onAppend((change) => this.#heard(change))
  }

  // ---- the API ------------------------------------------------------------------------------------

  async open(poolId: string): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'sync is closed')
    const pool = parsePoolId(poolId)
    let entry = this.#pools.get(pool)
    if (!entry) {
      const sync = new PoolSync(pool, this.#storage, () => this.#changed(), this.#clientId?.(), () => this.#log.now())
      entry = { sync, ready: this.#load(sync) }
      this.#pools.set(pool, entry)
      this.#follow()
      entry.ready.catch(() => {
        this.#pools.delete(pool)
        this.#follow()
      })
    }
    return entry.ready
  }

  async connect(poolId: string, options: ConnectOptions): Promise<void> {
    if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
    const WebSocketPolyfill = options.WebSocketPolyfill ?? this.#WebSocket
    await this.attach(poolId, websocketProvider({ ...options, WebSocketPolyfill }))
  }

  async attach(poolId: string, provider: SyncProvider): Promise<void> {
    if (typeof provider !== 'object' || provider === null || typeof provider.connect !== 'function') {
      throw invalidArgument('provider', 'must be a SyncProvider (an object with connect())')
    }
    const pool = parsePoolId(poolId)
    await this.open(pool)
    const ps = this.#pools.get(pool)!.sync
    const slot = ps.addLink(provider.kind)
    slot.link = provider.connect(ps.pool, ps.doc, (state) => ps.report(slot, state))
  }

  async disconnect(poolId: string): Promise<void> {
    this.#pools.get(parsePoolId(poolId))?.sync.closeLinks()
  }

  async stop(poolId: string): Promise<void> {
    const pool = parsePoolId(poolId)
    const entry = this.#pools.get(pool)
    if (!entry) return
    await entry.ready.catch(() => undefined)
    await this.flush()
    this.#pools.delete(pool)
    entry.sync.destroy()
    await entry.sync.log.clear()
    await this.#storage.write(['quarantine'], async (tx) => {
      const rows = await tx.where<{ id: string }>('quarantine', 'pool', pool)
      await tx.delete('quarantine', rows.map((r) => r.id))
    })
    this.#follow()
    this.#changed()
  }

  async status(): Promise<SyncStatus> {
    return this.#status()
  }

  async subscribe(callback: (status: SyncStatus) => void): Promise<() => void> {
    if (typeof callback !== 'function') throw invalidArgument('callback', 'must be a function')
    this.#subscribers.add(callback)
    callback(this.#status())
    return () => void this.#subscribers.delete(callback)
  }

  async quarantine(poolId?: string): Promise<QuarantinedRecord[]> {
    const pool = poolId === undefined ? null : parsePoolId(poolId)
    await this.flush()
    const out: QuarantinedRecord[] = []
    for (const [id, { sync }] of this.#pools) if (pool === null || id === pool) out.push(...[...sync.quarantine.values()].sort(compareQuarantined).map(toReport))
    return out
  }

  async compact(poolId?: string): Promise<void> {
    const pool = poolId === undefined ? null : parsePoolId(poolId)
    for (const [id, { sync }] of this.#pools) if (pool === null || id === pool) sync.wantCompact = true
    this.#kick()
    await this.flush()
  }

  async flush(): Promise<void> {
    // Other handles' commits reach the feed when the log catches up: take what they committed so far.
    if (this.#pools.size > 0 && !this.#log.closed) await this.#log.ready().catch(() => undefined)
    await Promise.allSettled([...this.#pools.values()].map((e) => e.ready))
    while (this.#running) await this.#running
  }

  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    for (const { sync } of this.#pools.values()) sync.closeLinks()
    await this.flush()
    for (const { sync } of this.#pools.values()) sync.destroy()
    this.#pools.clear()
    this.#follow()
    this.#unlisten()
    this.#subscribers.clear()
    if (this.#ownsLog) await this.#log.close()
  }

  // ---- the loop ------------------------------------------------------------------------------------

  /** Other handles' commits reach the feed when the log catches up, which it does on their signal while followed. */
  #follow(): void {
    if (this.#pools.size > 0) {
      this.#unfollow ??= this.#log.follow()
      return
    }
    this.#unfollow?.()
    this.#unfollow = undefined
  }

  /**
   * The record log's feed: what one commit of this Memory, or one catch-up with other handles,
   * appended and removed. Taken by the next pass; a reload (the log rebuilt its state from the
   * records) makes every open pool look at all of its stored records again, which covers what
   * was waiting.
   */
  #heard(change: LogChange): void {
    if (this.#pools.size === 0) return
    // Another module's local records (facts) are none of sync's business.
    if (!change.reload && change.removed.length === 0 && !change.records.some(isPooled)) return
    if (change.reload) {
      this.#appended = []
      for (const { sync } of this.#pools.values()) sync.wantReconcile = true
    } else this.#appended.push(change)
    this.#kick()
  }

  async #load(ps: PoolSync): Promise<void> {
    // Storage open and the log caught up (a store built alone on a port opens it here).
    await this.#log.ready()
    const updates = await ps.log.load()
    // A too-deep value persisted before the check existed would throw here on every open (update-depth.ts).
    for (const u of updates) Y.applyUpdate(ps.doc, withoutTooDeep(u).update, Origin.LOAD)
    const rows = await this.#storage.read(['quarantine'], (tx) => tx.where<QuarantinedRecord>('quarantine', 'pool', ps.pool))
    ps.quarantine = new Map(rows.map((q) => [q.key, toReport(q)]))
    ps.listen()
    if (ps.log.rows > this.#compactEvery) ps.wantCompact = true
    this.#kick()
    while (this.#running) await this.#running
  }

  #changed(): void {
    this.#kick()
    this.#notify()
  }

  #kick(): void {
    if (this.#closed && this.#pools.size === 0) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false
          // Let the changes of this tick gather into one pass; after a bounded slice, let a macrotask run too.
          if (this.#yield) {
            this.#yield = false
            await new Promise<void>((ok) => setTimeout(ok, 0))
          } else await Promise.resolve()
          await this.#pass()
        } while (this.#again)
      } finally {
        this.#running = null
        this.#notify()
      }
    })()
  }

  async #pass(): Promise<void> {
    const pools = [...this.#pools.values()].map((e) => e.sync).filter((ps) => ps.loaded)
    for (const ps of pools) {
      try {
        if (ps.wantReconcile) await this.#reconcile(ps)
      } catch (err) {
        this.#fail(ps, err)
      }
    }
    if (this.#appended.length) {
      try {
        this.#outbound()
      } catch (err) {
        for (const ps of pools) this.#fail(ps, err)
      }
    }
    for (const ps of pools) {
      try {
        if (ps.wantMaterialize) await this.#materialize(ps)
        await ps.log.flush()
        if (ps.wantCompact || ps.log.rows >= this.#compactEvery) {
          ps.wantCompact = false
          await ps.log.compact(ps.doc)
        }
      } catch (err) {
        // Judged again on the next change (storage may have been busy or full): nothing is lost, the document keeps it all.
        ps.wantMaterialize = true
        this.#fail(ps, err)
      }
    }
  }

  #fail(ps: PoolSync, err: unknown): void {
    ps.error = err instanceof Error ? err.message : String(err)
  }

  /** Every record of the pool in storage enters the document (on open, or when the record log reloaded). */
  async #reconcile(ps: PoolSync): Promise<void> {
    ps.wantReconcile = false
    const records = await this.#storage.read(['records'], async (tx) => {
      const all: PoolRecord[] = []
      for (const kind of [...POOL_KINDS, ...CONTENT_KINDS, CHECKPOINT_KIND]) all.push(...(await tx.where<PoolRecord>('records', 'kind', kind)))
      return all.filter((r) => isPooled(r) && r.pool === ps.pool)
    })
    ps.stored.clear()
    for (const r of records) ps.stored.add(r.id)
    this.#toDoc(ps, records)
    ps.catchUpOn(records.map((r) => r.id))
    ps.fullCheck = true
    ps.fullApply = true
    ps.wantMaterialize = true
  }

  /**
   * What the record log appended since the last pass: pooled records not held yet enter their
   * pool's document. Net of the changes in between: a record removed after it was appended is not
   * sent. What this layer appended itself comes back here too, already held (`stored`): skipped.
   */
  #outbound(): void {
    const changes = this.#appended
    this.#appended = []
    const appended = new Map<string, PoolRecord>()
    for (const change of changes) {
      for (const r of change.records) if (isPooled(r)) appended.set(r.id, r as PoolRecord)
      for (const id of change.removed) {
        appended.delete(id)
        for (const { sync } of this.#pools.values()) sync.stored.delete(id)
      }
    }
    const byPool = new Map<PoolId, PoolRecord[]>()
    for (const r of appended.values()) {
      const entry = this.#pools.get(r.pool)
      // A pool still loading takes every stored record in its first reconcile.
      if (!entry || !entry.sync.loaded || entry.sync.stored.has(r.id)) continue
      entry.sync.stored.add(r.id)
      let list = byPool.get(r.pool)
      if (!list) byPool.set(r.pool, (list = []))
      list.push(r)
    }
    for (const [pool, records] of byPool) this.#toDoc(this.#pools.get(pool)!.sync, records)
  }

  /**
   * Local records into the document. The keys a tombstone forgets leave it in the materialize step
   * of the same pass, after the tombstone (so no peer sees a removal before the tombstone that
   * justifies it), and only those the plan says it forgets: a stored tombstone is not a licence to
   * delete its targets, who may forget whose memory is authority.ts `mayForget` (issue 13).
   */
  #toDoc(ps: PoolSync, records: readonly PoolRecord[]): void {
    ps.noteSent(ps.pdoc.write(records, [], Origin.LOCAL))
    if (records.some((r) => r.kind === PoolKind.TOMBSTONE)) ps.wantMaterialize = true
  }

  /** The materializer's plan for the document as it stands, judging only what changed where it can (planner.ts); and the keys it took. */
  async #plan(ps: PoolSync): Promise<{ plan: Plan; slice: ReadonlySet<string> }> {
    ps.pruneDecoded()
    // Held records whose time came are judged in this pass, as new.
    ps.releaseDue()
    this.#sizer = ps.catchingUp ? this.#bulk : this.#slice
    const { slice, deferred } = ps.takeChanged(this.#sizer.next)
    const step = ps.planner.begin(slice, ps.pdoc.map, ps.decode, deferred)
    this.#taken += slice.size
    await this.#verdicts(ps, step.records)
    return { plan: step.finish(this.#known), slice }
  }

  /**
   * Signature verdicts for a pass: a record that a valid checkpoint of the owner covers is checked
   * by recomputing its id from its content (its signature is what the checkpoint vouches for);
   * every other record by its signature, as before. docs/sync.md, "Checkpoints".
   */
  async #verdicts(ps: PoolSync, records: readonly SignedRecord[]): Promise<void> {
    if (!this.#trustCheckpoints) return this.#sigs.check(records)
    const book = ps.checkpoints
    await book.refresh(ps.pdoc.map, ps.decode, this.#sigs)
    if (book.size === 0) return this.#sigs.check(records)
    const rest: SignedRecord[] = []
    for (const r of records) {
      // A checkpoint never vouches for a checkpoint; a value whose id is not its content's is verified (and refused) as ever.
      if (this.#sigs.known(r) !== undefined || isCheckpointKind(r.kind)) {
        rest.push(r)
        continue
      }
      const digest = recordDigest(r)
      if (!book.coversDigest(digest) || signedRecordId(r) !== r.id) {
        rest.push(r)
        continue
      }
      this.#sigs.vouch(r, digest)
    }
    await this.#sigs.check(rest)
  }

  /** The verdicts a pass judges with: the shared cache's, on the very objects `#verdicts` checked. */
  readonly #known = (r: PoolRecord): boolean | undefined => this.#sigs.known(r)

  /**
   * On the owner's replica: once `checkpointEvery` accepted records are covered by no checkpoint,
   * sign checkpoints over them (MAX_COVERED each), store them and put them into the document.
   * Only records this replica accepted, so verified here, are vouched for.
   */
  async #checkpoint(ps: PoolSync, accepted: readonly PoolRecord[]): Promise<void> {
    const me = this.#log.identity
    const s = ps.planner.structure
    if (this.#checkpointEvery <= 0 || !me || !s || s.owner !== me.did) return
    // Each accepted record is looked at once: a full pass hands over every accepted record, and
    // hashing them all again made a forget in a pool of 100k cost seconds on the owner's replica.
    for (const r of accepted) {
      if (isCheckpointKind(r.kind) || ps.counted.has(r.id)) continue
      ps.counted.add(r.id)
      if (!ps.checkpoints.covers(r)) ps.uncovered.set(r.id, r)
    }
    if (ps.uncovered.size < this.#checkpointEvery) return
    // Only what the plan still accepts (a record may have left since it was counted).
    const todo = [...ps.uncovered.values()].filter((r) => ps.stored.has(r.id) && !ps.checkpoints.covers(r))
    ps.uncovered.clear()
    const made: PoolRecord[] = []
    for (let i = 0; i < todo.length; i += MAX_COVERED) {
      const body = checkpointBody(todo.slice(i, i + MAX_COVERED))
      made.push((await this.#log.sealPooled(CHECKPOINT_KIND, body, { pool: s.id, tenant: s.tenant })) as unknown as PoolRecord)
    }
    if (made.length === 0) return
    for (const r of made) ps.stored.add(r.id)
    await this.#log.append(made)
    this.#toDoc(ps, made)
  }

  /** Whether the document holds a valid copy of a stored record under its id: this very value verified (held for its stamp or not). */
  #holdsValid(ps: PoolSync, id: string): boolean {
    const d = ps.codec(id, ps.pdoc.map.get(id))
    return d.ok && this.#sigs.known(d.record) === true
  }

  async #materialize(ps: PoolSync): Promise<void> {
    ps.wantMaterialize = false
    const started = performance.now()
    this.#taken = 0
    let { plan, slice } = await this.#plan(ps)

    // Heal: a stored record whose key vanished (or holds something else) without a tombstone goes back in.
    // The keys this pass took (a deferred key is looked at in its own pass), or every stored one on open.
    const candidates = ps.fullCheck ? [...ps.stored] : [...slice].filter((k) => ps.stored.has(k))
    ps.fullCheck = false
    // Verdicts on the values the candidates' keys hold now (one that changes meanwhile has none: it is healed).
    await this.#sigs.verify(candidates.flatMap((id) => {
      const d = ps.codec(id, ps.pdoc.map.get(id))
      return d.ok ? [d.record] : []
    }))
    // A key that is absent, though a tombstone names it, is healed unless that tombstone may forget
    // the record held here: whoever removed the key with the tombstone proves nothing (issue 13).
    const heal = candidates.filter((id) => !this.#holdsValid(ps, id))
    if (heal.length) {
      const got = await this.#storage.read(['records'], (tx) => tx.getMany<PoolRecord>('records', heal))
      const s = ps.planner.structure
      // Never a stored record whose stamp the codec refuses (kept by a version before it checked the range): it leaves `records`.
      const records = got.filter((r): r is PoolRecord => isPooled(r) && r.pool === ps.pool && parseHlc(r.hlc) !== null &&
        !(plan.forgotten.has(r.id) && s !== null && forgottenBy(s, r)))
      if (records.length) {
        ps.noteSent(ps.pdoc.write(records, [], Origin.HEAL))
        const again = await this.#plan(ps)
        plan = again.plan
        slice = new Set([...slice, ...again.slice])
      }
    }

    // Forgotten memories leave the document (the tombstone stays).
    const forget = [...plan.forgotten].filter((id) => ps.pdoc.map.has(id))
    if (forget.length) ps.pdoc.write([], forget, Origin.FORGET)

    await this.#apply(ps, plan)
    await this.#applied(ps)
    // Judged keys are no longer incoming (a key changed again meanwhile is pending again).
    for (const key of slice) if (!ps.isPending(key)) ps.touched.delete(key)
    this.#sizer.note(this.#taken, performance.now() - started)
    this.#wakeForHeld(ps)
    if (ps.pending) {
      // A bounded slice left changes for the next pass; let the event loop deliver what arrived
      // meanwhile (another writer's record) and this replica's own writes go out first.
      ps.wantMaterialize = true
      this.#again = true
      this.#yield = true
    }
  }

  /**
   * Wakes the loop when the first record held for its stamp may be judged (docs/sync.md, "Clocks").
   * A timer that fires early (a timer's limit is about 24.8 days) just schedules the next.
   */
  #wakeForHeld(ps: PoolSync): void {
    const next = ps.nextRelease
    if (ps.timer !== null) clearTimeout(ps.timer)
    ps.timer = null
    if (next === null || this.#closed) return
    const delay = Math.min(Math.max(next - this.#log.now(), 0) + 1, MAX_TIMER_MS)
    ps.timer = setTimeout(() => {
      ps.timer = null
      ps.wantMaterialize = true
      this.#kick()
    }, delay)
    // A held record must not keep a process alive (Node): it is only waited for while the Memory runs.
    ;(ps.timer as { unref?: () => void }).unref?.()
  }

  /**
   * The plan into storage: accepted records in, forgotten and no-longer-authorized ones out,
   * quarantine rewritten. What changed since the last pass (the planner's delta) when it can,
   * the whole plan against what is stored after a full pass, on open, or after a failed pass.
   */
  async #apply(ps: PoolSync, plan: Plan): Promise<void> {
    const delta = ps.planner.takeDelta()
    const full = delta === null || ps.fullApply
    ps.fullApply = true
    let puts: PoolRecord[]
    let forgotten: string[]
    let evictedRows: QuarantinedRecord[]
    let qChanged: QuarantinedRecord[]
    let qGone: string[]
    if (full) {
      puts = plan.accepted.filter((r) => !ps.stored.has(r.id))
      forgotten = [...plan.forgotten].filter((id) => ps.stored.has(id))
      evictedRows = plan.quarantined.filter((q) => EVICTING_REASONS.has(q.reason) && ps.stored.has(q.key))
      const after = new Map(plan.quarantined.map((q) => [q.key, q]))
      qChanged = plan.quarantined.filter((q) => !sameReport(ps.quarantine.get(q.key), q))
      qGone = [...ps.quarantine.keys()].filter((key) => !after.has(key))
    } else {
      puts = delta.accepted.filter((r) => !ps.stored.has(r.id))
      // A tombstone judged by itself forgets what it names (planner.ts `#forgetBy`).
      forgotten = delta.forgotten.filter((id) => ps.stored.has(id))
      evictedRows = delta.quarantined.filter((q) => EVICTING_REASONS.has(q.reason) && ps.stored.has(q.key))
      qChanged = delta.quarantined.filter((q) => !sameReport(ps.quarantine.get(q.key), q))
      qGone = delta.released.filter((key) => ps.quarantine.has(key))
    }
    const evicted = evictedRows.map((q) => q.key)
    const deletes = [...new Set([...forgotten, ...evicted])]
    const qPuts = qChanged.map((q) => toQuarantineRow(q, ps.pdoc.map.get(q.key)))
    const qDeletes = qGone.map((key) => quarantineRowId(ps.pool, key))
    const setQuarantine = (): void => {
      if (full) ps.quarantine = new Map(plan.quarantined.map((q) => [q.key, q]))
      else {
        for (const q of qChanged) ps.quarantine.set(q.key, q)
        for (const key of qGone) ps.quarantine.delete(key)
      }
    }
    if (puts.length === 0 && deletes.length === 0 && qPuts.length === 0 && qDeletes.length === 0) {
      setQuarantine()
      ps.fullApply = false
      await this.#checkpoint(ps, full ? plan.accepted : delta.accepted)
      return
    }
    // One batch of the record log (forwarded to the leader where one commits for this handle); it
    // comes back through the feed as local, already held. A big catch-up goes in a few large
    // batches rather than one transaction of everything.
    for (let i = 0; i < Math.max(puts.length, 1); i += APPEND_CHUNK) {
      const chunk = puts.slice(i, i + APPEND_CHUNK)
      const dels = i === 0 ? deletes : []
      if (chunk.length || dels.length) await this.#log.append(chunk, dels)
      for (const r of chunk) ps.stored.add(r.id)
      for (const id of dels) {
        ps.stored.delete(id)
        ps.counted.delete(id)
      }
    }
    setQuarantine()
    // After the records, in transactions of their own: the report of a refused value must never
    // hold back an accepted record (issue 13: one unstorable row used to wedge the pool for good).
    await this.#storeQuarantine(ps, qPuts, qDeletes, [...qChanged])
    // Stored and reported: the next pass may go by the planner's delta again.
    ps.fullApply = false
    await this.#checkpoint(ps, full ? plan.accepted : delta.accepted)
    // Other modules' records reach their modules through the log; the pool store hears of its own only.
    const poolKind = (kind: string): boolean => !isContentKind(kind) && !isCheckpointKind(kind)
    const evictedOwn = evictedRows.filter((q) => poolKind(q.kind ?? '')).map((q) => q.key)
    const changed = [...puts.filter((r) => poolKind(r.kind)).map((r) => r.id), ...forgotten, ...evictedOwn, ...this.#revived(ps, evictedOwn)]
    for (const id of changed) ps.unapplied.add(id)
  }

  /**
   * The pools module hears what was stored or removed (its fact view catches up): after each pass,
   * or, while the pool catches up (a join, a return from offline), once, when the catch-up ends, so
   * that the fact view is written in bulk. A change of `backgroundFrom` records or more (a join of
   * a big pool) is not waited for: the pool is `synced` once its records are stored and its pools
   * state has them, and the fact view is brought in line after; `mem.facts` reads wait for it
   * (FactLookup.hold) and `mem.pools.flush()` resolves once it is done. A smaller change is waited
   * for: the pool is not `synced` before it heard.
   */
  async #applied(ps: PoolSync): Promise<void> {
    if (ps.unapplied.size === 0 || !this.#onApplied) return
    if (ps.catchingUp) {
      ps.wantMaterialize = true
      return
    }
    const ids = [...ps.unapplied]
    for (const id of ids) ps.unapplied.delete(id)
    const background = ids.length >= this.#backgroundFrom
    const heard = this.#onApplied(ps.pool, ids, { background }).catch((err: unknown) => {
      // Heard again on the next pass: nothing of the change is lost.
      for (const id of ids) ps.unapplied.add(id)
      throw err
    })
    // A waited-for failure fails this pass (`#pass` reports it and materializes again).
    if (!background) return heard
    heard.catch((err: unknown) => {
      ps.wantMaterialize = true
      this.#fail(ps, err)
      this.#changed()
    })
  }

  /** Quarantine rows in and out; a row the store refuses is kept as its bare report, and a store that refuses even that is reported, not thrown. */
  async #storeQuarantine(ps: PoolSync, puts: QuarantineRow[], deletes: string[], reports: readonly QuarantinedRecord[]): Promise<void> {
    if (puts.length === 0 && deletes.length === 0) return
    const write = (rows: readonly QuarantineRow[], dels: readonly string[]): Promise<void> =>
      this.#storage.write(['quarantine'], async (tx) => {
        if (rows.length) await tx.put('quarantine', rows)
        if (dels.length) await tx.delete('quarantine', dels)
      })
    try {
      await write(puts, deletes)
      return
    } catch {
      // One row at a time below, so that one bad row costs only itself.
    }
    const byId = new Map(reports.map((q) => [quarantineRowId(q.pool, q.key), q]))
    if (deletes.length) await write([], deletes).catch((err: unknown) => this.#fail(ps, err))
    for (const row of puts) {
      try {
        await write([row], [])
      } catch {
        await write([bareQuarantineRow(byId.get(row.id) ?? row)], []).catch((err: unknown) => this.#fail(ps, err))
      }
    }
  }

  /**
   * Memories that may be current again because records leaving the store (refused after a grant
   * changed) superseded them: a merge's sources, an update's predecessor, a resolution's losers.
   * The fact view creates views only for memories it is told about.
   */
  #revived(ps: PoolSync, evicted: readonly string[]): string[] {
    const out: string[] = []
    for (const id of evicted) {
      const d = decodeRecord(id, ps.pdoc.map.get(id))
      if (!d.ok) continue
      const body = d.record.body as Partial<MemoryBody & ResolveBody>
      if (d.record.kind === PoolKind.MEMORY && 'payload' in body && body.payload) out.push(...body.payload.supersedes, ...(body.payload.merged?.from ?? []))
      if (d.record.kind === PoolKind.RESOLVE && Array.isArray(body.losers)) out.push(...body.losers)
    }
    return out
  }

  // ---- status ----------------------------------------------------------------------------------------

  #status(): SyncStatus {
    const pools: PoolSyncStatus[] = [...this.#pools.values()].map((e) => e.sync.status()).sort((a, b) => (a.pool < b.pool ? -1 : 1))
    const busy = this.#running !== null
    const adjusted = pools.map((p) => (busy && p.state === SyncState.SYNCED ? { ...p, state: SyncState.SYNCING } : p))
    let state: SyncState = adjusted.length ? SyncState.SYNCED : SyncState.OFFLINE
    for (const p of adjusted) if (STATE_RANK[p.state] < STATE_RANK[state]) state = p.state
    return {
      state,
      pending: adjusted.reduce((s, p) => ({ outgoing: s.outgoing + p.pending.outgoing, incoming: s.incoming + p.pending.incoming }), { outgoing: 0, incoming: 0 }),
      pools: adjusted,
    }
  }

  #notify(): void {
    if (this.#subscribers.size === 0) return
    const status = this.#status()
    const text = JSON.stringify(status)
    if (text === this.#lastStatus) return
    this.#lastStatus = text
    for (const cb of [...this.#subscribers]) {
      try {
        // Across the worker boundary the callback is a proxy returning a promise; a page that went away rejects it.
        const r = cb(status) as unknown
        if (r instanceof Promise) r.catch(() => this.#subscribers.delete(cb))
      } catch {
        // A subscriber's failure is its own.
      }
    }
  }
}

/** Whether a value held under a key is the stored record (for tests and tools). */
export function holdsRecord(doc: Y.Doc, record: PoolRecord): boolean {
  const d = decodeRecord(record.id, doc.getMap('records').get(record.id))
  return d.ok && sameContent(d.record, record)
}
