import * as Y from 'yjs'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { parsePoolId } from '../pools/input.js'
import type { PoolRecord } from '../pools/records.js'
import type { PoolId } from '../pools/types.js'
import { logFor, type RecordLog } from '../records/log.js'
import type { StoragePort } from '../storage/port.js'
import { decodeRecord, sameContent } from './codec.js'
import { SyncLoop } from './loop.js'
import { compareQuarantined } from './materialize.js'
import { PoolSync } from './pool-sync.js'
import { toReport, type QuarantinedRecord } from './quarantine.js'
import { clearQuarantine } from './quarantine-store.js'
import { SignatureCache } from './signatures.js'
import type { ConnectOptions, Sync, SyncProvider, SyncStatus } from './types.js'
import { websocketProvider } from './websocket.js'

export interface SyncStoreOptions {
  /** Called after records of a pool were stored or hard-deleted from another replica (the pool store's fact view catches up). */
  readonly onApplied?: (pool: PoolId, ids: readonly string[], options: { readonly background: boolean }) => Promise<void>
  /** Awaited before records another replica sent are stored (the pools' fact view marks its session: fact-view-marker.ts). */
  readonly beforeApply?: () => Promise<void>
  /**
   * A change of this many records or more (a join of a big pool) is not waited for by the pass that
   * stored it: the pools module brings its fact view in line in the background (apply.ts `tellApplied`). Default 10,000.
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

/** A change of this many records or more is taken in by the pools module in the background (apply.ts `tellApplied`). */
const BACKGROUND_FROM = 10_000

/**
 * `mem.sync`: replicates pools, one Y.Doc each, under DESIGN.md's rule that the document is a
 * transport and a merge log, never the authority. This file is the API (open, links, stop,
 * status, quarantine, close); one loop (loop.ts) does all the work, one step at a time, so the
 * steps never race each other:
 * 1. outbound (outbound.ts): pooled records the record log appended (`pool-*` ones, and other
 *    modules' records that name a pool, content.ts) enter their pool's document: this Memory's
 *    commits at once, other handles' on the same database when the log catches up (its `onAppend`
 *    feed); the targets a tombstone may forget leave it in step 2;
 * 2. materialize (materialize-step.ts, judged by materialize.ts with signature verdicts from
 *    verdicts.ts): the document's record set is judged; accepted records are appended through the
 *    record log and forgotten ones hard-deleted through it, in one batch (apply.ts: the pools
 *    module derives them from the log, and its fact view hears of them through `onApplied`);
 *    their keys leave the document; refused values go to quarantine (quarantine-store.ts); keys
 *    that vanished without a tombstone are healed from the store; the owner signs checkpoints
 *    (owner-checkpoints.ts);
 * 3. persistence: the document's updates are appended to `syncUpdates`, and compacted (one row per
 *    pool, the garbage-collected state) after a key was removed or every `compactEvery` rows.
 * Status (status.ts) is the least advanced state of the open pools.
 */
export class SyncStore implements Sync {
  readonly #log: RecordLog
  readonly #ownsLog: boolean
  /** The quarantine and `syncUpdates` tables: sync's own, not the record log's. */
  readonly #storage: StoragePort
  /** The loop, and the open pools it runs its passes over. */
  readonly #loop: SyncLoop
  readonly #pools: Map<PoolId, { sync: PoolSync; ready: Promise<void> }>
  readonly #clientId: (() => number) | undefined
  readonly #WebSocket: unknown

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: SyncStoreOptions = {}) {
    const { log, owned } = logFor(source, {})
    this.#log = log
    this.#ownsLog = owned
    this.#storage = log.storage
    this.#clientId = options.clientId
    this.#WebSocket = options.WebSocketPolyfill
    this.#loop = new SyncLoop(log, options.signatures ?? new SignatureCache(), {
      onApplied: options.onApplied,
      beforeApply: options.beforeApply,
      backgroundFrom: options.backgroundFrom ?? BACKGROUND_FROM,
      compactEvery: options.compactEvery ?? 100,
      checkpointEvery: options.checkpointEvery ?? 1000,
      trustCheckpoints: options.trustCheckpoints ?? true,
      passBudgetMs: options.passBudgetMs,
      bulkBudgetMs: options.bulkBudgetMs,
    })
    this.#pools = this.#loop.pools
  }

  // ---- the API ------------------------------------------------------------------------------------

  async open(poolId: string): Promise<void> {
    if (this.#loop.closed) throw new MemweaveError(ErrorCode.CLOSED, 'sync is closed')
    const pool = parsePoolId(poolId)
    let entry = this.#pools.get(pool)
    if (!entry) {
      const sync = new PoolSync(pool, this.#storage, () => this.#loop.changed(), this.#clientId?.(), () => this.#log.now())
      entry = { sync, ready: this.#loop.load(sync) }
      this.#pools.set(pool, entry)
      this.#loop.follow()
      entry.ready.catch(() => {
        this.#pools.delete(pool)
        this.#loop.follow()
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
    await clearQuarantine(this.#storage, pool)
    this.#loop.follow()
    this.#loop.changed()
  }

  async status(): Promise<SyncStatus> {
    return this.#loop.status()
  }

  async subscribe(callback: (status: SyncStatus) => void): Promise<() => void> {
    if (typeof callback !== 'function') throw invalidArgument('callback', 'must be a function')
    return this.#loop.feed.add(callback)
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
    this.#loop.kick()
    await this.flush()
  }

  async flush(): Promise<void> {
    // Other handles' commits reach the feed when the log catches up: take what they committed so far.
    if (this.#pools.size > 0 && !this.#log.closed) await this.#log.ready().catch(() => undefined)
    await Promise.allSettled([...this.#pools.values()].map((e) => e.ready))
    await this.#loop.idle()
  }

  async close(): Promise<void> {
    if (this.#loop.closed) return
    this.#loop.closed = true
    for (const { sync } of this.#pools.values()) sync.closeLinks()
    await this.flush()
    for (const { sync } of this.#pools.values()) sync.destroy()
    this.#pools.clear()
    this.#loop.follow()
    this.#loop.dispose()
    if (this.#ownsLog) await this.#log.close()
  }
}

/** Whether a value held under a key is the stored record (for tests and tools). */
export function holdsRecord(doc: Y.Doc, record: PoolRecord): boolean {
  const d = decodeRecord(record.id, doc.getMap('records').get(record.id))
  return d.ok && sameContent(d.record, record)
}
