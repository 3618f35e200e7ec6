import { decodeHlc } from '../core/clock.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import { LogAttachment } from '../records/attach.js'
import { logFor, type RecordLog } from '../records/log.js'
import type { PoolWriteGrant } from '../records/pool-gate.js'
import type { Deriver } from '../records/types.js'
import type { StoragePort } from '../storage/port.js'
import type { StoredRecord } from '../storage/schema.js'
import { parseArtifactFile, type ArtifactFile } from './format.js'
import { formatTimestamp, type Stamp } from './operations.js'
import { ARTIFACT_VERSION_KIND, ArtifactState, type ArtifactVersionBody } from './state.js'
import type { ArtifactVersionId } from './types.js'

/** A precondition re-checked inside the write transaction, against the caught-up state. */
export type Check = (state: ArtifactState) => MemweaveError | null
type Outcome = { readonly id: ArtifactVersionId } | { readonly error: MemweaveError }

export interface ArtifactRecordsOptions {
  readonly identity: Identity | null
  readonly now?: () => number
  /** On a storage port: whether close() closes it. */
  readonly ownsStorage?: boolean
}

/**
 * The artifact store's side of the record log: the ArtifactState derived from `artifact-version`
 * records (the log catches it up with every handle's commits), the parsed files of heads, and the
 * write of one version with its precondition checked inside the tick's transaction.
 */
export class ArtifactRecords {
  readonly state = new ArtifactState()
  readonly #log: RecordLog
  readonly #ownsLog: boolean
  readonly #identity: Identity | null
  /** Parsed files by version id: heads, and whatever was read since they were. */
  readonly #files = new Map<string, ArtifactFile>()
  readonly #attachment: LogAttachment

  /** On a Memory's record log, or alone on a storage port (a private log it owns and closes). */
  constructor(source: StoragePort | RecordLog, options: ArtifactRecordsOptions) {
    this.#identity = options.identity
    const { log, owned } = logFor(source, { identity: options.identity, now: options.now, ownsStorage: options.ownsStorage })
    this.#log = log
    this.#ownsLog = owned
    this.#attachment = new LogAttachment(log, this.#deriver)
  }

  readonly #deriver: Deriver = {
    name: 'artifacts',
    kinds: [ARTIFACT_VERSION_KIND],
    reset: () => {
      this.state.clear()
      this.#files.clear()
    },
    receive: (records) => {
      for (const r of records) {
        this.state.apply(r)
        for (const p of (r.body as Partial<ArtifactVersionBody>).parents ?? []) this.#files.delete(p)
      }
    },
    // A pooled version evicted or forgotten by sync: its parent may be a head again.
    removed: (ids) => {
      for (const id of ids) if (this.state.remove(id)) this.#files.delete(id)
    },
  }

  /** Registered with the log, and caught up with every handle's commits. */
  async ready(): Promise<void> {
    await this.#attachment.ready()
  }

  /** Runs a mutation, remembered from the moment it is called so flush() waits for it. */
  track<T>(run: () => Promise<T>): Promise<T> {
    return this.#log.track(run)
  }

  /** The record log's stamp for a new version, and its agent and timestamp. */
  tick(): { hlc: string; stamp: Stamp } {
    const hlc = this.#log.tick()
    return { hlc, stamp: { agent: this.#identity?.did ?? 'anonymous', timestamp: formatTimestamp(decodeHlc(hlc).wall) } }
  }

  /** The grant to write a version into `pool` (null: not pooled), from the Memory's pool gate. */
  grant(pool: string | null | undefined): Promise<PoolWriteGrant | null> {
    return pool === null || pool === undefined ? Promise.resolve(null) : this.#log.grant(pool)
  }

  /**
   * Queues one version record. `check` runs inside the transaction after catching up; when it
   * fails, only this write fails (a throw would abort the whole batch), and nothing is stored.
   */
  async submit(body: ArtifactVersionBody, hlc: string, check: Check | null, grant: PoolWriteGrant | null = null): Promise<ArtifactVersionId> {
    // A pooled version is signed before it is queued: crypto never runs inside a transaction.
    const record = grant ? await this.#log.sealPooled(ARTIFACT_VERSION_KIND, body, grant, hlc) : this.#log.seal(ARTIFACT_VERSION_KIND, body, { hlc })
    const outcome = await this.#log.write<Outcome>(async (w) => {
      const error = check?.(this.state)
      if (error) return { error }
      await w.append([record])
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
      const [record] = await this.#log.records([id])
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

  flush(): Promise<void> {
    return this.#log.flush()
  }

  /** Commits pending writes, then closes the private log (and its storage). Idempotent. */
  close(): Promise<void> {
    return this.#ownsLog ? this.#log.close() : this.#log.flush()
  }
}
