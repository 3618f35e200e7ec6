import { fromHex, toHex } from '../core/bytes.js'
import { verify } from '../core/ed25519.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { contentFactId, recordId } from '../core/ids.js'
import type { StoragePort } from '../storage/port.js'

/**
 * Checks the stored GMP records of a store (Node only): a fact's record id must be the
 * hash of what is stored, its content must hash to its fact id, and its signature must verify
 * over that id (GMP interface contract §4.1). Line checksums (src/node/file-lines.ts) catch a
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
 * The facts of one store that were checked, so each is checked once per process, on its first
 * read ("verify on load or first read"): opening stays a pass over the files (checked by their
 * line checksums), and a large store does not hash all its content and verify every signature
 * before its first answer (about 130 ms a MiB of content, 6,000 signatures a second).
 */
export class FactChecks {
  readonly #storage: StoragePort
  readonly #label: string
  readonly #ok = new Set<string>()
  #damage: MemweaveError | null = null

  constructor(storage: StoragePort, label: string) {
    this.#storage = storage
    this.#label = label
  }

  /** The error of an earlier failed check: the store stays refused until a repair. */
  get damage(): MemweaveError | null {
    return this.#damage
  }

  /**
   * Checks the stored records behind `refs` not checked yet.
   * @throws MemweaveError DATA_DAMAGED listing the refs that fail (and from then on, every call).
   */
  async assert(refs: readonly string[]): Promise<void> {
    if (this.#damage) throw this.#damage
    const todo = [...new Set(refs)].filter((ref) => !this.#ok.has(ref))
    if (todo.length === 0) return
    const rows = await this.#storage.read(['records'], (tx) => tx.getMany<Row>('records', todo))
    const bad = await checkRecords(rows.filter((r): r is Row => r !== undefined))
    if (bad.length === 0) {
      for (const ref of todo) this.#ok.add(ref)
      return
    }
    const list = bad.slice(0, 3).map((b) => `${b.ref}: ${b.reason}`).join('; ')
    this.#damage = new MemweaveError(
      ErrorCode.DATA_DAMAGED,
      `${this.#label} holds ${bad.length} record(s) that fail their checks (${list}${bad.length > 3 ? ', ...' : ''}); nothing was served`,
      { problems: bad.slice(0, 100).map((b) => ({ file: 'records', ref: b.ref, reason: b.reason })) },
    )
    throw this.#damage
  }
}
