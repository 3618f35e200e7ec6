import { toHex } from '../core/bytes.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Identity } from '../core/identity.js'
import type { RecordLog } from '../records/log.js'
import type { StoredRecord } from '../storage/schema.js'
import { headerLine, type BackupLine } from './format.js'
import { TOMBSTONE_KINDS } from './kinds.js'

export interface BackupExportOptions {
  /**
   * Put the identity's private key (its Ed25519 seed) in the backup, right after the header.
   * Default false: a backup never holds a private key unless asked. Needs an extractable identity.
   */
  readonly includeIdentitySeed?: boolean
  readonly signal?: AbortSignal
}

/** Lines are yielded in groups of this many, so a consumer across a worker boundary makes few round trips. */
const PAGE = 1000

/**
 * The backup of a Memory as JSON lines (format.ts), each string one line ending in "\n", in pages.
 * Everything is read in ONE storage transaction after pending writes committed, so the backup is
 * one consistent state: a memory hard-deleted before the export is in no line of it. Cost: the
 * records are held in memory while they are written out (O(store)).
 * @throws MemweaveError CAPABILITY_NOT_SUPPORTED for `includeIdentitySeed` with a non-extractable identity; ABORTED.
 */
export async function* exportPages(log: RecordLog, identity: Identity | null, options: BackupExportOptions = {}, now: () => number = Date.now): AsyncGenerator<string[]> {
  const seed = options.includeIdentitySeed ? identitySeed(identity) : null
  await log.flush()
  await log.ready()
  const records = await log.storage.read(['records'], (tx) => tx.all<StoredRecord>('records'))
  const tombstones: StoredRecord[] = []
  const rest: StoredRecord[] = []
  for (const r of records) ((TOMBSTONE_KINDS as readonly string[]).includes(r.kind) ? tombstones : rest).push(r)
  // Stamps are fixed-width text that sorts like the clock: an import replays causal order.
  const byStamp = (a: StoredRecord, b: StoredRecord): number => (a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  tombstones.sort(byStamp)
  rest.sort(byStamp)
  const line = (value: BackupLine): string => `${JSON.stringify(value)}\n`
  const first = [line(headerLine(now()))]
  if (seed) first.push(line({ type: 'identity', did: identity!.did, seed }))
  yield first
  let page: string[] = []
  for (const list of [tombstones, rest]) {
    for (const r of list) {
      page.push(line({ type: 'record', record: plainRecord(r) }))
      if (page.length >= PAGE) {
        if (options.signal?.aborted) throw new MemweaveError(ErrorCode.ABORTED, 'export aborted', {}, { cause: options.signal.reason })
        yield page
        page = []
      }
    }
  }
  page.push(line({ type: 'end', records: records.length }))
  yield page
}

/** A stored row as the record it is: only its own fields (an adapter may hand back extras). */
function plainRecord(r: StoredRecord): StoredRecord {
  const out: { -readonly [K in keyof StoredRecord]: StoredRecord[K] } = { id: r.id, kind: r.kind, tenant: r.tenant, body: r.body, author: r.author, hlc: r.hlc }
  if (r.sig !== undefined) out.sig = r.sig
  if (r.pool !== undefined) out.pool = r.pool
  return out
}

function identitySeed(identity: Identity | null): string {
  const exportable = identity as (Identity & { exportSeed?: () => Uint8Array }) | null
  if (!exportable || typeof exportable.exportSeed !== 'function') {
    throw new MemweaveError(
      ErrorCode.CAPABILITY_NOT_SUPPORTED,
      'includeIdentitySeed: this memory has no identity whose key can be exported (a non-extractable key stays in this browser)',
      { capability: 'exportSeed', operation: 'export' },
    )
  }
  return toHex(exportable.exportSeed())
}
