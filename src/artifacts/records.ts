import { HybridClock, decodeHlc, encodeHlc } from '../core/clock.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import type { PoolWriteGrant } from '../records/pool-gate.js'
import { signRecord } from '../core/signed-record.js'
import { recordId } from '../core/ids.js'
// WriteBatcher knows nothing of facts: it is the one-transaction-per-tick batcher of DESIGN.md "Runtime".
import { WriteBatcher, type BatchOp } from '../storage/batcher.js'
import type { ReadTx, StoragePort, WriteTx } from '../storage/port.js'
import type { LogRow, StoredRecord } from '../storage/schema.js'
import { parseArtifactFile, type ArtifactFile } from './format.js'
import { formatTimestamp, type Stamp } from './operations.js'
import { ARTIFACT_VERSION_KIND, ArtifactState, type ArtifactVersionBody } from './state.js'
import type { ArtifactVersionId } from './types.js'

const TABLES = ['records', 'log', 'meta'] as const
/** Keep this many log rows (as the fact store does); a handle further behind reloads from the records. */
const LOG_KEEP = 20_000

/** A precondition re-checked inside the write transaction, against the caught-up state. */
export type Check = (state: ArtifactState) => MemweaveError | null
type Outcome = { readonly id: ArtifactVersionId } | { readonly error: MemweaveError }

export interface ArtifactRecordsOptions {
  readonly identity: Identity | null
  readonly now?: () => number
  readonly ownsStorage: boolean
}

/**
 * The artifact store's persistence: `artifact-version` records on the storage port, the
 * materialized ArtifactState kept fresh against the storage log (so two handles on one database
 * see each other, as src/facts/store.ts does for facts), and writes batched into one transaction
 * per tick. A transaction body awaits only its own transaction's methods.
 */
export class ArtifactRecords {
  readonly state = new ArtifactState()
  readonly #storage: StoragePort
  readonly #identity: Identity | null
  readonly #owns: boolean
  readonly #clock: HybridClock
  /** Parsed files by version id: heads, and whatever was read since they were. */
  readonly #files = new Map<string, ArtifactFile>()
  readonly #batcher: WriteBatcher<WriteTx>
  readonly #mutations = new Set<Promise<unknown>>()
  #seq = 0
  #stale = true
  #opening: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  #closed = false

  constructor(storage: StoragePort, options: ArtifactRecordsOptions) {
    this.#storage = storage
    this.#identity = options.identity
    this.#owns = options.ownsStorage
    this.#clock = new HybridClock(options.now)
    this.#batcher = new WriteBatcher((ops) => this.#commit(ops))
  }

  // ---- freshness -------------------------------------------------------------------------------

  async #open(): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    this.#opening ??= this.#storage.open()
    await this.#opening
  }

  /** Opens, waits for the committing batch, and catches up with other handles' changes. */
  async ready(): Promise<void> {
    await this.#open()
    await this.#batcher.inflight // read barrier: never observe a batch that is still committing
    this.#refreshing ??= this.#storage.read(TABLES, (tx) => this.#catchUp(tx)).finally(() => {
      this.#refreshing = undefined
    })
    await this.#refreshing
  }

  async #catchUp(tx: ReadTx): Promise<void> {
    if (this.#stale) return this.#reload(tx)
    const last = await tx.last<LogRow>('log')
    if (!last || last.seq === this.#seq) return
    const floor = (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0
    if (this.#seq < floor) return this.#reload(tx)
    const rows = await tx.after<LogRow>('log', this.#seq)
    const records = await tx.getMany<StoredRecord>('records', rows.filter((r) => r.op === 'put').map((r) => r.ref))
    for (const r of records) if (r?.kind === ARTIFACT_VERSION_KIND) this.#apply(r)
    this.#seq = rows.at(-1)?.seq ?? this.#seq
  }

  async #reload(tx: ReadTx): Promise<void> {
    this.state.clear()
    this.#files.clear()
    for (const r of await tx.where<StoredRecord>('records', 'kind', ARTIFACT_VERSION_KIND)) this.#apply(r)
    this.#seq = (await tx.last<LogRow>('log'))?.seq ?? 0
    this.#stale = false
  }

  #apply(r: StoredRecord): void {
    this.#clock.observe(decodeHlc(r.hlc))
    this.state.apply(r)
    for (const p of (r.body as Partial<ArtifactVersionBody>).parents ?? []) this.#files.delete(p)
  }

  // ---- writes ----------------------------------------------------------------------------------

  /** Runs a mutation, remembered from the moment it is called so flush() waits for it. */
  track<T>(run: () => Promise<T>): Promise<T> {
    const mutation = run()
    this.#mutations.add(mutation)
    const done = (): void => void this.#mutations.delete(mutation)
    mutation.then(done, done)
    return mutation
  }

  async #commit(ops: ReadonlyArray<BatchOp<WriteTx, unknown>>): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    let results: unknown[]
    try {
      results = await this.#storage.write(TABLES, async (tx) => {
        await this.#catchUp(tx)
        const out: unknown[] = []
        for (const op of ops) out.push(await op.run(tx))
        await this.#trimLog(tx)
        return out
      })
    } catch (err) {
      // The state was updated inside the failed transaction: rebuild it from storage.
      this.#stale = true
      throw err
    }
    ops.forEach((op, i) => op.resolve(results[i]))
  }

  async #trimLog(tx: WriteTx): Promise<void> {
    if (this.#seq % 1000 !== 0 || this.#seq <= LOG_KEEP) return
    const floor = this.#seq - LOG_KEEP
    const keys = (await tx.after<LogRow>('log', 0, 5000)).filter((r) => r.seq! <= floor).map((r) => r.seq!)
    if (keys.length === 0) return
    await tx.delete('log', keys)
    await tx.put('meta', [{ key: 'logFloor', value: keys.at(-1)! }])
  }

  /** The hybrid-logical-clock stamp of a new version, and its agent and timestamp; after `after` when given (a pool grant's stamp). */
  tick(after?: string): { hlc: string; stamp: Stamp } {
    if (after !== undefined) this.#clock.observe(decodeHlc(after))
    const hlc = this.#clock.tick()
    return { hlc: encodeHlc(hlc), stamp: { agent: this.#identity?.did ?? 'anonymous', timestamp: formatTimestamp(hlc.wall) } }
  }

  /**
   * Queues one version record. `check` runs inside the transaction after catching up; when it
   * fails, only this write fails (a throw would abort the whole batch), and nothing is stored.
   */
  async submit(body: ArtifactVersionBody, hlc: string, check: Check | null, grant: PoolWriteGrant | null = null): Promise<ArtifactVersionId> {
    // A pooled version is signed before it is queued (crypto never runs inside a transaction); the
    // gate granted it, so this memory has an identity.
    const pooled = grant
      ? await signRecord(this.#identity!, { kind: ARTIFACT_VERSION_KIND, pool: grant.pool, tenant: grant.tenant, body, author: this.#identity!.did, hlc })
      : null
    const outcome = await this.#batcher.enqueue<Outcome>(async (tx) => {
      const error = check?.(this.state)
      if (error) return { error }
      const unsigned = { kind: ARTIFACT_VERSION_KIND, tenant: null, body, author: this.#identity?.did ?? null, hlc }
      const record: StoredRecord = pooled ?? { id: recordId(unsigned), ...unsigned }
      await tx.put('records', [record])
      const [seq] = (await tx.put('log', [{ ref: record.id, op: 'put' }])) as number[]
      this.#seq = Math.max(this.#seq, seq!)
      this.#apply(record)
      return { id: record.id as ArtifactVersionId }
    })
    if ('error' in outcome) throw outcome.error
    return outcome.id
  }

  // ---- reads ----------------------------------------------------------------------------------

  /** The parsed file of a version: a head from memory, an earlier one from storage. */
  async file(id: string): Promise<ArtifactFile> {
    const cached = this.#files.get(id)
    if (cached) return cached
    let text = this.state.text(id)
    if (text === undefined) {
      const record = await this.#storage.read(['records'], (tx) => tx.get<StoredRecord>('records', id))
      text = (record?.body as Partial<ArtifactVersionBody> | undefined)?.text
    }
    if (typeof text !== 'string') throw new MemweaveError(ErrorCode.INTEGRITY, `artifact version ${id} is missing from storage`)
    let file: ArtifactFile
    try {
      file = parseArtifactFile(text)
    } catch (cause) {
      throw new MemweaveError(ErrorCode.INTEGRITY, `artifact version ${id} is not a readable artifact file`, {}, { cause })
    }
    if (this.state.isHead(id)) this.#files.set(id, file)
    return file
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.#mutations])
    await this.#batcher.flush()
  }

  /** Commits pending writes, then (when it owns the storage) closes it. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return
    await this.flush()
    this.#closed = true
    if (this.#owns && this.#opening) await this.#storage.close()
  }
}
