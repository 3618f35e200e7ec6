import { fromHex, toHex } from '../core/bytes.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { LogAttachment } from '../records/attach.js'
import { logFor, type RecordLog } from '../records/log.js'
import type { PoolWriteGrant } from '../records/pool-gate.js'
import type { Deriver } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import type { StoredRecord } from '../storage/schema.js'
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
  /** Wall clock in ms (progress timestamps; record clocks of a store built on a storage port); injected by tests. */
  readonly now?: () => number
  /** A store built on a storage port: whether close() closes it (default true). */
  readonly ownsStorage?: boolean
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
 * `mem.small`: SMALL documents as immutable records on the record log. The state (state.ts) is
 * derived from the `small-doc` and `small-progress` records, which the log keeps caught up with
 * every handle on the storage, and writes commit in the log's one transaction per tick. A write is
 * prepared (validated, signed) outside the transaction and commits only if what it was prepared
 * against still holds; otherwise it is prepared again. Built alone on a storage port, the store
 * runs a private log.
 */
export class LocalSmallStore implements SmallStore {
  readonly #log: RecordLog
  readonly #ownsLog: boolean
  readonly #identity: Identity | null
  readonly #humans: ReadonlySet<string>
  readonly #strict: boolean
  readonly #now: () => number
  readonly #state: SmallState
  readonly #issued = new Map<string, Instant>()
  readonly #attachment: LogAttachment

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: SmallStoreOptions = {}) {
    this.#identity = options.identity ?? null
    this.#humans = new Set(options.humans ?? [])
    this.#strict = options.strict ?? false
    this.#now = options.now ?? Date.now
    const { log, owned } = logFor(source, { identity: this.#identity, now: this.#now, ownsStorage: options.ownsStorage })
    this.#log = log
    this.#ownsLog = owned
    this.#state = new SmallState(this.#humans)
    this.#attachment = new LogAttachment(log, this.#deriver)
  }

  // ---- what the store derives from the record log -------------------------------------------

  readonly #deriver: Deriver = {
    name: 'small',
    kinds: [SMALL_DOC_KIND, SMALL_PROGRESS_KIND],
    reset: () => this.#state.clear(),
    receive: (records) => {
      for (const r of records) this.#state.apply(r)
    },
    // A pooled record the sync layer evicted (its author no longer admitted by the pool).
    removed: (ids) => {
      for (const id of ids) this.#state.remove(id)
    },
  }

  /** Registered with the log (loading every SMALL record once), and caught up with every handle's commits. */
  async #ready(): Promise<void> {
    await this.#attachment.ready()
  }

  // ---- commit --------------------------------------------------------------------------------

  /** Prepares (again, while another writer keeps moving the state) and commits. */
  async #write<T>(prepare: () => Promise<Prepared<T>>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      await this.#ready()
      const p = await prepare()
      if (p.records.length === 0) return p.result
      const committed = await this.#log.write(async (w) => {
        if (!p.precondition()) return false
        await w.append(p.records)
        return true
      })
      if (committed) return p.result
      if (attempt >= RETRIES) {
        throw new MemweaveError(ErrorCode.CONFLICT, 'another writer kept changing the same SMALL document; try again', {})
      }
    }
  }

  /** A record of the writer: signed by its author over the id (DESIGN.md "Records"), and in a shared project named after its pool. */
  async #record(kind: string, body: DocBody | ProgressBody, writer: Writer): Promise<StoredRecord> {
    const { identity, grant } = writer
    if (grant) return this.#log.sealPooled(kind, body, grant, undefined, identity)
    const record = this.#log.seal(kind, body, { author: identity?.did ?? null })
    return identity ? { ...record, sig: toHex(await identity.sign(fromHex(record.id))) } : record
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
    if (!identity) throw new MemweaveError(ErrorCode.PERMISSION_DENIED, 'a shared SMALL project is written by a signing identity', { field: 'identity' })
    return { identity, grant: await this.#log.grant(pool, identity.did) }
  }

  /** Who acts for people: in a shared project the pool's humans (every replica judges by them), else `small.humans`. */
  #humansOf(writer: Writer): ReadonlySet<string> {
    return writer.grant ? new Set(writer.grant.humans) : this.#humans
  }

  put(name: SmallDocName, content: string | object, options?: SmallWriteOptions): Promise<SmallWriteResult> {
    return this.#log.track(async () => {
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
    })
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
    return this.#log.track(async () => {
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
    })
  }

  handoff(options: HandoffOptions & SmallWriteOptions = {}): Promise<HandoffDoc> {
    return this.#log.track(async () => {
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
    })
  }

  import(files: Readonly<Record<string, string>>, options?: SmallWriteOptions): Promise<SmallWriteResult[]> {
    return this.#log.track(async () => {
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
    })
  }

  async flush(): Promise<void> {
    await this.#log.flush()
  }

  /** Commits pending writes, then closes the private log (and its storage). Idempotent. */
  async close(): Promise<void> {
    if (this.#ownsLog) await this.#log.close()
    else await this.#log.flush()
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

/** Creates `mem.small` on a storage port, or on a Memory's record log (createMemory does this for you). */
export function createSmallStore(source: StoragePort | RecordLog, options: SmallStoreOptions = {}): SmallStore {
  return new LocalSmallStore(source, options)
}
