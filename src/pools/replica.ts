import { HybridClock, decodeHlc, encodeHlc } from '../core/clock.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { SignatureCache } from '../core/signature-cache.js'
import { WriteBatcher, type BatchOp } from '../storage/batcher.js'
import type { ReadTx, StoragePort, WriteTx } from '../storage/port.js'
import type { LogRow } from '../storage/schema.js'
import { findConflicts } from './conflicts.js'
import { KeyRing } from './keyring.js'
import { isPayload } from './payload.js'
import {
  POOL_KINDS, PoolKind, isPoolRecord, signRecord,
  type MemoryBody, type MemoryPayload, type PoolBody, type PoolRecord, type TombstoneBody, type TombstoneReason,
} from './records.js'
import { PoolState, viewAt, type Structure, type View } from './state.js'
import type { PoolConflict, PoolId, Rights } from './types.js'

/**
 * This handle's replica of every pool: the records in storage, the state derived from them
 * (state.ts), the keys it holds (keyring.ts), and the write path. It keeps up with what any handle
 * on the same database wrote by reading the shared `log` after the last row it saw; signatures are
 * verified and sealed memories decrypted outside storage transactions (a transaction body awaits
 * only its own requests). Writes issued in one tick share one transaction (WriteBatcher), and a
 * caller's promise settles after its transaction committed.
 *
 * This is where the sync issue plugs in: records that arrive from a Y.Doc are written to `records`
 * with a `log` row each, and the next `ready()` verifies, decrypts, applies and heals them.
 */

const TABLES = ['records', 'log', 'meta'] as const
/** Keep this many log rows (as the fact store does); a handle further behind reloads from the records. */
const LOG_KEEP = 20_000
const NONE: Rights = { read: false, write: false, owner: false }

/** A record to store, with the plaintext payload of a memory this handle wrote. */
export interface Put {
  readonly record: PoolRecord
  readonly payload?: MemoryPayload | null
}

interface Delta {
  readonly reload: boolean
  readonly records: PoolRecord[]
  readonly deleted: string[]
  readonly seq: number
}

/** One pool as the calling identity sees it at one instant. */
export interface Ctx {
  readonly s: Structure
  readonly view: View
  readonly rights: Rights
  readonly now: number
}

export interface ReplicaOptions {
  readonly identity: Identity | null
  readonly now: () => number
  readonly ownsStorage: boolean
  /** Signature verdicts shared with the sync layer (which verified what it stored); a cache of its own by default. */
  readonly signatures?: SignatureCache
}

function denied(message: string, details: Record<string, unknown> = {}): MemweaveError {
  return new MemweaveError(ErrorCode.PERMISSION_DENIED, message, details)
}

function notFound(what: string, id: string): MemweaveError {
  return new MemweaveError(ErrorCode.NOT_FOUND, `${what} ${id} is not known here`, { id })
}

export class PoolReplica {
  readonly state = new PoolState()
  readonly ring: KeyRing
  readonly #storage: StoragePort
  readonly #identity: Identity | null
  readonly #now: () => number
  readonly #clock: HybridClock
  readonly #batcher: WriteBatcher<WriteTx>
  readonly #owns: boolean
  /** Ids whose signature verified (or that this handle signed): content-addressed, so verified once. */
  readonly #verified = new Set<string>()
  readonly #signatures: SignatureCache
  /** The last view (and its conflicts) of each derived structure, reused until a memory expires or the records change. */
  readonly #views = new WeakMap<Structure, { view: View; conflicts?: PoolConflict[] }>()
  #seq = 0
  #stale = true
  #opening: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  #closed = false

  constructor(storage: StoragePort, options: ReplicaOptions) {
    this.#storage = storage
    this.#identity = options.identity
    this.#now = options.now
    this.#clock = new HybridClock(this.#now)
    this.ring = new KeyRing(this.#identity)
    this.#owns = options.ownsStorage
    this.#signatures = options.signatures ?? new SignatureCache()
    this.#batcher = new WriteBatcher((ops) => this.#commit(ops))
  }

  get identity(): Identity | null {
    return this.#identity
  }

  now(): number {
    return this.#now()
  }

  /** A fresh hybrid-logical-clock timestamp (text). */
  tick(): string {
    return encodeHlc(this.#clock.tick())
  }

  /** Runs `run` inside the next batch's transaction. */
  enqueue<T>(run: (tx: WriteTx) => Promise<T>): Promise<T> {
    return this.#batcher.enqueue(run)
  }

  /** Stores records and hard-deletes rows in the next batch. */
  save(puts: readonly Put[], deletes: readonly string[] = []): Promise<void> {
    return this.#batcher.enqueue((tx) => this.persist(tx, puts, deletes))
  }

  /** Resolves once every write enqueued before the call has committed (or failed). */
  flush(): Promise<void> {
    return this.#batcher.flush()
  }

  /** Idempotent; closes storage only when this replica owns it. */
  async close(): Promise<void> {
    if (this.#closed) return
    await this.#batcher.flush()
    this.#closed = true
    if (this.#owns) await this.#storage.close()
  }

  async #open(): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    if (this.#owns) {
      this.#opening ??= this.#storage.open()
      await this.#opening
    }
  }

  /** Opens storage (if owned), waits for the committing batch, and catches up with every handle's records. */
  async ready(): Promise<void> {
    await this.#open()
    await this.#batcher.inflight
    this.#refreshing ??= this.#refresh().finally(() => {
      this.#refreshing = undefined
    })
    await this.#refreshing
  }

  async #refresh(): Promise<void> {
    const delta = await this.#storage.read(TABLES, (tx) => this.#readDelta(tx))
    if (delta.reload) this.state.clear()
    for (const id of delta.deleted) this.state.remove(id)
    // Signatures are checked outside the transaction (IndexedDB would commit it under an awaited crypto call).
    const fresh = delta.records.filter((r) => !this.state.has(r.id))
    const verdicts = await this.#signatures.verifyStored(fresh.filter((r) => !this.#verified.has(r.id)))
    fresh.forEach((r) => {
      if (!this.#verified.has(r.id) && verdicts.get(SignatureCache.key(r)) !== true) return
      this.#verified.add(r.id)
      this.#clock.observe(decodeHlc(r.hlc))
      const body = r.body as MemoryBody
      this.state.apply(r, r.kind === PoolKind.MEMORY && 'payload' in body && isPayload(body.payload) ? body.payload : null)
    })
    this.#seq = delta.seq
    this.#stale = false
    // New keys and sealed memories arrive only as records.
    if (fresh.length) await this.#openSealed()
    await this.#purge()
  }

  async #readDelta(tx: ReadTx): Promise<Delta> {
    const last = (await tx.last<LogRow>('log'))?.seq ?? 0
    if (!this.#stale) {
      if (last === this.#seq) return { reload: false, records: [], deleted: [], seq: last }
      const floor = (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0
      if (this.#seq >= floor) {
        const rows = await tx.after<LogRow>('log', this.#seq)
        const puts = [...new Set(rows.filter((r) => r.op === 'put').map((r) => r.ref))]
        const got = await tx.getMany<PoolRecord>('records', puts)
        return {
          reload: false,
          records: got.filter(isPoolRecord),
          deleted: rows.filter((r) => r.op === 'del').map((r) => r.ref),
          seq: rows.at(-1)?.seq ?? last,
        }
      }
    }
    // First load, or too far behind the trimmed log: read every pool record.
    const records: PoolRecord[] = []
    for (const kind of POOL_KINDS) records.push(...(await tx.where<PoolRecord>('records', 'kind', kind)))
    return { reload: true, records: records.filter(isPoolRecord), deleted: [], seq: last }
  }

  /** Unwraps keys addressed to us, then decrypts sealed memories we now hold keys for. */
  async #openSealed(): Promise<void> {
    for (const pool of this.state.poolIds()) {
      const s = this.state.structure(pool)
      if (s?.create.body.encrypted) await this.ring.openWraps(s)
    }
    for (const r of this.state.sealedPending()) {
      const payload = await this.ring.openPayload(r)
      if (payload) this.state.setPayload(r.id, payload)
    }
  }

  /** Records that a valid tombstone covers are deleted again wherever they reappear (healing). */
  async #purge(): Promise<void> {
    const dead: string[] = []
    for (const pool of this.state.poolIds()) for (const id of this.state.structure(pool)?.dead ?? []) dead.push(id)
    if (dead.length) await this.#batcher.enqueue((tx) => this.persist(tx, [], dead))
  }

  async #commit(ops: ReadonlyArray<BatchOp<WriteTx, unknown>>): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    let results: unknown[]
    try {
      results = await this.#storage.write(TABLES, async (tx) => {
        const out: unknown[] = []
        for (const op of ops) out.push(await op.run(tx))
        return out
      })
    } catch (err) {
      // The state was updated inside the failed transaction: rebuild it from storage.
      this.#stale = true
      throw err
    }
    ops.forEach((op, i) => op.resolve(results[i]))
  }

  /** Inside a transaction: only the transaction's own awaits. */
  async persist(tx: WriteTx, puts: readonly Put[], deletes: readonly string[]): Promise<void> {
    if (puts.length) await tx.put('records', puts.map((p) => p.record))
    if (deletes.length) await tx.delete('records', deletes)
    const rows: LogRow[] = [...puts.map((p) => ({ ref: p.record.id, op: 'put' as const })), ...deletes.map((ref) => ({ ref, op: 'del' as const }))]
    if (rows.length === 0) return
    const keys = (await tx.put('log', rows)) as number[]
    await this.#trimLog(tx, keys)
    for (const p of puts) {
      this.#verified.add(p.record.id)
      this.state.apply(p.record, p.payload ?? null)
    }
    for (const id of deletes) this.state.remove(id)
  }

  /** Same rule as the fact store: keep the last LOG_KEEP rows; a handle further behind reloads. */
  async #trimLog(tx: WriteTx, keys: readonly number[]): Promise<void> {
    const top = Math.max(0, ...keys)
    if (top <= LOG_KEEP || !keys.some((k) => k % 1000 === 0)) return
    const floor = top - LOG_KEEP
    const old = await tx.after<LogRow>('log', 0, 5000)
    const drop = old.filter((r) => r.seq! <= floor).map((r) => r.seq!)
    if (drop.length === 0) return
    await tx.delete('log', drop)
    await tx.put('meta', [{ key: 'logFloor', value: drop.at(-1)! }])
  }

  /** The acting identity. @throws PERMISSION_DENIED when the memory has none. */
  me(): Identity {
    if (!this.#identity) throw denied('pools need an identity: create the memory with options.identity')
    return this.#identity
  }

  /** A new record by this identity, timestamped and signed (outside any transaction). */
  async sign<B extends PoolBody>(s: { id: PoolId; tenant: string | null }, kind: PoolKind, body: B): Promise<PoolRecord<B>> {
    const me = this.me()
    return signRecord(me, { kind, pool: s.id, tenant: s.tenant, body, author: me.did, hlc: encodeHlc(this.#clock.tick()) })
  }

  /** A memory record: sealed under the current key in an encrypted pool, plaintext otherwise. */
  async memoryRecord(s: Structure, payload: MemoryPayload): Promise<Put> {
    const me = this.me()
    const meta = { kind: PoolKind.MEMORY, pool: s.id, tenant: s.tenant, author: me.did, hlc: encodeHlc(this.#clock.tick()) }
    const body: MemoryBody = s.create.body.encrypted ? await this.ring.sealPayload(meta, payload, s) : { payload }
    return { record: await signRecord(me, { ...meta, body }), payload }
  }

  /** Forgets `targets`: one tombstone (with their chain links) and the hard delete of their rows, in one transaction with `extra`. */
  async tombstone(s: Structure, targets: readonly string[], reason: TombstoneReason, extra: Put[] = []): Promise<void> {
    const links = targets.map((id) => ({ id, supersedes: [...(s.memories.get(id)?.payload?.supersedes ?? [])] }))
    const puts = [...extra]
    if (links.length) puts.push({ record: await this.sign<TombstoneBody>(s, PoolKind.TOMBSTONE, { targets: links, reason }) })
    if (puts.length) await this.#batcher.enqueue((tx) => this.persist(tx, puts, targets))
  }

  /** The pool at this instant as this identity sees it. @throws NOT_FOUND for a pool not founded here. */
  context(pool: PoolId): Ctx {
    const s = this.state.structure(pool)
    if (!s) throw notFound('pool', pool)
    const now = this.#now()
    let cached = this.#views.get(s)
    if (!cached || now < cached.view.now || now >= cached.view.stableUntil) this.#views.set(s, (cached = { view: viewAt(s, now) }))
    // Same memories, same supersession; only the clock that importance and lifecycle read moves.
    const view = cached.view.now === now ? cached.view : { ...cached.view, now }
    return { s, view, rights: this.#identity ? s.acl.at(this.#identity.did, null, now) : NONE, now }
  }

  conflictsOf(view: View): PoolConflict[] {
    // Conflicts do not depend on the clock within a view's stable span.
    const cached = this.#views.get(view.s)
    if (!cached || cached.view.live !== view.live) return findConflicts(view)
    return (cached.conflicts ??= findConflicts(view))
  }
}
