import { HybridClock, assertStamp, encodeHlc, type Hlc } from '../core/clock.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { recordId } from '../core/ids.js'
import { signRecord } from '../core/signed-record.js'
import { WriteBatcher, type BatchOp, type Joinable } from '../storage/batcher.js'
import type { ReadTx, StoragePort, WriteTx } from '../storage/port.js'
import type { LogRow, StoredRecord } from '../storage/schema.js'
import type { PoolGate, PoolWriteGrant } from './pool-gate.js'
import { trimLog } from './trim.js'
import { readAfter } from './catch-up.js'
import { Fanout } from './fanout.js'
import { checkStoreFormat, markStoreFormat, storageLabel } from './format-marker.js'
import { observeAll } from './observe-stamps.js'
import type { Deriver, Forwarder, LogChange, LogWriter } from './types.js'
import { BatchWriter, PositionTaken } from './writer.js'

/** Every table a batch may touch: one transaction per tick covers every module's writes. */
const TABLES = ['records', 'log', 'meta', 'vectors', 'requests'] as const

export interface RecordLogOptions {
  readonly identity?: Identity | null
  /** Wall clock in ms (tests inject it). */
  readonly now?: () => number
  /** Close the storage with the log. Default true. */
  readonly ownsStorage?: boolean
}

/** Where a record of this Memory goes, and when it was made. */
export interface SealOptions {
  readonly tenant?: string | null
  /** A stamp taken earlier with `tick()` (a body that quotes its own write time). Default: a fresh one. */
  readonly hlc?: string
  /** The author, when a write was prepared by another handle of the same identity (a forwarded write). Default: this Memory's identity. */
  readonly author?: string | null
}

/** Calm batches an optimistic commit waits for after its first abort, and at most (`#attempt`). */
const PATIENCE_MIN = 8
const PATIENCE_MAX = 1024
/**
 * How recently a handle must have read the log's end to write optimistically. Its row takes the
 * position after the last row it saw; were it more than LOG_KEEP rows behind, the trim would have
 * freed that position and the row would land below rows it never read. Another handle would have
 * to commit 20,000 transactions within this time: IndexedDB runs them one at a time, each a round
 * trip to its backend (0.3 to 0.5 ms at best here), so that takes seconds.
 */
const CONFIRMED_MS = 1000

type Named = (w: LogWriter, args: never) => Promise<unknown>

/** A named write's args for one item and for several (`RecordLog.submitItem`). */
export interface ItemForms {
  one(item: unknown): unknown
  many(items: readonly unknown[]): unknown
}

/**
 * The one engine under a Memory's protocol modules (DESIGN.md "Records", "Runtime"). It owns:
 * - catch-up: other handles on the same storage (tabs, workers, processes) append to the shared
 *   `log` table; one pass reads the rows after the last one seen, fetches each record once, and
 *   fans it out to the derivers of its kind. A handle behind the trimmed log reloads by kind;
 * - writes: every module's writes queued in one tick run against one batch and commit in ONE
 *   storage transaction, caught up first, so a write decides on fresh state;
 * - one hybrid logical clock, which observes every record it delivers, so stamps order across
 *   modules and replicas;
 * - one trim rule for the log; sealing (content id, or a signature for a pooled record through the
 *   pool gate); flush and close; the `onAppend` feed the sync layer carries into pool documents;
 * - named writes that a follower tab forwards to the elected leader (`define`, `setForwarder`), so
 *   the runtime moves writes without knowing any protocol module.
 */
export class RecordLog {
  readonly storage: StoragePort
  readonly identity: Identity | null
  readonly #clock: HybridClock
  readonly #now: () => number
  readonly #owns: boolean
  /** The derivers and the `onAppend` listeners, and what the current pass told them. */
  readonly #fanout = new Fanout((records) => observeAll(this.#clock, this.#now, records))
  readonly #batcher: WriteBatcher<BatchWriter>
  readonly #mutations = new Set<Promise<unknown>>()
  readonly #named = new Map<string, Named>()
  /** The joinable form of each named write submitted by items (`submitItem`), made once per name. */
  readonly #joins = new Map<string, Joinable<BatchWriter, unknown>>()
  /** `#open()` has succeeded: writes queue without awaiting it. */
  #opened = false
  #gate: PoolGate | null = null
  #forwarder: Forwarder | null = null
  /** Loads the module that defines a named write the leader does not know yet (a lazily loaded module). */
  #resolveNamed: ((name: string) => Promise<void>) | null = null
  #seq = 0
  #trimmedAt = 0
  #stale = true
  #loadedOnce = false
  /** Catch-ups and commits of this log run one at a time, so each sees the state the previous left. */
  #lock: Promise<unknown> = Promise.resolve()
  #opening: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  #followers = 0
  #unwatch: (() => void) | undefined
  /** Stops hearing other handles' commits (the optimistic batches' back-off). */
  #unhear: (() => void) | undefined
  /** The storage lacks this build's format marker: the next commit writes it (format-marker.ts). */
  #unmarked = false
  /** Batches committed since this handle last found another handle's rows (optimistic commits, `#attempt`). */
  #calm = 0
  /** Calm batches needed before the next optimistic one: 0 until another writer is met, then doubling per abort. */
  #patience = 0
  /** When this handle last read the log's end (`performance.now()`): an optimistic batch needs it recent. */
  #confirmedAt = -Infinity
  #closed = false
  #closing: Promise<void> | undefined
  /**
   * What an optimistic batch throws out of its transaction when its log position is taken, to
   * abort it and run again; caught in `#attempt`, never seen by a caller. Made once: an Error
   * captures its stack when made, and one made per batch was 72 µs of a 1.6 ms awaited write in
   * a Chromium CPU profile (issue 31, seventh round).
   */
  readonly #behind = new MemweaveError(ErrorCode.INTERNAL, 'another handle committed after this one\'s position: the batch runs again')

  constructor(storage: StoragePort, options: RecordLogOptions = {}) {
    this.storage = storage
    this.identity = options.identity ?? null
    this.#now = options.now ?? Date.now
    this.#clock = new HybridClock(this.#now)
    this.#owns = options.ownsStorage ?? true
    this.#batcher = new WriteBatcher((ops) => this.#commit(ops))
    this.define('records.append', (w, a: { records: StoredRecord[]; removed: string[] }) => appendAndRemove(w, a.records, a.removed))
  }

  // ---- clock and sealing -------------------------------------------------------------------------

  /** A fresh stamp, later than every one issued or delivered here. */
  tick(): string {
    return encodeHlc(this.#clock.tick())
  }

  /** `tick()` with its decoded time as well, for a caller that needs both (no decode of what was just encoded). */
  tickDecoded(): { readonly stamp: string; readonly hlc: Hlc } {
    const hlc = this.#clock.tick()
    return { stamp: encodeHlc(hlc), hlc }
  }

  /** This log's wall clock in ms (the one its stamps follow): what sync holds a record stamped too far ahead against. */
  now(): number {
    return this.#now()
  }

  /** The pool gate (set by the Memory once pools can load). */
  set gate(gate: PoolGate | null) {
    this.#gate = gate
  }

  /**
   * Whether this Memory may write into `pool` now.
   * @throws MemweaveError CAPABILITY_NOT_SUPPORTED without pools (a standalone module); what PoolGate.writable throws.
   */
  grant(pool: string, author?: string): Promise<PoolWriteGrant> {
    if (!this.#gate) {
      return Promise.reject(new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'writing into a pool needs a Memory with pools (createMemory)', { field: 'pool' }))
    }
    return this.#gate.writable(pool, author)
  }

  /**
   * A new local record of this Memory: stamped by the one clock, authored by its identity,
   * identified by its content (BLAKE2b-128 over its canonical JSON). Synchronous, so a write may
   * seal inside its transaction.
   */
  seal(kind: string, body: unknown, options: SealOptions = {}): StoredRecord {
    const author = options.author === undefined ? (this.identity?.did ?? null) : options.author
    const hlc = options.hlc === undefined ? this.tick() : assertStamp(options.hlc, 'hlc')
    const unsigned = { kind, tenant: options.tenant ?? null, body, author, hlc }
    return { id: recordId(unsigned), ...unsigned }
  }

  /**
   * A new record for a pool: names the pool, carries its tenant, and is signed by its author over
   * its id. Runs outside any transaction (signing awaits crypto). `place` is a grant from `grant()`,
   * or the pools module's own judgement for its records. `signer` is the author: this Memory's
   * identity, or the one a call names (SMALL writes as `options.identity`; the grant was asked for it).
   * @throws MemweaveError PERMISSION_DENIED without an identity.
   */
  async sealPooled(
    kind: string, body: unknown, place: { readonly pool: string; readonly tenant: string | null }, hlc?: string, signer: Identity | null = this.identity,
  ): Promise<StoredRecord & { readonly pool: string; readonly sig: string; readonly author: string }> {
    if (!signer) throw new MemweaveError(ErrorCode.PERMISSION_DENIED, 'a pooled record needs an identity: create the memory with options.identity')
    const stamp = hlc === undefined ? this.tick() : assertStamp(hlc, 'hlc')
    return signRecord(signer, { kind, pool: place.pool, tenant: place.tenant, body, author: signer.did, hlc: stamp })
  }

  // ---- derivers and the feed ---------------------------------------------------------------------

  /**
   * Adds a module's deriver and loads it with every stored record of its kinds, at the point the
   * log has reached (the other derivers catch up in the same read), so no record is missed or doubled.
   */
  async register(deriver: Deriver): Promise<void> {
    await this.#open()
    await this.#batcher.inflight
    await this.#exclusive(() =>
      this.storage.read(TABLES, async (tx) => {
        await this.#catchUp(tx)
        deriver.reset()
        await this.#fanout.load(tx, [deriver])
        this.#fanout.add(deriver)
      }),
    ).catch((err: unknown) => this.#failed(err))
    this.#fanout.afterPass()
    await deriver.settle?.()
  }

  /** Calls `listener` after each commit of this Memory and each catch-up that found other handles' changes. */
  onAppend(listener: (change: LogChange) => void): () => void {
    return this.#fanout.listen(listener)
  }

  /**
   * Catch up as soon as another handle commits (live queries, sync), until the returned function
   * is called. Without a way to hear others (the adapter has no `watch`), readers catch up on their next call.
   */
  follow(): () => void {
    this.#followers++
    if (!this.#unwatch && this.storage.watch) {
      this.#unwatch = this.storage.watch(() => {
        if (this.#followers > 0 && !this.#closed) this.ready().catch(() => undefined)
      })
    }
    let done = false
    return () => {
      if (done) return
      done = true
      this.#followers--
    }
  }

  // ---- reading ------------------------------------------------------------------------------------

  async #open(): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    // The format marker is read before any record (issue 28): a newer build's store is refused untouched.
    this.#opening ??= this.storage.open().then(async () => {
      this.#unmarked = await checkStoreFormat(this.storage, storageLabel(this.storage))
      // Another handle committed: it writes here too, so the next batches read first (`#attempt`:
      // an abort costs a rebuild). Its notice may come after this handle's next batch, which the
      // taken log position then catches.
      this.#unhear ??= this.storage.watch?.(() => {
        this.#calm = 0
        this.#patience = Math.max(this.#patience, PATIENCE_MIN)
      })
      this.#opened = true
    }).catch((err: unknown) => {
      // Opened again by the next call: a storage error at open is not the handle's end (issue 30).
      this.#opening = undefined
      throw err
    })
    await this.#opening
  }

  /**
   * Opens storage, waits for the batch being committed (read barrier), catches every deriver up
   * with what any handle committed, then settles `deriver` (every deriver when none is named).
   * Calls in the same tick share one catch-up read.
   */
  async ready(deriver?: Deriver): Promise<void> {
    await this.#open()
    await this.#batcher.inflight
    this.#refreshing ??= this.#exclusive(() => this.storage.read(TABLES, (tx) => this.#catchUp(tx)))
      .then(() => this.#fanout.afterPass(), (err: unknown) => this.#failed(err))
      .finally(() => {
        this.#refreshing = undefined
      })
    await this.#refreshing
    if (deriver) await deriver.settle?.()
    else for (const d of this.#fanout.derivers) await d.settle?.()
  }

  // ---- reading stored records ---------------------------------------------------------------------

  /**
   * Stored records by id, in the order asked (undefined where none is stored): for what a module
   * does not keep derived (an artifact's older version, a record sync heals). What storage holds
   * now; call `ready()` first to see every handle's commits.
   */
  async records(ids: readonly string[]): Promise<Array<StoredRecord | undefined>> {
    await this.#open()
    if (ids.length === 0) return []
    return this.storage.read(['records'], (tx) => tx.getMany<StoredRecord>('records', ids))
  }

  /** Every stored record of these kinds, kind by kind (by the `kind` index: the cost is theirs, not the store's). */
  async recordsOfKinds(kinds: readonly string[]): Promise<StoredRecord[]> {
    await this.#open()
    return this.storage.read(['records'], async (tx) => {
      const all: StoredRecord[] = []
      for (const kind of kinds) all.push(...(await tx.where<StoredRecord>('records', 'kind', kind)))
      return all
    })
  }

  /** Writes queued for the next batch (tests, diagnostics). */
  get queued(): number {
    return this.#batcher.queued
  }

  /** The last log row this handle has seen (tests, diagnostics). */
  get position(): number {
    return this.#seq
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#lock.then(fn, fn)
    this.#lock = run.catch(() => undefined)
    return run
  }

  async #catchUp(tx: ReadTx): Promise<void> {
    if (this.#stale) return this.#reload(tx)
    const read = await readAfter(tx, this.#seq)
    if (read === null) {
      this.#confirmedAt = performance.now()
      return
    }
    if (read === 'reload') return this.#reload(tx)
    const { records, removed } = read
    this.#seq = read.seq
    this.#calm = 0
    this.#confirmedAt = performance.now()
    await this.#fanout.deliver(tx, records, removed, false)
    this.#fanout.emit({ records, removed, local: false, reload: false })
  }

  async #reload(tx: ReadTx): Promise<void> {
    for (const d of this.#fanout.derivers) d.reset()
    // The log's end is read alongside the records (one transaction: the same state either way).
    const [last] = await Promise.all([tx.last<LogRow>('log'), this.#fanout.load(tx, this.#fanout.derivers)])
    this.#seq = last?.seq ?? 0
    this.#confirmedAt = performance.now()
    this.#trimmedAt = this.#seq
    this.#stale = false
    // The first load is not news: nothing was known before it.
    if (this.#loadedOnce) this.#fanout.emit({ records: [], removed: [], local: false, reload: true })
    this.#loadedOnce = true
  }

  /** A pass failed part-way: derived state may hold some of it, so the next pass rebuilds everything. */
  #failed(err: unknown): never {
    this.#stale = true
    this.#fanout.drop()
    throw err
  }

  // ---- writing ------------------------------------------------------------------------------------

  /**
   * Queues a write into this tick's batch and resolves once the batch committed. `run` sees every
   * deriver caught up and every earlier write of the batch applied; it may await only the batch's
   * transaction (`w.tx`, `w.append`, `w.remove`). A throw fails the whole batch: check first, return an outcome.
   */
  write<R>(run: (w: LogWriter) => Promise<R> | R): Promise<R> {
    // Opened already (every write after the first): queued in this call. Writes of one tick then
    // reach the batch in the order they reached the log, whichever module or path they took.
    if (this.#opened && !this.#closed) return this.#track(this.#batcher.enqueue(async (w) => run(w)))
    return this.#track(
      (async () => {
        await this.#open()
        return this.#batcher.enqueue(async (w) => run(w))
      })(),
    )
  }

  /** Remembers a mutation from the moment it is called, so flush() waits for it even before it is queued. */
  #track<T>(mutation: Promise<T>): Promise<T> {
    this.#mutations.add(mutation)
    const done = (): void => void this.#mutations.delete(mutation)
    mutation.then(done, done)
    return mutation
  }

  /**
   * Remembers a module's mutation from the moment it is called (preparing it may await crypto or an
   * embedder before it reaches `write`), so flush() and close() wait for it.
   */
  track<T>(mutation: () => Promise<T>): Promise<T> {
    return this.#track(mutation())
  }

  async #commit(ops: ReadonlyArray<BatchOp<BatchWriter, unknown>>): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    for (;;) {
      const outcome = await this.#attempt(ops)
      if (outcome === 'again') continue
      const { writer, results } = outcome
      this.#unmarked = false
      this.#calm++
      this.#fanout.emit({ records: writer.appended, removed: writer.removed, local: true, reload: false })
      ops.forEach((op, i) => op.resolve(results[i]))
      this.#fanout.afterPass()
      return
    }
  }

  /**
   * One transaction of a batch. Caught up first (the catch-up read answered before the batch
   * runs), or optimistic (`#optimistic`): the batch runs on the state this handle has, and its log
   * row takes the position right after the last row this handle saw with `WriteTx.add`, sent with
   * the puts and `commit()` at once: one round trip to IndexedDB instead of two. When another
   * handle committed after that position its row holds the position, the add fails and the whole
   * transaction aborts (nothing written). The batch's derived state was computed on stale state,
   * so it is rebuilt from storage and the batch runs again caught up first, deciding as a caught-up
   * write would (issue 31, fourth round). A batch that writes no log row (side tables only) has no
   * position to take: it waits for the catch-up read's answer before it commits.
   */
  async #attempt(ops: ReadonlyArray<BatchOp<BatchWriter, unknown>>): Promise<{ writer: BatchWriter; results: unknown[] } | 'again'> {
    let writer: BatchWriter | undefined
    const behind = this.#behind
    try {
      const results = await this.#exclusive(() =>
        this.storage.write(TABLES, async (tx) => {
          const optimistic = this.#optimistic(tx)
          // Asked first when due (half the confirmation's life gone), not awaited: its answer
          // renews this handle's knowledge that it is at the log's end (CONFIRMED_MS).
          let check = optimistic && performance.now() - this.#confirmedAt > CONFIRMED_MS / 2 ? tx.after<LogRow>('log', this.#seq, 1) : null
          if (!optimistic) await this.#catchUp(tx)
          const w = (writer = new BatchWriter(tx, (records, removed) => this.#fanout.deliver(tx, records, removed, true)))
          const out: unknown[] = []
          for (const op of ops) out.push(await op.run(w))
          if (this.#unmarked) await markStoreFormat(w.tx, storageLabel(this.storage))
          // The trim goes before the flush, so the flush's requests are the transaction's last and
          // it commits as soon as they are done; it judges by the log's end before this batch's row.
          await this.#trim(tx)
          if (optimistic && !w.changed) {
            check ??= tx.after<LogRow>('log', this.#seq, 1)
            if ((await check).length > 0) throw behind
          }
          let seqs: number[]
          try {
            seqs = await w.flush(optimistic && w.changed ? { at: this.#seq + 1 } : {})
          } catch (err) {
            if (err instanceof PositionTaken) throw behind
            throw err
          }
          if (check) {
            // Rows after the position, yet the position was free: rows in between were trimmed, so
            // this handle was more than LOG_KEEP rows behind (CONFIRMED_MS rules it out). The next
            // pass rebuilds from storage.
            if ((await check).length > 0) this.#stale = true
            else this.#confirmedAt = performance.now()
          }
          for (const seq of seqs) this.#seq = Math.max(this.#seq, seq)
          return out
        }),
      )
      return { writer: writer!, results }
    } catch (err) {
      if (err === behind) {
        // Back off: a handle that met another writer stays caught-up-first for a while, so
        // interleaved writers do not rebuild their state on every write.
        this.#patience = Math.min(PATIENCE_MAX, Math.max(PATIENCE_MIN, this.#patience * 2))
        this.#calm = 0
        this.#stale = true
        this.#fanout.drop()
        return 'again'
      }
      // Derived state took the batch's records before the transaction failed: rebuild it from storage.
      this.#failed(err)
    }
  }

  /**
   * Whether this batch may run before its catch-up read is answered: its state is loaded; the
   * backend can fail a transaction on a taken key after `commit()` (IndexedDB: `add`, `commit`);
   * this handle has not met another writer in its last `#patience` batches; and it read the log's
   * end within CONFIRMED_MS, so the rows after its position cannot have been trimmed away.
   */
  #optimistic(tx: WriteTx): boolean {
    return (
      !this.#stale && typeof tx.commit === 'function' && typeof tx.add === 'function' && this.#calm >= this.#patience &&
      performance.now() - this.#confirmedAt < CONFIRMED_MS
    )
  }

  async #trim(tx: WriteTx): Promise<void> {
    const trimmed = await trimLog(tx, this.#seq, this.#trimmedAt)
    if (trimmed) this.#trimmedAt = this.#seq
  }

  /** Stores records and hard-deletes others in the next batch; forwarded to the leader where one commits for this tab. */
  append(records: readonly StoredRecord[], removed: readonly string[] = []): Promise<void> {
    return this.submit('records.append', { records: [...records], removed: [...removed] }) as Promise<void>
  }

  // ---- named writes (the dedicated-worker runtime forwards these) ---------------------------------

  /**
   * Declares a write that a follower tab may hand to the elected leader: `args` must be
   * structured-cloneable and carry everything secret already applied (signatures), so keys never
   * leave the tab that owns them. Names are `module.verb`.
   */
  define<A>(name: string, apply: (w: LogWriter, args: A) => Promise<unknown>): void {
    this.#named.set(name, apply as Named)
  }

  /**
   * `submit` for a named write that takes many items at once: its args for items are
   * `forms.many(items)`, and its result one result per item, in order. Items submitted one after
   * another in a tick, nothing queued between them, run as one call of it in the batch (a burst of
   * a thousand fact writes is one run and one delivery to the derived state, not a thousand:
   * issue 31, fifth round), and each resolves with its own result once the batch committed. Where
   * another handle commits for this one, each item is forwarded alone as `forms.one(item)`.
   */
  submitItem(name: string, item: unknown, forms: ItemForms): Promise<unknown> {
    const apply = this.#named.get(name)
    if (!apply) return Promise.reject(new MemweaveError(ErrorCode.INTERNAL, `no write named "${name}" is defined`))
    if (this.#forwarder) return this.submit(name, forms.one(item))
    let join = this.#joins.get(name)
    if (!join) {
      // The write as defined when the op runs (a module defined again on this log replaces it, as for `submit`'s next call).
      const runAll = async (w: BatchWriter, items: readonly unknown[]): Promise<readonly unknown[]> => (await this.#named.get(name)!(w, forms.many(items) as never)) as readonly unknown[]
      this.#joins.set(name, (join = { runAll }))
    }
    const joined = join
    // Queued in this call once opened, as `write` queues.
    if (this.#opened && !this.#closed) return this.#track(this.#batcher.enqueueItem(joined, item))
    return this.#track(this.#open().then(() => this.#batcher.enqueueItem(joined, item)))
  }

  /** Runs a named write here (queued in this call, as `write` queues), or forwards it when another handle commits for this one. */
  submit(name: string, args: unknown): Promise<unknown> {
    const apply = this.#named.get(name)
    if (!apply) return Promise.reject(new MemweaveError(ErrorCode.INTERNAL, `no write named "${name}" is defined`))
    const forwarder = this.#forwarder
    if (!forwarder) return this.write((w) => apply(w, args as never))
    return this.#track(
      (async () => {
        const result = await forwarder({ name, args })
        // Read your writes: the leader's commit is in storage; catch up before resolving.
        await this.ready()
        return result
      })(),
    )
  }

  /**
   * Commits a named write forwarded by another handle. `requestId` makes it exactly-once: a retry
   * after a leader change is answered from the first commit's result, recorded in the same transaction.
   * @internal
   */
  async commitForwarded(name: string, args: unknown, requestId: string): Promise<unknown> {
    if (!this.#named.has(name) && this.#resolveNamed) await this.#resolveNamed(name)
    const apply = this.#named.get(name)
    if (!apply) throw new MemweaveError(ErrorCode.INTERNAL, `no write named "${name}" is defined`)
    return this.write(async (w) => {
      const done = await w.tx.get<{ result: unknown }>('requests', requestId)
      if (done) return done.result
      const result = await apply(w, args as never)
      await w.tx.put('requests', [{ id: requestId, result, at: this.#seq }])
      return result
    })
  }

  /**
   * Sends this log's named writes to another handle (null: commit here again).
   * @internal
   */
  setForwarder(forwarder: Forwarder | null): void {
    this.#forwarder = forwarder
  }

  /**
   * When a tick's batch is committed (default: at the end of the current task). Tests hold it to
   * issue writes from several modules into one tick deterministically.
   * @internal
   */
  set schedule(schedule: (commit: () => void) => void) {
    this.#batcher.schedule = schedule
  }

  /** How the leader loads the module that defines a write it was forwarded. @internal */
  set resolveNamed(resolve: ((name: string) => Promise<void>) | null) {
    this.#resolveNamed = resolve
  }

  // ---- flush and close ----------------------------------------------------------------------------

  /** Resolves once every write called before it has committed (or failed). */
  async flush(): Promise<void> {
    while (this.#mutations.size) await Promise.allSettled([...this.#mutations])
    await this.#batcher.flush()
  }

  get closed(): boolean {
    return this.#closed
  }

  /** Commits pending writes, then closes the storage when the log owns it. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      try {
        await this.flush()
      } finally {
        this.#closed = true
        this.#unwatch?.()
        this.#unhear?.()
        this.#fanout.clearListeners()
        if (this.#owns && this.#opening) await this.storage.close()
      }
    })()
    return this.#closing
  }
}

async function appendAndRemove(w: LogWriter, records: readonly StoredRecord[], removed: readonly string[]): Promise<void> {
  await w.append(records)
  await w.remove(removed)
}

/**
 * The record log a module runs on: the Memory's own, or (for a module built alone on a storage
 * port, as tools and tests do) a private one the module owns and closes.
 */
export function logFor(source: StoragePort | RecordLog, options: RecordLogOptions): { log: RecordLog; owned: boolean } {
  if (source instanceof RecordLog) return { log: source, owned: false }
  return { log: new RecordLog(source, options), owned: true }
}
