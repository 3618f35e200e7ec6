import { ErrorCode, MemweaveError } from './errors.js'
import { FORMAT_VERSIONS, formatTooNew } from './format-version.js'
import { ID_BYTES, isPackedIds, packIds, unpackId } from './packed-ids.js'

/**
 * Issue 31 (session 12): a fact record's row, packed. A cold open reads every fact row whole, and
 * its cost in Chromium follows the bytes IndexedDB stores and clones back: a fact row as an object
 * was 374 B of V8's clone format for 80 B of text (17 property names, two 32-hex ids, three
 * nulls of an unsigned source). Packed, the row keeps its key (`id`) and indexed `kind`, and the
 * rest is one array with no names: `f` = [version, hlc, content, ids, validFrom, writtenAt,
 * metadata, supersedes, tenant, author, writtenBy, signature, publicKey], where `ids` is the fact
 * id's bytes (then the structured id's) a character each, `writtenAt` is null when it equals
 * `validFrom`, `metadata` null when empty, and trailing nulls are left out (199 B a row on average, 10k rows of the client bench: bench/row-bytes.ts).
 *
 * Only a record of exactly the shape facts/draft.ts writes packs (its keys, in its order, with
 * canonical ids and finite times); any other row is stored as it is, so unpacking gives back the
 * very record that was packed, key order included. Rows written before store format 3 are read as
 * they are and never rewritten.
 */
/** A row of the `records` table as the record log writes it (storage/schema.ts StoredRecord; core imports nothing of ours). */
interface StoredRecord {
  readonly id: string
  readonly kind: string
  readonly tenant: string | null
  readonly body: unknown
  readonly author: string | null
  readonly hlc: string
}

interface PackedFactRow {
  readonly id: string
  readonly kind: 'fact'
  readonly f: readonly unknown[]
}

const RECORD_KEYS = ['id', 'kind', 'tenant', 'body', 'author', 'hlc'] as const
const BODY_KEYS = ['content', 'factId', 'structuredId', 'metadata', 'validFrom', 'writtenAt', 'supersedes', 'source'] as const
const SOURCE_KEYS = ['writtenBy', 'signature', 'publicKey'] as const
/** The fields up to `validFrom` are always there; after it, trailing nulls are dropped. */
const ALWAYS = 5

/** The row to store for a record: a fact of the usual shape packed, any other record as it is. */
export function packRecord<R extends StoredRecord>(record: R): R | PackedFactRow {
  if (record.kind !== 'fact' || !hasKeys(record, RECORD_KEYS)) return record
  const b = record.body as Record<string, unknown>
  if (!isPlain(b) || !hasKeys(b, BODY_KEYS)) return record
  const s = b['source'] as Record<string, unknown>
  const meta = b['metadata'] as Record<string, unknown>
  const { content, validFrom, writtenAt, supersedes } = b
  if (!isPlain(s) || !hasKeys(s, SOURCE_KEYS) || !isPlain(meta)) return record
  if (typeof content !== 'string' || !isTime(validFrom) || !isTime(writtenAt) || !isText(supersedes)) return record
  if (!isText(record.tenant) || !isText(record.author) || typeof record.hlc !== 'string') return record
  if (!isText(s['writtenBy']) || !isText(s['signature']) || !isText(s['publicKey'])) return record
  const ids = packIds(b['factId'], b['structuredId'])
  if (ids === null) return record
  const f: unknown[] = [
    FORMAT_VERSIONS.factRow, record.hlc, content, ids, validFrom,
    Object.is(writtenAt, validFrom) ? null : writtenAt, isEmpty(meta) ? null : meta, supersedes,
    record.tenant, record.author, s['writtenBy'], s['signature'], s['publicKey'],
  ]
  let n = f.length
  while (n > ALWAYS && f[n - 1] === null) n--
  f.length = n
  return { id: record.id, kind: 'fact', f }
}

/**
 * The record a stored row holds: a packed fact row unpacked, any other row as it is.
 * @throws MemweaveError FORMAT_TOO_NEW for a packed row of a newer version; DATA_DAMAGED for a packed row that is not whole.
 */
export function unpackRecord<T = StoredRecord>(row: T): T {
  const f = (row as { f?: unknown }).f
  return f === undefined ? row : (unpack(row as unknown as PackedFactRow, f) as T)
}

/** `unpackRecord` of each row, in place (rows a read returned, owned by the caller). */
export function unpackRecords<T>(rows: T[]): T[] {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]
    if (row !== undefined && (row as { f?: unknown }).f !== undefined) rows[i] = unpackRecord(row)
  }
  return rows
}

function unpack(row: PackedFactRow, f: unknown): StoredRecord {
  const where = `fact row ${String(row.id)}`
  if (!Array.isArray(f) || typeof f[0] !== 'number') throw damaged(row, 'its packed fields are not a list with a version first')
  if (f[0] > FORMAT_VERSIONS.factRow) throw formatTooNew('factRow', f[0], where)
  if (f[0] !== FORMAT_VERSIONS.factRow) throw damaged(row, `unknown packed version ${String(f[0])}`)
  const [, hlc, content, ids, validFrom, writtenAt = null, metadata = null, supersedes = null, tenant = null, author = null,
    writtenBy = null, signature = null, publicKey = null] = f as unknown[]
  if (typeof row.id !== 'string' || row.kind !== 'fact' || f.length > 13) throw damaged(row, 'its key, kind or length is not a fact row\'s')
  if (typeof hlc !== 'string' || typeof content !== 'string' || !isPackedIds(ids) || !isTime(validFrom)) throw damaged(row, 'its clock, text, ids or time are missing')
  if ((writtenAt !== null && !isTime(writtenAt)) || (metadata !== null && !isPlain(metadata))) throw damaged(row, 'its write time or metadata is not one')
  if (!isText(supersedes) || !isText(tenant) || !isText(author) || !isText(writtenBy) || !isText(signature) || !isText(publicKey)) throw damaged(row, 'a field that holds text holds something else')
  return {
    id: row.id,
    kind: 'fact',
    tenant,
    body: {
      content,
      factId: unpackId(ids, 0),
      structuredId: ids.length === 2 * ID_BYTES ? unpackId(ids, ID_BYTES) : null,
      metadata: metadata ?? {},
      validFrom,
      writtenAt: writtenAt ?? validFrom,
      supersedes,
      source: { writtenBy, signature, publicKey },
    },
    author,
    hlc,
  }
}

function damaged(row: PackedFactRow, reason: string): MemweaveError {
  const ref = typeof row.id === 'string' ? row.id : null
  return new MemweaveError(ErrorCode.DATA_DAMAGED, `stored fact row ${String(ref)} is damaged: ${reason}`, { problems: [{ table: 'records', ref, reason }] })
}

/** Whether `o`'s own enumerable keys are exactly `keys`, in that order. */
function hasKeys(o: object, keys: readonly string[]): boolean {
  let i = 0
  for (const k in o) if (!Object.prototype.hasOwnProperty.call(o, k) || k !== keys[i++]) return false
  return i === keys.length
}

function isPlain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false
  const proto = Object.getPrototypeOf(v)
  return proto === Object.prototype || proto === null
}

function isEmpty(o: object): boolean {
  for (const _ in o) return false
  return Object.getPrototypeOf(o) === Object.prototype
}

const isText = (v: unknown): v is string | null => v === null || typeof v === 'string'
/** A finite number: what survives every adapter (the file storage's JSON turns NaN into null). */
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
