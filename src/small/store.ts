import { HybridClock, decodeHlc, encodeHlc } from '../core/clock.js'
import { fromHex, toHex } from '../core/bytes.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import type { PoolGate, PoolWriteGrant } from '../records/pool-gate.js'
import { signRecord } from '../core/signed-record.js'
import { recordId } from '../core/ids.js'
import { WriteBatcher } from '../storage/batcher.js'
import type { ReadTx, StoragePort, WriteTx } from '../storage/port.js'
import type { LogRow, StoredRecord } from '../storage/schema.js'
import { checkAppendOnly, entryDigest } from './append-only.js'
import { SmallRule, findingsError, pushAll, type Finding } from './findings.js'
import { buildHandoff, type HandoffOptions } from './handoff.js'
import { SMALL_DOCS, SMALL_VERSION, docNameOf, fileNameOf, isSmallDocName, type SmallDocName } from './layout.js'
import { assertMayWrite, roleOf } from './ownership.js'
import { prepareEntry, type ProgressEntryInput } from './progress.js'
import { computeReplayId } from './replay-id.js'
import { SMALL_DOC_KIND, SMALL_PROGRESS_KIND, SmallState, type DocBody, type ProgressBody, type SmallConflict } from './state.js'
import type {
  SmallDocument, SmallProjectOptions, SmallStore, SmallValidation, SmallWriteOptions, SmallWriteResult,
} from './store-api.js'
import { currentRunId } from './strict.js'
import type { HandoffDoc, ProgressEntry, SmallDocs } from './types.js'
import { compareInstants, parseTimestamp, type Instant } from './timestamp.js'
import { validateDocument, validateWorkspace } from './validate.js'
import { parseYaml, patchYaml } from './yaml-text.js'

const TABLES = ['records', 'log', 'meta'] as const
const DEFAULT_PROJECT = 'default'
/** A write whose precondition another handle broke is prepared again this many times, then CONFLICT. */
const RETRIES = 20

export interface SmallStoreOptions {
  /** Who writes by default (the memory's identity). */
  readonly identity?: Identity | null
  /** DIDs of the identities that act for people: only they write intent and constraints (see ownership.ts). */
  readonly humans?: readonly string[]
  /** Strict mode for writes: a suspected secret refuses the write instead of warning. */
  readonly strict?: boolean
  /** Wall clock in ms (progress timestamps, record clocks); injected by tests. */
  readonly now?: () => number
  /** false: the storage is opened and closed by its owner (the Memory), this store only uses it. Default true. */
  readonly ownsStorage?: boolean
  /** The pool store's gate for projects shared through a pool (createMemory passes it); without one, `pool` is refused. */
  readonly pools?: PoolGate | null
}

/** Who writes, and through which pool (null: a local project). */
interface Writer {
  readonly identity: Identity | null
  readonly grant: PoolWriteGrant | null
}

/** A write ready to commit: its records, and what must still hold when it commits. */
interface Prepared<T> {
  readonly records: readonly StoredRecord[]
  readonly precondition: () => boolean
  readonly result: T
}

/**
 * `mem.small`: SMALL documents as immutable records on the storage port. Like the fact store it
 * materializes state in memory (state.ts), catches up through the storage `log` on every call (so
 * two handles on one database see each other's writes), and commits the writes of one tick in one
 * transaction. A write is prepared (validated, signed) outside the transaction and commits only if
 * what it was prepared against still holds; otherwise it is prepared again.
 */
export class LocalSmallStore implements SmallStore {
  readonly #storage: StoragePort
  readonly #identity: Identity | null
  readonly #humans: ReadonlySet<string>
  readonly #pools: PoolGate | null
  readonly #strict: boolean
  readonly #now: () => number
  readonly #shared: boolean
  readonly #clock: HybridClock
  readonly #state: SmallState
  readonly #batcher: WriteBatcher<WriteTx>
  readonly #mutations = new Set<Promise<unknown>>()
  readonly #issued = new Map<string, Instant>()
  #seq = 0
  #stale = true
  #opening: Promise<void> | undefined
  #refreshing: Promise<void> | undefined
  #closed = false

  constructor(storage: StoragePort, options: SmallStoreOptions = {}) {
    this.#storage = storage
    this.#identity = options.identity ?? null
    this.#humans = new Set(options.humans ?? [])
    this.#pools = options.pools ?? null
    this.#strict = options.strict ?? false
    this.#now = options.now ?? Date.now
    this.#shared = options.ownsStorage === false
    this.#clock = new HybridClock(this.#now)
    this.#state = new SmallState(this.#humans)
    this.#batcher = new WriteBatcher((ops) => this.#commit(ops))
  }

  // ---- freshness -----------------------------------------------------------------------------

  async #open(): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    if (!this.#shared) {
      this.#opening ??= this.#storage.open()
      await this.#opening
    }
  }

  async #ready(): Promise<void> {
    await this.#open()
    await this.#batcher.inflight
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
    // Deletions are not obeyed: SMALL records are never deleted, so a vanished one is kept (healed).
    const records = await tx.getMany<StoredRecord>('records', rows.filter((r) => r.op === 'put').map((r) => r.ref))
    for (const r of records) if (r) this.#apply(r)
    this.#seq = rows.at(-1)?.seq ?? this.#seq
  }

  async #reload(tx: ReadTx): Promise<void> {
    this.#state.clear()
    for (const r of await tx.where<StoredRecord>('records', 'kind', SMALL_DOC_KIND)) this.#apply(r)
    for (const r of await tx.where<StoredRecord>('records', 'kind', SMALL_PROGRESS_KIND)) this.#apply(r)
    this.#seq = (await tx.last<LogRow>('log'))?.seq ?? 0
    this.#stale = false
  }

  #apply(r: StoredRecord): void {
    this.#clock.observe(decodeHlc(r.hlc))
    this.#state.apply(r)
  }

  #track<T>(mutation: Promise<T>): Promise<T> {
    this.#mutations.add(mutation)
    const done = (): void => void this.#mutations.delete(mutation)
    mutation.then(done, done)
    return mutation
  }

  // ---- commit --------------------------------------------------------------------------------

  async #commit(ops: ReadonlyArray<{ run(tx: WriteTx): Promise<unknown>; resolve(v: unknown): void }>): Promise<void> {
    if (this.#closed) throw new MemweaveError(ErrorCode.CLOSED, 'this memory is closed')
    let results: unknown[]
    try {
      results = await this.#storage.write(TABLES, async (tx) => {
        await this.#catchUp(tx)
        const out: unknown[] = []
        for (const op of ops) out.push(await op.run(tx))
        return out
      })
    } catch (err) {
      this.#stale = true // state was updated optimistically inside the failed transaction
      throw err
    }
    ops.forEach((op, i) => op.resolve(results[i]))
  }

  async #run(tx: WriteTx, p: Prepared<unknown>): Promise<boolean> {
    if (!p.precondition()) return false
    await tx.put('records', p.records)
    const keys = await tx.put('log', p.records.map((r): LogRow => ({ ref: r.id, op: 'put' })))
    this.#seq = Math.max(this.#seq, ...(keys as number[]))
    for (const r of p.records) this.#apply(r)
    return true
  }

  /** Prepares (again, while another writer keeps moving the state) and commits. */
  async #write<T>(prepare: () => Promise<Prepared<T>>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.#ready()
      const p = await prepare()
      if (p.records.length === 0) return p.result
      if (await this.#batcher.enqueue((tx) => this.#run(tx, p))) return p.result
      if (attempt >= RETRIES) {
        throw new MemweaveError(ErrorCode.CONFLICT, 'another writer kept changing the same SMALL document; try again', {})
      }
    }
  }

  async #record(kind: string, body: DocBody | ProgressBody, writer: Writer): Promise<StoredRecord> {
    const { identity, grant } = writer
    if (grant?.after) this.#clock.observe(decodeHlc(grant.after))
    const hlc = encodeHlc(this.#clock.tick())
    // A shared project's record names its pool and is signed over the pooled record id (src/core/signed-record.ts).
    if (grant) return signRecord(identity!, { kind, pool: grant.pool, tenant: grant.tenant, body, author: identity!.did, hlc })
    const unsigned = { kind, tenant: null, body, author: identity?.did ?? null, hlc }
    const id = recordId(unsigned)
    // DESIGN.md "Records": the author signs the id; the sync layer verifies it on arrival.
    return identity ? { id, ...unsigned, sig: toHex(await identity.sign(fromHex(id))) } : { id, ...unsigned }
  }

  // ---- reads ---------------------------------------------------------------------------------

  #project(options: SmallProjectOptions | undefined): string {
    const p = options?.project ?? DEFAULT_PROJECT
    if (typeof p !== 'string' || p.trim() === '' || p.includes('\u0000')) throw invalidArgument('project', 'must be a non-empty string')
    return p
  }

  #name(name: unknown): SmallDocName {
    if (!isSmallDocName(name)) throw invalidArgument('name', `must be one of ${SMALL_DOCS.join(', ')}, got ${JSON.stringify(name)}`)
    return name
  }

  #progressDoc(project: string): { data: SmallDocs['progress']; text: string; version: string | null; author: string | null } | null {
    const records = this.#state.entries(project)
    const base = this.#state.current(project, 'progress')
    if (!base && records.length === 0) return null
    const data = { small_version: SMALL_VERSION, owner: 'agent' as const, entries: records.map((r) => r.entry) }
    const last = records.at(-1)
    return { data, text: patchYaml(base?.body.text ?? null, data), version: last?.id ?? base!.id, author: last ? last.author : base!.author }
  }

  #doc<N extends SmallDocName>(project: string, name: N): SmallDocument<N> | null {
    if (name === 'progress') {
      const p = this.#progressDoc(project)
      return p && ({ name, data: p.data, text: p.text, version: p.version, author: p.author } as unknown as SmallDocument<N>)
    }
    const v = this.#state.current(project, name)
    if (!v) return null
    return { name, data: parseYaml(v.body.text).data as SmallDocs[N], text: v.body.text, version: v.id, author: v.author }
  }

  async get<N extends SmallDocName>(name: N, options?: SmallProjectOptions): Promise<SmallDocument<N> | null> {
    this.#name(name)
    const project = this.#project(options)
    await this.#ready()
    return this.#doc(project, name)
  }

  #files(project: string): Partial<Record<SmallDocName, string>> {
    const files: Partial<Record<SmallDocName, string>> = {}
    for (const name of SMALL_DOCS) {
      const d = this.#doc(project, name)
      if (d) files[name] = d.text
    }
    return files
  }

  async export(options?: SmallProjectOptions): Promise<Record<string, string>> {
    const project = this.#project(options)
    await this.#ready()
    return Object.fromEntries(Object.entries(this.#files(project)).map(([n, t]) => [fileNameOf(n as SmallDocName), t]))
  }

  async validate(options: SmallProjectOptions & { readonly strict?: boolean } = {}): Promise<SmallValidation> {
    const project = this.#project(options)
    await this.#ready()
    const { report, replay } = validateWorkspace(this.#files(project), { strict: options.strict ?? this.#strict, checkReplayId: true })
    return { ...report, replay }
  }

  #replayInputs(project: string): { intent: string; plan: string; constraints: string | null } {
    const files = this.#files(project)
    for (const n of ['intent', 'plan'] as const) {
      if (files[n] === undefined) throw invalidArgument(n, `is missing in project "${project}": the replayId is computed from intent, plan and constraints`)
    }
    return { intent: files.intent!, plan: files.plan!, constraints: files.constraints ?? null }
  }

  async replayId(options?: SmallProjectOptions): Promise<string> {
    const project = this.#project(options)
    await this.#ready()
    return computeReplayId(this.#replayInputs(project))
  }

  async conflicts(options?: SmallProjectOptions): Promise<SmallConflict[]> {
    const project = this.#project(options)
    await this.#ready()
    return this.#state.conflicts(project)
  }

  async projects(): Promise<string[]> {
    await this.#ready()
    return this.#state.projects()
  }

  // ---- writes --------------------------------------------------------------------------------

  #identityOf(options: SmallWriteOptions | undefined): Identity | null {
    return options?.identity === undefined ? this.#identity : options.identity
  }

  /**
   * The writer of a call: its identity, and the pool when the project is shared (`options.pool`, or
   * the pool its records already travel in), checked by the pool store's gate for that identity.
   */
  async #writer(project: string, options: SmallWriteOptions | undefined): Promise<Writer> {
    const identity = this.#identityOf(options)
    const pool = options?.pool ?? (await this.#ready(), this.#state.poolOf(project))
    if (pool === null || pool === undefined) return { identity, grant: null }
    if (!this.#pools) throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'shared SMALL projects need a Memory with pools (createMemory)', { field: 'pool' })
    if (!identity) throw new MemweaveError(ErrorCode.PERMISSION_DENIED, 'a shared SMALL project is written by a signing identity', { field: 'identity' })
    return { identity, grant: await this.#pools.writable(pool, identity.did) }
  }

  /** Who acts for people: in a shared project the pool's humans (every replica judges by them), else `small.humans`. */
  #humansOf(writer: Writer): ReadonlySet<string> {
    return writer.grant ? new Set(writer.grant.humans) : this.#humans
  }

  put(name: SmallDocName, content: string | object, options?: SmallWriteOptions): Promise<SmallWriteResult> {
    return this.#track(
      (async () => {
        this.#name(name)
        const project = this.#project(options)
        const writer = await this.#writer(project, options)
        assertMayWrite(name, roleOf(writer.identity?.did ?? null, this.#humansOf(writer)))
        if (typeof content !== 'string' && (typeof content !== 'object' || content === null)) throw invalidArgument('content', 'must be YAML text or an object')
        const checked = validateDocument(name, typeof content === 'string' ? content : (plain(content) as object), { strict: this.#strict })
        const errors = checked.findings.filter((f) => f.severity === 'error')
        if (errors.length > 0) throw findingsError(errors)
        const warnings = checked.findings.filter((f) => f.severity === 'warning')
        return this.#write(() =>
          name === 'progress'
            ? this.#prepareProgress(project, checked.data as SmallDocs['progress'], checked.text, writer, warnings)
            : this.#prepareDoc(project, name, checked.data, checked.text, writer, warnings),
        )
      })(),
    )
  }

  async #prepareDoc(project: string, name: SmallDocName, data: unknown, text: string | null, writer: Writer, warnings: Finding[]): Promise<Prepared<SmallWriteResult>> {
    const current = this.#state.current(project, name)
    const next = text ?? patchYaml(current?.body.text ?? null, data)
    if (current && current.body.text === next) return { records: [], precondition: () => true, result: { name, changed: false, records: [], warnings } }
    const record = await this.#record(SMALL_DOC_KIND, { project, name, text: next, prev: current?.id ?? null }, writer)
    return {
      records: [record],
      precondition: () => this.#state.current(project, name)?.id === current?.id,
      result: { name, changed: true, records: [record.id], warnings },
    }
  }

  async #prepareProgress(project: string, doc: SmallDocs['progress'], text: string | null, writer: Writer, warnings: Finding[]): Promise<Prepared<SmallWriteResult>> {
    const stored = this.#state.entries(project)
    const edits = checkAppendOnly(stored.map((r) => entryDigest(r.entry)), doc.entries)
    if (edits.length > 0) throw findingsError(edits, ErrorCode.CONFLICT)
    const base = this.#state.current(project, 'progress')
    const records: StoredRecord[] = []
    // The document's own text is kept (once) so export() reproduces its formatting.
    if (!base || (text !== null && text !== base.body.text)) {
      records.push(await this.#record(SMALL_DOC_KIND, { project, name: 'progress', text: text ?? patchYaml(null, doc), prev: base?.id ?? null }, writer))
    }
    for (const entry of doc.entries.slice(stored.length)) records.push(await this.#record(SMALL_PROGRESS_KIND, { project, entry }, writer))
    const lastId = stored.at(-1)?.id
    return {
      records,
      precondition: () => this.#state.entries(project).at(-1)?.id === lastId && this.#state.current(project, 'progress')?.id === base?.id,
      result: { name: 'progress', changed: records.length > 0, records: records.map((r) => r.id), warnings },
    }
  }

  appendProgress(input: ProgressEntryInput, options?: SmallWriteOptions): Promise<ProgressEntry> {
    return this.#track(
      (async () => {
        const project = this.#project(options)
        const writer = await this.#writer(project, options)
        return this.#write(async () => {
          const stored = this.#state.entries(project)
          const runId = currentRunId({ workspace: this.#doc(project, 'workspace')?.data, handoff: this.#doc(project, 'handoff')?.data })
          const { entry } = prepareEntry(input, { entries: stored.map((r) => r.entry), now: this.#now(), runId, strict: this.#strict, issued: this.#issued.get(project) ?? null })
          const parsed = parseTimestamp(entry.timestamp)
          const instant = parsed.ok ? parsed.instant : null
          // Appends issued in one tick get increasing timestamps before any of them has committed.
          if (instant) this.#issued.set(project, instant)
          const records: StoredRecord[] = []
          const header = !this.#state.current(project, 'progress')
          if (header) {
            records.push(await this.#record(SMALL_DOC_KIND, { project, name: 'progress', text: patchYaml(null, { small_version: SMALL_VERSION, owner: 'agent', entries: [] }), prev: null }, writer))
          }
          records.push(await this.#record(SMALL_PROGRESS_KIND, { project, entry }, writer))
          // What must hold at commit: the entry is still later than every stored one (another handle may have appended).
          const precondition = (): boolean => {
            if (header && this.#state.current(project, 'progress')) return false
            const last = this.#state.entries(project).at(-1)
            return !last || (instant !== null && last.instant !== null && compareInstants(instant, last.instant) > 0)
          }
          return { records, precondition, result: entry }
        })
      })(),
    )
  }

  handoff(options: HandoffOptions & SmallWriteOptions = {}): Promise<HandoffDoc> {
    return this.#track(
      (async () => {
        const project = this.#project(options)
        await this.#ready()
        const doc = buildHandoff(
          {
            plan: this.#doc(project, 'plan')?.data,
            progress: this.#doc(project, 'progress')?.data,
            replay: this.#replayInputs(project),
            previous: this.#doc(project, 'handoff')?.data,
            workspace: this.#doc(project, 'workspace')?.data,
          },
          options,
        )
        await this.put('handoff', doc, { project, identity: this.#identityOf(options), ...(options.pool === undefined ? {} : { pool: options.pool }) })
        return doc
      })(),
    )
  }

  import(files: Readonly<Record<string, string>>, options?: SmallWriteOptions): Promise<SmallWriteResult[]> {
    return this.#track(
      (async () => {
        if (typeof files !== 'object' || files === null) throw invalidArgument('files', 'must be an object of file name -> YAML text')
        const docs = new Map<SmallDocName, string>()
        for (const [key, text] of Object.entries(files)) {
          const name = isSmallDocName(key) ? key : docNameOf(key)
          if (!name) throw invalidArgument('files', `"${key}" is not a SMALL document (${SMALL_DOCS.map(fileNameOf).join(', ')})`)
          if (typeof text !== 'string') throw invalidArgument(key, 'must be YAML text')
          docs.set(name, text)
        }
        const writer = await this.#writer(this.#project(options), options)
        const role = roleOf(writer.identity?.did ?? null, this.#humansOf(writer))
        const problems: Finding[] = []
        for (const [name, text] of docs) {
          assertMayWrite(name, role)
          pushAll(problems, validateDocument(name, text, { strict: this.#strict }).findings.filter((f) => f.severity === 'error'))
        }
        if (problems.length > 0) throw findingsError(problems)
        const order = SMALL_DOCS.filter((n) => docs.has(n))
        return Promise.all(order.map((n) => this.put(n, docs.get(n)!, options)))
      })(),
    )
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.#mutations])
    await this.#batcher.flush()
  }

  async close(): Promise<void> {
    if (this.#closed) return
    await this.flush()
    this.#closed = true
    if (!this.#shared && this.#opening) await this.#storage.close()
  }
}

/** JSON data of a caller's object (drops undefined and functions, turns Dates into strings), so what is hashed is what is stored. */
function plain(value: object): unknown {
  try {
    return JSON.parse(JSON.stringify(value))
  } catch (cause) {
    throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, 'content: must be JSON-like data', { field: 'content', rule: SmallRule.SCHEMA }, { cause })
  }
}

/** Creates `mem.small` on a storage port (createMemory does this for you). */
export function createSmallStore(storage: StoragePort, options: SmallStoreOptions = {}): SmallStore {
  return new LocalSmallStore(storage, options)
}
