import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { RecordLog } from '../records/log.js'
import type { StoredRecord } from '../storage/schema.js'
import { assertHeader, type BackupLine } from './format.js'
import { TOMBSTONE_KINDS, forgottenBy } from './kinds.js'
import { checkBackupRecord } from './verify.js'
import { chunksOf, type BackupSource } from './source.js'

/** One line of a backup that was not imported, and why. */
export interface BackupImportProblem {
  /** 1-based line of the backup. */
  readonly line: number
  /** The record's id, when the line held one. */
  readonly id?: string
  readonly reason: string
}

/** What an import did. Every record line is counted once: imported, present, forgotten or refused. */
export interface BackupImportReport {
  /** Record lines read. */
  readonly records: number
  /** Records stored by this import. */
  readonly imported: number
  /** Records the store already held (a second import of the same backup imports nothing). */
  readonly present: number
  /** Records a tombstone of the store or of the backup forgets: a hard-deleted memory does not come back. */
  readonly forgotten: number
  /** Lines refused (`problems` says why). */
  readonly refused: number
  /** The refused lines, the first 1,000. */
  readonly problems: readonly BackupImportProblem[]
  /** The backup's end line was read and its count matched: the backup was whole. */
  readonly complete: boolean
  /** The identity the backup carried (only a backup made with `includeIdentitySeed`), else null. */
  readonly identity: { readonly did: string; readonly seed: string } | null
}

export interface BackupImportOptions {
  /** Records stored per transaction. Default 2,000. */
  readonly batch?: number
  readonly signal?: AbortSignal
}

const MAX_PROBLEMS = 1000

/**
 * Imports a backup fed in chunks of any size (`push`), then `finish()`. Each record is checked as a
 * synced one would be (verify.ts); records are stored in batches, one transaction each, through
 * the Memory's record log, so every module derives them as it would its own. Nothing is ever
 * replaced: records are immutable and content-addressed, so a record the store holds is skipped
 * (idempotent), and what state they make (the newest version, a resolved conflict) is derived from
 * all records together: an older backup adds history, it never takes the current state back.
 * Records a tombstone forgets are not stored; a fact tombstone from the backup hard-deletes the
 * version it names if the store holds it, as `facts.delete` would.
 *
 * The header is checked before anything is written (FORMAT_TOO_NEW for a newer backup).
 */
export class BackupImporter {
  readonly #log: RecordLog
  readonly #batchSize: number
  readonly #signal: AbortSignal | undefined
  readonly #decoder = new TextDecoder()
  #rest = ''
  #line = 0
  #header = false
  #ended: number | null = null
  #forgotten: Set<string> | null = null
  #batch: Array<{ line: number; value: unknown }> = []
  #identity: { did: string; seed: string } | null = null
  #finished = false
  readonly #counts = { records: 0, imported: 0, present: 0, forgotten: 0, refused: 0 }
  readonly #problems: BackupImportProblem[] = []

  constructor(log: RecordLog, options: BackupImportOptions = {}) {
    const batch = options.batch ?? 2000
    if (!Number.isSafeInteger(batch) || batch < 1) throw invalidArgument('batch', 'must be a positive integer')
    this.#log = log
    this.#batchSize = batch
    this.#signal = options.signal
  }

  /** Takes the next part of the backup (text, or UTF-8 bytes): any size, lines may span parts. */
  async push(chunk: string | Uint8Array): Promise<void> {
    if (this.#finished) throw new MemweaveError(ErrorCode.CLOSED, 'this import is finished')
    const text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true })
    const lines = (this.#rest + text).split('\n')
    this.#rest = lines.pop()!
    for (const raw of lines) await this.#take(raw)
  }

  /** Imports what is left and reports. */
  async finish(): Promise<BackupImportReport> {
    if (this.#finished) throw new MemweaveError(ErrorCode.CLOSED, 'this import is finished')
    const tail = this.#rest + this.#decoder.decode()
    this.#rest = ''
    if (tail.trim() !== '') await this.#take(tail)
    await this.#flush()
    this.#finished = true
    if (!this.#header) throw invalidArgument('backup', 'empty: no memweave backup header')
    return {
      ...this.#counts,
      problems: [...this.#problems],
      complete: this.#ended !== null && this.#ended === this.#counts.records,
      identity: this.#identity,
    }
  }

  async #take(raw: string): Promise<void> {
    this.#line++
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (text.trim() === '') return
    let value: BackupLine
    try {
      value = JSON.parse(text) as BackupLine
    } catch {
      if (!this.#header) throw invalidArgument('backup', 'the first line is not JSON (not a memweave backup)')
      return this.#refuse(this.#line, undefined, 'not JSON')
    }
    if (!this.#header) {
      assertHeader(value)
      this.#header = true
      return
    }
    if (this.#ended !== null) return this.#refuse(this.#line, undefined, 'after the end line')
    switch (value?.type) {
      case 'record':
        this.#counts.records++
        this.#batch.push({ line: this.#line, value: value.record })
        if (this.#batch.length >= this.#batchSize) await this.#flush()
        return
      case 'end':
        this.#ended = typeof value.records === 'number' ? value.records : -1
        return
      case 'identity':
        if (typeof value.did === 'string' && typeof value.seed === 'string' && /^[0-9a-f]{64}$/i.test(value.seed)) this.#identity = { did: value.did, seed: value.seed }
        else this.#refuse(this.#line, undefined, 'a malformed identity line')
        return
      default:
        return this.#refuse(this.#line, undefined, `unknown line type ${JSON.stringify((value as { type?: unknown })?.type)}`)
    }
  }

  #refuse(line: number, id: string | undefined, reason: string): void {
    this.#counts.refused++
    if (this.#problems.length < MAX_PROBLEMS) this.#problems.push(id === undefined ? { line, reason } : { line, id, reason })
  }

  /** Checks and stores the batch: one read for what is there, one transaction for what is new. */
  async #flush(): Promise<void> {
    const batch = this.#batch
    this.#batch = []
    if (batch.length === 0) return
    if (this.#signal?.aborted) throw new MemweaveError(ErrorCode.ABORTED, 'import aborted', {}, { cause: this.#signal.reason })
    const forgotten = await this.#forgottenSet()
    const reasons = await Promise.all(batch.map((b) => checkBackupRecord(b.value)))
    const good: Array<{ line: number; record: StoredRecord }> = []
    batch.forEach((b, i) => {
      const id = (b.value as { id?: unknown } | null)?.id
      if (reasons[i] !== null) this.#refuse(b.line, typeof id === 'string' ? id : undefined, reasons[i]!)
      else good.push({ line: b.line, record: b.value as StoredRecord })
    })
    // Tombstones first: what they forget is known before the records they forget (an export writes them first too).
    for (const { record } of good) for (const id of forgottenBy(record.kind, record.body)) forgotten.add(id)
    const ids = good.map((g) => g.record.id)
    const stored = await this.#log.storage.read(['records'], (tx) => tx.getMany<StoredRecord>('records', ids))
    const fresh: StoredRecord[] = []
    const seen = new Set<string>()
    good.forEach(({ record }, i) => {
      if (stored[i] !== undefined || seen.has(record.id)) this.#counts.present++
      else if (forgotten.has(record.id)) this.#counts.forgotten++
      else {
        seen.add(record.id)
        fresh.push(record)
      }
    })
    // A fact tombstone of the backup deletes the version it names, as facts.delete did where it was written.
    const targets = fresh.filter((r) => r.kind === 'tombstone').flatMap((r) => forgottenBy(r.kind, r.body))
    const present = targets.length === 0 ? [] : await this.#log.storage.read(['records'], (tx) => tx.getMany<StoredRecord>('records', targets))
    const removed = targets.filter((_, i) => present[i] !== undefined)
    if (fresh.length === 0 && removed.length === 0) return
    await this.#log.append(fresh, removed)
    this.#counts.imported += fresh.length
  }

  /** The ids the store's tombstones forget, read once. */
  async #forgottenSet(): Promise<Set<string>> {
    if (this.#forgotten) return this.#forgotten
    await this.#log.ready()
    const tombstones = await this.#log.storage.read(['records'], async (tx) => {
      const out: StoredRecord[] = []
      for (const kind of TOMBSTONE_KINDS) out.push(...(await tx.where<StoredRecord>('records', 'kind', kind)))
      return out
    })
    this.#forgotten = new Set(tombstones.flatMap((t) => forgottenBy(t.kind, t.body)))
    return this.#forgotten
  }
}

/** Feeds a whole source to an importer (source.ts says what a source may be). */
export async function importFrom(importer: BackupImporter, source: BackupSource): Promise<BackupImportReport> {
  for await (const chunk of chunksOf(source)) await importer.push(chunk)
  return importer.finish()
}
