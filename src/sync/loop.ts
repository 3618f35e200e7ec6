import * as Y from 'yjs'
import { isPooled } from '../core/signed-record.js'
import type { PoolId } from '../pools/types.js'
import type { RecordLog } from '../records/log.js'
import type { LogChange } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import { MaterializeStep } from './materialize-step.js'
import { outbound, reconcile } from './outbound.js'
import type { PassHost } from './pass-host.js'
import { Origin } from './pool-doc.js'
import type { PoolSync } from './pool-sync.js'
import { loadQuarantine } from './quarantine-store.js'
import type { SignatureCache } from './signatures.js'
import { StatusFeed, aggregateStatus } from './status.js'
import type { SyncStatus } from './types.js'
import { withoutTooDeep } from './update-depth.js'
import { AHEAD_CHUNKS } from './update-log.js'

/**
 * Chunks a pass's compaction writes at a time when more are due (about 0.5 MB encoded, a few ms
 * quiet): a macrotask before each such step, and a pass with changes waiting goes before the next
 * one (docs/sync.md, "The loop").
 */
export const COMPACT_STEP_CHUNKS = 2

/** The loop's settings (SyncStoreOptions resolved, store.ts). */
export interface LoopSettings {
  readonly onApplied: PassHost['onApplied']
  readonly beforeApply?: PassHost['beforeApply']
  readonly backgroundFrom: number
  readonly compactEvery: number
  readonly checkpointEvery: number
  readonly trustCheckpoints: boolean
  readonly passBudgetMs?: number
  readonly bulkBudgetMs?: number
}

/**
 * The one loop that does all of sync's work, one pass at a time, so its steps never race each
 * other. A pass runs, for every open pool: reconcile (all stored records into the document, on
 * open or after the log reloaded), outbound (what the record log appended since), materialize
 * (judge the document and apply the plan), flush (the document's updates to `syncUpdates`) and
 * compact (one row per pool, now and then). docs/sync.md, "The loop".
 */
export class SyncLoop implements PassHost {
  readonly log: RecordLog
  readonly storage: StoragePort
  readonly sigs: SignatureCache
  readonly onApplied: PassHost['onApplied']
  readonly beforeApply: PassHost['beforeApply']
  readonly backgroundFrom: number
  readonly checkpointEvery: number
  readonly trustCheckpoints: boolean
  readonly compactEvery: number
  readonly pools = new Map<PoolId, { sync: PoolSync; ready: Promise<void> }>()
  readonly feed = new StatusFeed(() => this.status())
  closed = false
  readonly #materialize: MaterializeStep
  readonly #unlisten: () => void
  /** Stops following other handles' commits (set while a pool is open). */
  #unfollow: (() => void) | undefined
  /** What the record log appended since the last pass, in order: the outbound step's input. */
  #appended: LogChange[] = []
  #running: Promise<void> | null = null
  #again = false
  #yield = false
  /** A step of a pool log's rewrite ahead (`#ahead`), run between passes, or its timer. */
  #aheadStep: Promise<void> | null = null
  #aheadTimer: ReturnType<typeof setTimeout> | null = null

  constructor(log: RecordLog, sigs: SignatureCache, settings: LoopSettings) {
    this.log = log
    this.storage = log.storage
    this.sigs = sigs
    this.onApplied = settings.onApplied
    this.beforeApply = settings.beforeApply
    this.backgroundFrom = settings.backgroundFrom
    this.checkpointEvery = settings.checkpointEvery
    this.trustCheckpoints = settings.trustCheckpoints
    this.compactEvery = settings.compactEvery
    this.#materialize = new MaterializeStep(this, settings)
    this.#unlisten = log.onAppend((change) => this.#heard(change))
  }

  /** Whether a pass is running or queued. */
  get busy(): boolean {
    return this.#running !== null
  }

  status(): SyncStatus {
    return aggregateStatus([...this.pools.values()].map((e) => e.sync.status()), this.busy)
  }

  /** Resolves once no pass runs (nor a step of a rewrite ahead). */
  async idle(): Promise<void> {
    while (this.#running || this.#aheadStep) await (this.#running ?? this.#aheadStep)
  }

  /** Stops hearing the record log's feed (close). */
  dispose(): void {
    if (this.#aheadTimer !== null) clearTimeout(this.#aheadTimer)
    this.#aheadTimer = null
    this.#unlisten()
    this.feed.clear()
  }

  /** Other handles' commits reach the feed when the log catches up, which it does on their signal while followed. */
  follow(): void {
    if (this.pools.size > 0) {
      this.#unfollow ??= this.log.follow()
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
    if (this.pools.size === 0) return
    // Another module's local records (facts) are none of sync's business.
    if (!change.reload && change.removed.length === 0 && !change.records.some(isPooled)) return
    if (change.reload) {
      this.#appended = []
      for (const { sync } of this.pools.values()) sync.wantReconcile = true
    } else this.#appended.push(change)
    this.kick()
  }

  /** A pool's persisted document and quarantine, then its first pass (reconcile: every stored record). */
  async load(ps: PoolSync): Promise<void> {
    // Storage open and the log caught up (a store built alone on a port opens it here).
    await this.log.ready()
    const updates = await ps.log.load()
    // A too-deep value persisted before the check existed would throw here on every open (update-depth.ts).
    for (const u of updates) Y.applyUpdate(ps.doc, withoutTooDeep(u).update, Origin.LOAD)
    ps.quarantine = await loadQuarantine(this.storage, ps.pool)
    ps.listen()
    if (ps.log.rows > this.compactEvery) ps.wantCompact = true
    this.kick()
    await this.idle()
  }

  changed(): void {
    this.kick()
    this.feed.notify()
  }

  kick(): void {
    if (this.closed && this.pools.size === 0) return
    if (this.#running) {
      this.#again = true
      return
    }
    this.#running = (async () => {
      try {
        // A step of a rewrite ahead is one of the loop's steps too: its parts are not raced.
        if (this.#aheadStep) await this.#aheadStep
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
        this.feed.notify()
        this.#scheduleAhead()
      }
    })()
  }

  /**
   * When the loop has nothing else to do and a pool's log is `behind` (its appended rows, a join's
   * or an open's, wait for a rewrite of many chunks): rewrites AHEAD_CHUNKS of them, one step a
   * macrotask, outside any pass, so the status does not say `syncing` for it, and a pass that
   * comes waits for one step at most. The forget that then compacts rewrites only what is left
   * (issue 31: the first forget after a join of 100k records rewrote every chunk on each device).
   */
  #scheduleAhead(): void {
    if (this.closed || this.#aheadTimer !== null || this.#aheadStep || this.#running) return
    const ps = [...this.pools.values()].map((e) => e.sync).find((p) => p.loaded && p.log.behind && !p.wantMaterialize && !p.pending && !p.wantCompact)
    if (!ps) return
    this.#aheadTimer = setTimeout(() => {
      this.#aheadTimer = null
      // Still open (not stopped meanwhile), and still nothing else to do.
      if (this.closed || this.#running || this.pools.get(ps.pool)?.sync !== ps || !ps.log.behind || ps.wantMaterialize || ps.pending || ps.wantCompact) return
      this.#aheadStep = (async () => {
        try {
          await ps.log.compact(ps.doc, { chunks: AHEAD_CHUNKS })
        } catch (err) {
          // Storage busy or full: the rows stay, and the next compaction rewrites what is left.
          this.fail(ps, err)
        } finally {
          this.#aheadStep = null
        }
        this.#scheduleAhead()
      })()
    }, 0)
  }

  fail(ps: PoolSync, err: unknown): void {
    ps.error = err instanceof Error ? err.message : String(err)
  }

  async #pass(): Promise<void> {
    const pools = [...this.pools.values()].map((e) => e.sync).filter((ps) => ps.loaded)
    for (const ps of pools) {
      try {
        if (ps.wantReconcile) await reconcile(this.log, ps)
      } catch (err) {
        this.fail(ps, err)
      }
    }
    if (this.#appended.length) {
      const changes = this.#appended
      this.#appended = []
      try {
        outbound(changes, this.pools)
      } catch (err) {
        for (const ps of pools) this.fail(ps, err)
      }
    }
    for (const ps of pools) {
      try {
        if (ps.wantMaterialize) {
          await this.#materializeStep(ps)
          // What the pass judged is in the API now (stored, in `mem.pools`, and in the fact view
          // when waited for): subscribers hear it before the log is written and compacted, not
          // after (a forget's compaction is that pass's last step; issue 31). The state stays
          // `syncing` until the pass ends.
          this.feed.notify()
        }
        await ps.log.flush()
        await this.#compact(ps)
      } catch (err) {
        // Judged again on the next change (storage may have been busy or full): nothing is lost, the document keeps it all.
        ps.wantMaterialize = true
        this.fail(ps, err)
      }
    }
  }

  async #materializeStep(ps: PoolSync): Promise<void> {
    if (!(await this.#materialize.run(ps))) return
    // A bounded slice left changes for the next pass; let the event loop deliver what arrived
    // meanwhile (another writer's record) and this replica's own writes go out first.
    this.#again = true
    this.#yield = true
  }

  /**
   * After a key was removed (`wantCompact`) or every `compactEvery` rows: one row per pool, the
   * garbage-collected state. When more than COMPACT_STEP_CHUNKS chunks are due (the first forget
   * after a join or an open, while the chunks are still written ahead), they are written in steps
   * of that many first, each after a macrotask: what the pass told its subscribers is read before
   * (the status notification came after the whole compaction's encoding: 100 ms at 20k records,
   * 1.7 s at 100k under load, issue 31), and a change that arrived meanwhile (the next forget) is
   * judged in a pass of its own before the next step. Each call writes one step at least, so a
   * stream of changes cannot hold the compaction back; the loop stays busy (`syncing`) until the
   * last step has dropped the appended rows, as before.
   */
  async #compact(ps: PoolSync): Promise<void> {
    if (!ps.wantCompact && ps.log.rows < this.compactEvery) return
    for (let step = 0; ps.log.due > COMPACT_STEP_CHUNKS; step++) {
      await new Promise<void>((ok) => setTimeout(ok, 0))
      // A change arrived (kick): its pass first; this compaction is still due then (`wantCompact` or the rows).
      if (step > 0 && this.#again) return
      await ps.log.compact(ps.doc, { chunks: COMPACT_STEP_CHUNKS })
    }
    ps.wantCompact = false
    await ps.log.compact(ps.doc)
  }
}
