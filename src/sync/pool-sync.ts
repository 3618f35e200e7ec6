import type * as Y from 'yjs'
import { MAX_AHEAD_MS, hlcWall } from '../core/clock.js'
import type { PoolRecord } from '../pools/records.js'
import type { PoolId } from '../pools/types.js'
import type { StoragePort } from '../storage/port.js'
import { Origin, PoolDoc, isOwnOrigin } from './pool-doc.js'
import { decodeRecord, type Decoded } from './codec.js'
import { CheckpointBook } from './checkpoint.js'
import { Planner } from './planner.js'
import { FairQueue } from './slice.js'
import type { QuarantinedRecord } from './quarantine.js'
import { SyncState, type LinkState, type PoolSyncStatus, type SyncLink } from './types.js'
import { UpdateLog } from './update-log.js'
import { transactionUpdate } from './yjs-structs.js'

interface LinkSlot {
  state: LinkState
  link: SyncLink | null
  readonly kind: string
}

const OFFLINE: LinkState = { connected: false, synced: false, error: null }

/**
 * The replication state of one pool on this replica: its document, its persisted update log, its
 * links, what this replica's store holds of it, and what is pending. The loop (loop.ts) and its steps
 * drive it; this class only keeps the books.
 */
export class PoolSync {
  readonly pool: PoolId
  readonly pdoc: PoolDoc
  readonly log: UpdateLog
  /** Ids of this pool's records in the `records` table. */
  readonly stored = new Set<string>()
  /** Ids stored or removed that the pools module has not heard of yet (apply.ts `tellApplied`). */
  readonly unapplied = new Set<string>()
  /** On the owner's replica: accepted records no checkpoint covers yet (owner-checkpoints.ts). */
  readonly uncovered = new Map<string, PoolRecord>()
  /** On the owner's replica: ids of accepted records `#checkpoint` has looked at (covered, or waiting in `uncovered`). */
  readonly counted = new Set<string>()
  /** Ids this replica put into the document while no link was in step: the `outgoing` count. */
  readonly unsent = new Set<string>()
  /** Keys a provider changed since the last materialization (heal candidates, `incoming` count). */
  readonly touched = new Set<string>()
  /** The materializer's state between passes: each pass judges what changed since the last (planner.ts). */
  readonly planner: Planner
  /** The owner's checkpoints in the document, and what they cover (checkpoint.ts). */
  readonly checkpoints: CheckpointBook
  /** Keys changed by anyone (providers and this layer alike) since the planner's last pass. */
  #changed = new Set<string>()
  /**
   * Changed keys a provider brought while no link of the pool was in step: the exchange of states
   * of a device joining, or coming back after being offline. Taken in large passes (materialize-step.ts).
   */
  readonly #initial = new Set<string>()
  /** The changed keys by author, for bounded passes that take them fairly (slice.ts). */
  readonly #fair = new FairQueue()
  readonly #links = new Set<LinkSlot>()
  /** Decoded values by key: a Y.Map value is immutable and `get` returns the same object, so each is decoded once. */
  readonly #decoded = new Map<string, { readonly value: unknown; readonly d: Decoded }>()
  /**
   * Memo keys that may be absent from the document (`pruneDecoded` looks at these, not the whole
   * memo): every way a memo key leaves or misses the map, noted as it happens. A key the map
   * observer saw deleted, and a key decoded while absent (a pass judges a forgotten key's last value).
   */
  #absent = new Set<string>()
  /**
   * Keys whose record is stamped more than `MAX_AHEAD_MS` ahead of this replica's clock: the
   * value, and when (this clock's ms) it may be judged. Held, not judged: `decode` says `future`.
   */
  readonly #held = new Map<string, { readonly value: unknown; readonly until: number }>()
  /** The earliest `until` of `#held` (null: none held). */
  #next: number | null = null
  /** The wall clock records are held against (the Memory's: tests inject it). */
  readonly #now: () => number
  /** The timer that wakes the loop when the first held record's time comes (materialize-step.ts). */
  timer: ReturnType<typeof setTimeout> | null = null
  /** The refused values by key, as last stored (the `quarantine` table's rows of this pool). */
  quarantine = new Map<string, QuarantinedRecord>()
  /** The persisted updates are replayed and the document is listened to: the loop may work on it. */
  loaded = false
  wantReconcile = true
  wantMaterialize = true
  /** Check every stored record against the document (on open), not only the touched keys. */
  fullCheck = true
  /** Compare the whole plan with storage on the next pass (on open, after a reload or a failed pass), not only the planner's delta. */
  fullApply = true
  wantCompact = false
  error: string | null = null
  /** The refusal behind `error`, if it was one (PoolSyncStatus.refusal). */
  refusal: PoolSyncStatus['refusal'] = null
  readonly #onChange: () => void

  constructor(pool: PoolId, storage: StoragePort, onChange: () => void, clientId?: number, now: () => number = Date.now) {
    this.pool = pool
    this.#now = now
    this.pdoc = new PoolDoc(pool, clientId)
    this.log = new UpdateLog(storage, pool)
    this.planner = new Planner(pool)
    this.checkpoints = new CheckpointBook(pool)
    this.#onChange = onChange
  }

  get doc(): Y.Doc {
    return this.pdoc.doc
  }

  /** Starts listening to the document: persisting its updates, noting what providers change. */
  listen(): void {
    this.loaded = true
    // What the persisted updates brought did not pass the observer: its checkpoints count from the first pass on.
    for (const [key, value] of this.pdoc.map.entries()) this.checkpoints.note(key, value, 'add')
    // After Yjs collected and merged what the transaction deleted: the chunks the next compaction
    // rewrites, and the update to persist (the bytes a link received, or the transaction's own,
    // written here rather than by an `update` listener: yjs-structs.ts says why).
    this.pdoc.doc.on('afterTransactionCleanup', (tr: Y.Transaction) => {
      this.log.noteTransaction(tr)
      if (tr.origin === Origin.LOAD) return
      const update = transactionUpdate(tr)
      if (!update) return
      this.log.append(update)
      this.#onChange()
    })
    this.pdoc.map.observe((event) => {
      const own = isOwnOrigin(event.transaction.origin)
      let removed = false
      for (const [key, change] of event.changes.keys) {
        this.#changed.add(key)
        this.#fair.add(key, this.#bucketOf(key))
        this.checkpoints.note(key, this.pdoc.map.get(key), change.action)
        if (!own) {
          this.touched.add(key)
          if (!this.inStep()) this.#initial.add(key)
        }
        if (change.action !== 'add') removed = true
        if (change.action === 'delete' && this.#decoded.has(key)) this.#absent.add(key)
      }
      // A removed or replaced value may survive only in the persisted log: compact it away.
      if (removed) this.wantCompact = true
      // Any new value may change a verdict (a local grant or revocation too); removing forgotten keys does not.
      if (event.transaction.origin !== Origin.FORGET) this.wantMaterialize = true
      this.#onChange()
    })
  }

  /**
   * The keys changed since the last call that the planner's next pass looks at: all of them, or a
   * fair slice of `limit` (slice.ts); the rest stay pending (`deferred`) for the next passes. The
   * pending keys among `first` are in the slice whatever the limit (keys just healed: left deferred,
   * a healed key would keep the value it was last judged with, absent; materialize-step.ts).
   */
  takeChanged(limit = Infinity, first: readonly string[] = []): { slice: Set<string>; deferred: ReadonlySet<string> } {
    if (this.#changed.size <= limit) {
      const slice = this.#changed
      this.#changed = new Set()
      this.#fair.clear()
      this.#initial.clear()
      return { slice, deferred: this.#changed }
    }
    const slice = new Set(first.filter((key) => this.#changed.has(key)))
    for (const key of this.#fair.take(limit - slice.size, (key) => this.#changed.has(key) && !slice.has(key))) slice.add(key)
    for (const key of slice) {
      this.#changed.delete(key)
      this.#initial.delete(key)
    }
    // The live set, not a copy (a copy per pass costs what is pending): the planner reads it before anything changes it.
    return { slice, deferred: this.#changed }
  }

  /** Keys this replica put into the document from its store in bulk (on open, after a reload): a catch-up too. */
  catchUpOn(keys: Iterable<string>): void {
    for (const key of keys) if (this.#changed.has(key)) this.#initial.add(key)
  }

  /** Whether keys of an exchange of states (a join, a return from offline) wait for a pass. */
  get catchingUp(): boolean {
    return this.#initial.size > 0
  }

  /** Whether changed keys wait for a pass (a sliced pass left some). */
  get pending(): boolean {
    return this.#changed.size > 0
  }

  /** Whether `key` changed and waits for a pass. */
  isPending(key: string): boolean {
    return this.#changed.has(key)
  }

  /**
   * The fair-queue bucket of a changed key: the author its value names when that is a member of the
   * pool as last judged, else one bucket for everything else (removals, junk, strangers), so that
   * signing with many throwaway identities does not buy a flood more turns. Unverified: a value
   * that lies about its author only moves its own place in the queue.
   */
  #bucketOf(key: string): string {
    const s = this.planner.structure
    const author = (this.pdoc.map.get(key) as { author?: unknown } | undefined)?.author
    if (!s || typeof author !== 'string') return ''
    return author === s.owner || s.acl.at(author, null, Date.now()).read ? author : ''
  }

  /**
   * The codec's decode, memoized per key and value (materialize.ts `decode`), with one rule of this
   * replica's: a record stamped more than `MAX_AHEAD_MS` ahead of its clock reads `future` (held,
   * docs/sync.md "Clocks"), and keeps reading so until `releaseDue` lets it go, so that every pass
   * in between sees one verdict.
   */
  readonly decode = (key: string, value: unknown): Decoded => {
    const hit = this.#decoded.get(key)
    if (hit && hit.value === value) return hit.d
    let d = this.codec(key, value)
    if (d.ok) {
      const ahead = hlcWall(d.record.hlc) - this.#now()
      if (ahead > MAX_AHEAD_MS) {
        const until = hlcWall(d.record.hlc) - MAX_AHEAD_MS
        this.#held.set(key, { value, until })
        if (this.#next === null || until < this.#next) this.#next = until
        d = { ok: false, reason: 'future', detail: `stamped ${Math.round(ahead / 1000)} s ahead of this replica's clock: held until ${new Date(hlcWall(d.record.hlc)).toISOString()}` }
      }
    }
    this.#decoded.set(key, { value, d })
    if (!this.pdoc.map.has(key)) this.#absent.add(key)
    return d
  }

  /** The codec's decode alone (no holding): whether a value is a record at all, whatever its time. */
  codec(key: string, value: unknown): Decoded {
    return decodeRecord(key, value)
  }

  /**
   * Lets go of the held records whose time came by `now`: they count as changed, and the planner
   * judges them as new in the next pass. Returns their keys.
   */
  releaseDue(now: number = this.#now()): string[] {
    if (this.#next === null || this.#next > now) return []
    const due: string[] = []
    this.#next = null
    for (const [key, h] of this.#held) {
      if (h.until <= now) due.push(key)
      else if (this.#next === null || h.until < this.#next) this.#next = h.until
    }
    for (const key of due) {
      const held = this.#held.get(key)!
      this.#held.delete(key)
      const hit = this.#decoded.get(key)
      if (hit && hit.value === held.value) this.#decoded.delete(key)
      if (!this.pdoc.map.has(key)) continue
      this.#changed.add(key)
      this.#fair.add(key, this.#bucketOf(key))
    }
    this.planner.retry(due)
    return due
  }

  /** When the first held record may be judged (this clock's ms), or null when none is held. */
  get nextRelease(): number | null {
    return this.#next
  }

  /**
   * Drops memo entries of keys no longer in the document, once the memo holds more keys than the
   * document (as it does after a forget): the keys noted in `#absent`, not a walk of the whole memo,
   * which was O(pool) per forget (100k `Y.Map` lookups at 100k records on each device, about 14%
   * of a forget's profile; issue 31). It drops what the walk dropped, when the walk dropped it: an
   * entry is never dropped earlier (f956fe6 did, for every noted key at every pass, and was reverted
   * after the sync bench hung on a forget; test/sync/sync-decode-memo.test.ts holds this to the
   * walk). Should the memo still hold more keys than the document, the walk runs as before.
   */
  pruneDecoded(): void {
    if (this.#decoded.size <= this.pdoc.size) return
    const absent = this.#absent
    this.#absent = new Set()
    for (const key of absent) this.#dropAbsent(key)
    if (this.#decoded.size <= this.pdoc.size) return
    for (const key of this.#decoded.keys()) this.#dropAbsent(key)
  }

  #dropAbsent(key: string): void {
    if (this.pdoc.map.has(key)) return
    this.#decoded.delete(key)
    this.#held.delete(key)
  }

  /** Whether some link is up and has exchanged states with the other side. */
  inStep(): boolean {
    for (const slot of this.#links) if (slot.state.connected && slot.state.synced) return true
    return false
  }

  /** Notes ids this replica put into the document; they count as outgoing until a link is in step. */
  noteSent(ids: readonly string[]): void {
    if (this.inStep()) return
    for (const id of ids) this.unsent.add(id)
  }

  addLink(kind: string): LinkSlot {
    const slot: LinkSlot = { state: OFFLINE, link: null, kind }
    this.#links.add(slot)
    return slot
  }

  report(slot: LinkSlot, state: LinkState): void {
    const before = slot.state
    slot.state = { connected: state.connected, synced: state.connected && state.synced, error: state.error ?? null, refusal: state.refusal ?? null }
    if (state.error) {
      this.error = state.error
      this.refusal = state.refusal ?? null
    } else if (state.connected) {
      this.error = null
      this.refusal = null
    }
    // In step with the other side: what was written offline went out in the exchange of states.
    if (slot.state.synced && !before.synced) this.unsent.clear()
    if (this.#links.has(slot)) this.#onChange()
  }

  closeLinks(): void {
    for (const slot of this.#links) slot.link?.close()
    this.#links.clear()
    this.#onChange()
  }

  status(): PoolSyncStatus {
    const links = [...this.#links]
    const connected = links.some((l) => l.state.connected)
    const pending = { outgoing: this.unsent.size, incoming: this.touched.size }
    let state: SyncState = SyncState.OFFLINE
    if (this.inStep()) state = pending.outgoing + pending.incoming > 0 || this.wantMaterialize || this.unapplied.size > 0 ? SyncState.SYNCING : SyncState.SYNCED
    else if (connected) state = SyncState.CONNECTED
    return {
      pool: this.pool, state, connected, links: links.length, pending,
      records: this.pdoc.size, quarantined: this.quarantine.size, error: this.error, refusal: this.refusal,
    }
  }

  destroy(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.closeLinks()
    this.pdoc.destroy()
  }
}
