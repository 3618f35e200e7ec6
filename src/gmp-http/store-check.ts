import { fromHex, toHex } from '../core/bytes.js'
import { verify } from '../core/ed25519.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { contentFactId, recordId } from '../core/ids.js'
import type { StoragePort } from '../storage/port.js'

/**
 * Checks every stored GMP record of a store on open (Node only): a fact's record id must be the
 * hash of what is stored, its content must hash to its fact id, and its signature must verify
 * over that id (GMP interface contract §4.1). Line checksums (src/storage/file-lines.ts) catch a
 * damaged disk; this catches content changed together with its checksum, and v1 files, which had
 * none. Before it, a bit flip in a fact's content was served as that fact (issue 13).
 */

export interface BadRecord {
  readonly ref: string
  readonly reason: string
}

interface Row {
  readonly id?: unknown
  readonly kind?: unknown
  readonly tenant?: unknown
  readonly body?: unknown
  readonly author?: unknown
  readonly hlc?: unknown
  readonly pool?: unknown
}

interface FactBody {
  readonly content?: unknown
  readonly factId?: unknown
  readonly source?: { readonly signature?: unknown; readonly publicKey?: unknown } | null
}

/** What is wrong with one stored fact or tombstone, or null when it holds. Never throws. */
export async function checkRecord(row: Row): Promise<string | null> {
  try {
    if (typeof row.id !== 'string') return 'no id'
    // The facts module's own records; pooled records carry their own signature, checked by sync.
    const id = recordId({ kind: row.kind, tenant: row.tenant, body: row.body, author: row.author, hlc: row.hlc })
    if (id !== row.id) return 'its content does not hash to its id (altered)'
    if (row.kind !== 'fact') return null
    const body = row.body as FactBody
    if (typeof body.content !== 'string' || typeof body.factId !== 'string') return 'not a fact'
    if (toHex(contentFactId(body.content, row.tenant as string | null)) !== body.factId) return 'its content does not hash to its fact id (altered)'
    const { signature, publicKey } = body.source ?? {}
    if (signature === null || signature === undefined) return null
    if (typeof signature !== 'string' || typeof publicKey !== 'string') return 'a malformed signature'
    return (await verify(fromHex(signature), fromHex(body.factId), fromHex(publicKey))) ? null : 'its signature does not verify'
  } catch (err) {
    return `unreadable (${(err as Error).message})`
  }
}

/** Every fact and tombstone of the facts module in `rows` that fails `checkRecord`. */
export async function checkRecords(rows: readonly Row[]): Promise<BadRecord[]> {
  const mine = rows.filter((row) => (row.kind === 'fact' || row.kind === 'tombstone') && row.pool === undefined)
  const bad: BadRecord[] = []
  // In batches: WebCrypto verifies on libuv's thread pool, so signatures check in parallel.
  for (let i = 0; i < mine.length; i += 64) {
    const batch = mine.slice(i, i + 64)
    const reasons = await Promise.all(batch.map(checkRecord))
    reasons.forEach((reason, j) => {
      if (reason !== null) bad.push({ ref: String(batch[j]!.id), reason })
    })
  }
  return bad
}

/**
 * Refuses a store whose records fail their checks. Reads through the storage port, so it costs one
 * pass over the facts (about 6,000 signature checks a second with WebCrypto) per open.
 * @throws MemweaveError DATA_DAMAGED listing the refs.
 */
export async function assertRecordsIntact(storage: StoragePort, label: string): Promise<void> {
  const rows = await storage.read(['records'], async (tx) => [
    ...(await tx.where<Row>('records', 'kind', 'fact')),
    ...(await tx.where<Row>('records', 'kind', 'tombstone')),
  ])
  const bad = await checkRecords(rows)
  if (bad.length === 0) return
  const list = bad.slice(0, 3).map((b) => `${b.ref}: ${b.reason}`).join('; ')
  throw new MemweaveError(
    ErrorCode.DATA_DAMAGED,
    `${label} holds ${bad.length} record(s) that fail their checks (${list}${bad.length > 3 ? ', ...' : ''}); nothing was served`,
    { problems: bad.slice(0, 100).map((b) => ({ file: 'records', ref: b.ref, reason: b.reason })) },
  )
}
