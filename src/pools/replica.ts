import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { SignatureCache, STORED_DIGITS } from '../core/signature-cache.js'
import { LogAttachment } from '../records/attach.js'
import { MetaRows } from '../records/meta-rows.js'
import { logFor, type RecordLog } from '../records/log.js'
import type { Delivery, Deriver, LogWriter } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import { KeyRing } from './keyring.js'
import { isPayload } from './payload.js'
import {
  POOL_KINDS, PoolKind, isPoolRecord,
  type MemoryBody, type MemoryPayload, type PoolBody, type PoolRecord, type TombstoneBody, type TombstoneReason,
} from './records.js'
import { PoolState } from './state.js'
import type { LiveMemory, Structure } from './structure.js'
import { viewAt, type View } from './view.js'
import type { PoolConflict, PoolId, Rights } from './types.js'

/**
 * This Memory's replica of every pool on the record log (src/records/): the state derived from
 * the pool records (state.ts), the keys it holds (keyring.ts), and how a pool record is made and
 * stored. The log delivers every pool record once, whoever committed it:
 * - records this Memory appends are applied at once (a write decides on the batch's earlier
 *   writes), with the plaintext of a memory it sealed itself;
 * - records of other handles (tabs, processes, the sync layer writing what a Y.Doc brought) wait
 *   until `settle()`, outside any transaction, where their signatures are verified (IndexedDB
 *   would commit a transaction under an awaited crypto call), keys and sealed memories opened,
 *   and records that a valid tombstone covers deleted again (healing).
 */

/** A record to store, with the plaintext payload of a memory this handle wrote. */
export interface Put {
  readonly record: PoolRecord
  readonly payload?: MemoryPayload | null
}

/** One pool as the calling identity sees it at one instant. */
export interface Ctx {
  readonly s: Structure
  readonly view: View
  readonly rights: Rights
  readonly now: number
}

export interface ReplicaOptions {
  /** For a replica alone on a storage port; on a Memory's record log, the log's identity acts. */
  readonly identity: Identity | null
  readonly now: () => number
  /** Signature verdicts shared with the sync layer (which verified what it stored); a cache of its own by default. */
  readonly signatures?: SignatureCache
}

const NONE: Rights = { read: false, write: false, owner: false }

/**
 * Meta rows of signature verdicts: `digests` concatenates STORED_DIGITS-hex-digit digests (`SignatureCache`) of records
 * that verified on this storage. One row per save; a save happens once this many wait, and on close.
 */
const VERDICTS_PER_ROW = 4096
interface VerdictRow {
  readonly key: string
  readonly digests: string
}

export function denied(message: string, details: Record<string, unknown> = {}): MemweaveError {
  return new MemweaveError(ErrorCode.PERMISSION_DENIED, message, details)
}

export function notFound(what: string, id: string): MemweaveError {
  return new MemweaveError(ErrorCode.NOT_FOUND, `${what} ${id} is not known here`, { id })
}

function bodyPayload(r: PoolRecord): MemoryPayload | null {
  const body = r.body as MemoryBody
  return r.kind === PoolKind.MEMORY && 'payload' in body && isPayload(body.payload) ? body.payload : null
}

export class PoolReplica {
  readonly state = new PoolState()
  readonly ring: KeyRing
  readonly log: RecordLog
  readonly #ownsLog: boolean
  readonly #now: () => number
  readonly #signatures: SignatureCache
  /** Records of other handles, waiting for settle() to check their signatures. */
  readonly #unverified = new Map<string, PoolRecord>()
  /** The plaintext of memories this handle sealed, until their record is stored. */
  readonly #plain = new Map<string, MemoryPayload>()
  /** Dead records a purge is deleting now (a nested settle must not delete them twice). */
  readonly #purging = new Set<string>()
  /** A key or a memory without plaintext arrived: settle() opens what it can. */
  #unopened = false
  /** Signature checks run one at a time, so a settle that returns has applied everything delivered before it. */
  #settling: Promise<void> = Promise.resolve()
  readonly #attachment: LogAttachment
  #closed = false

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: ReplicaOptions) {
    const { log, owned } = logFor(source, { identity: options.identity, now: options.now })
    this.log = log
    this.#ownsLog = owned
    this.#attachment = new LogAttachment(log, this.#deriver)
    this.#now = options.now
    this.ring = new KeyRing(log.identity)
    this.#signatures = options.signatures ?? new SignatureCache()
  }

  get identity(): Identity | null {
    return this.log.identity
  }

  now(): number {
    return this.#now()
  }

  /** A fresh stamp of the Memory's one clock. */
  tick(): string {
    return this.log.tick()
  }

  // ---- what the replica derives from the record log ---------------------------------------------

  readonly #deriver: Deriver = {
    name: 'pools',
    kinds: POOL_KINDS,
    reset: () => {
      this.state.clear()
      this.#unverified.clear()
      this.#verdictsRead = false
    },
    receive: async (records, { local, tx, reload }) => {
      if (reload && !this.#verdictsRead) {
        this.#verdictsRead = true
        await this.#readVerdicts(tx)
      }
      for (const r of records) {
        if (!isPoolRecord(r)) continue
        if (local) {
          // Signed here a moment ago: a later session on this storage need not check it again.
          this.#signatures.vouch(r)
          this.#apply(r, true)
        } else this.#unverified.set(r.id, r)
      }
    },
    removed: (ids) => {
      for (const id of ids) {
        this.state.remove(id)
        this.#unverified.delete(id)
      }
    },
    settle: () => this.#settle(),
  }

  #apply(r: PoolRecord, local: boolean): void {
    const payload = this.#plain.get(r.id) ?? bodyPayload(r)
    this.state.apply(r, payload)
    // What may open a key or a sealed memory: a key, a pool's founding, a memory without plaintext.
    const opens = r.kind === PoolKind.KEY || r.kind === PoolKind.CREATE || (r.kind === PoolKind.MEMORY && payload === null)
    if (!local || opens) this.#unopened = true
  }

  async #settle(): Promise<void> {
    // The log outlives a closed pool store (the Memory's other modules); a closed replica writes nothing.
    if (this.#closed) return
    const run = this.#settling.then(() => this.#verifyDelivered())
    this.#settling = run.catch(() => undefined)
    await run
    await this.#purge()
    if (this.#signatures.unsaved >= VERDICTS_PER_ROW) await this.#saveVerdicts()
  }

  // ---- signature verdicts kept across sessions (SignatureCache.verifyStored) ---------------------

  #verdictsRead = false
  readonly #verdictRows = new MetaRows<VerdictRow>('pool-verdicts:')

  async #readVerdicts(tx: Delivery['tx']): Promise<void> {
    const rows = await this.#verdictRows.load(tx)
    for (const row of rows) {
      if (typeof row.digests !== 'string') continue
      const digests: string[] = []
      for (let i = 0; i + STORED_DIGITS <= row.digests.length; i += STORED_DIGITS) digests.push(row.digests.slice(i, i + STORED_DIGITS))
      this.#signatures.restore(digests)
    }
  }

  /** Saves the digests of keys verified since the last save, as one new row (rows from two handles never collide). */
  async #saveVerdicts(): Promise<void> {
    const digests = this.#signatures.takeUnsaved()
    if (digests.length === 0) return
    const row: VerdictRow = { key: this.#verdictRows.key(`${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`), digests: digests.join('') }
    await this.log.write((w) => this.#verdictRows.add(w.tx, [row])).catch(() => undefined)
  }

  async #verifyDelivered(): Promise<void> {
    const fresh = [...this.#unverified.values()]
    // Every row another handle stored is checked, whatever id it carries: an id verified before
    // (applied, removed, put back) vouches only for the bytes that verified (SignatureCache.verifyStored).
    const verdicts = await this.#signatures.verifyStored(fresh.filter((r) => !this.state.has(r.id)))
    for (const r of fresh) {
      // Removed, or reloaded, while signatures were checked: no longer this pass's to apply.
      if (this.#unverified.get(r.id) !== r) continue
      this.#unverified.delete(r.id)
      if (this.state.has(r.id)) continue
      if (verdicts.get(SignatureCache.key(r)) !== true) continue
      this.#apply(r, false)
    }
    // New keys and sealed memories arrive only as records.
    if (this.#unopened) {
      this.#unopened = false
      await this.#openSealed()
    }
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
    for (const pool of this.state.poolIds()) for (const id of this.state.structure(pool)?.dead ?? []) if (!this.#purging.has(id)) dead.push(id)
    if (dead.length === 0) return
    for (const id of dead) this.#purging.add(id)
    try {
      await this.log.append([], dead)
    } finally {
      for (const id of dead) this.#purging.delete(id)
    }
  }

  /**
   * Registered with the log (every pool record loaded), caught up with every handle's commits, and
   * settled. @throws MemweaveError CLOSED after close().
   */
  async ready(): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    await this.#attachment.ready()
    // Once per session, before anything of this session commits (the fact view's marker, maintenance.ts).
    if (this.onOpen) await (this.#opening ??= this.onOpen().catch((err: unknown) => {
      this.#opening = undefined
      throw err
    }))
  }

  /** Run once by the first `ready` after the load; a failure is thrown to that caller and tried again by the next. */
  onOpen: (() => Promise<void>) | undefined
  /** Awaited before each commit of a change (the fact view's marker: maintenance.ts). */
  beforeChange: (() => Promise<void>) | undefined
  #opening: Promise<void> | undefined

  // ---- writing ------------------------------------------------------------------------------------

  /** Stores records and hard-deletes others in the Memory's next batch. */
  save(puts: readonly Put[], deletes: readonly string[] = []): Promise<void> {
    return this.#staged(puts, () => this.log.append(puts.map((p) => p.record), deletes))
  }

  /** Runs `run` in the Memory's next batch; it appends the staged `puts` (`w.append`) if it decides to. */
  write<T>(puts: readonly Put[], run: (w: LogWriter) => Promise<T>): Promise<T> {
    return this.#staged(puts, () => this.log.write(run))
  }

  async #staged<T>(puts: readonly Put[], commit: () => Promise<T>): Promise<T> {
    if (this.beforeChange) await this.beforeChange()
    for (const p of puts) {
      // Signed here: should a leader commit it for this handle, it comes back as another's row, and passes.
      this.#signatures.vouch(p.record)
      if (p.payload && 'sealed' in (p.record.body as MemoryBody)) this.#plain.set(p.record.id, p.payload)
    }
    try {
      return await commit()
    } finally {
      for (const p of puts) this.#plain.delete(p.record.id)
    }
  }

  /** Resolves once every write of the Memory called before it has committed (or failed). */
  flush(): Promise<void> {
    return this.log.flush()
  }

  /** Idempotent; closes the log (and its storage) only when this replica made it. */
  async close(): Promise<void> {
    if (this.#closed) return
    await this.#settling
    await this.#saveVerdicts()
    this.#closed = true
    if (this.#ownsLog) await this.log.close()
    else await this.log.flush()
  }

  /** The acting identity. @throws PERMISSION_DENIED when the memory has none. */
  me(): Identity {
    const me = this.log.identity
    if (!me) throw denied('pools need an identity: create the memory with options.identity')
    return me
  }

  /**
   * A new record by this identity, stamped by the Memory's clock (or `hlc`, taken earlier with
   * `tick()`) and signed, outside any transaction. The pool's own records need no gate: the
   * callers judged the rights, and every replica judges them again (authority.ts).
   */
  async sign<B extends PoolBody>(s: { id: PoolId; tenant: string | null }, kind: PoolKind, body: B, hlc?: string): Promise<PoolRecord<B>> {
    this.me()
    return (await this.log.sealPooled(kind, body, { pool: s.id, tenant: s.tenant }, hlc)) as PoolRecord<B>
  }

  /** A memory record: sealed under the current key in an encrypted pool, plaintext otherwise. */
  async memoryRecord(s: Structure, payload: MemoryPayload): Promise<Put> {
    const me = this.me()
    const hlc = this.tick()
    const meta = { kind: PoolKind.MEMORY, pool: s.id, tenant: s.tenant, author: me.did, hlc }
    const body: MemoryBody = s.create.body.encrypted ? await this.ring.sealPayload(meta, payload, s) : { payload }
    return { record: await this.sign(s, PoolKind.MEMORY, body, hlc), payload }
  }

  /** Forgets `targets`: one tombstone (with their chain links) and the hard delete of their rows, in one batch with `extra`. */
  async tombstone(s: Structure, targets: readonly string[], reason: TombstoneReason, extra: Put[] = []): Promise<void> {
    const links = targets.map((id) => ({ id, supersedes: [...(s.memories.get(id)?.payload?.supersedes ?? [])] }))
    const puts = [...extra]
    if (links.length) puts.push({ record: await this.sign<TombstoneBody>(s, PoolKind.TOMBSTONE, { targets: links, reason }) })
    if (puts.length) await this.save(puts, targets)
  }

  // ---- reading ------------------------------------------------------------------------------------

  /** The pool at this instant as this identity sees it. @throws NOT_FOUND for a pool not founded here. */
  context(pool: PoolId): Ctx {
    const now = this.#now()
    const view = this.state.view(pool, now)
    if (!view) throw notFound('pool', pool)
    const me = this.log.identity
    return { s: view.s, view, rights: me ? view.s.acl.at(me.did, null, now) : NONE, now }
  }

  /** A live memory and its pool's context, or null. */
  findLive(memoryId: string): { ctx: Ctx; m: LiveMemory } | null {
    const pool = this.state.poolOf(memoryId)
    if (!pool || !this.state.structure(pool)) return null
    const ctx = this.context(pool)
    const m = ctx.view.live.get(memoryId)
    return m ? { ctx, m } : null
  }

  /** @throws PERMISSION_DENIED unless this identity may write the pool. */
  mustWrite(ctx: Ctx): void {
    if (!ctx.rights.write) throw denied(`${this.identity?.did ?? 'this memory'} may not write pool ${ctx.s.id}`, { pool: ctx.s.id })
  }

  /** @throws PERMISSION_DENIED unless this identity owns the pool. */
  mustOwn(ctx: Ctx): void {
    if (!ctx.rights.owner) throw denied(`only the owner of pool ${ctx.s.id} may change who has access or its policies`, { pool: ctx.s.id })
  }
}
