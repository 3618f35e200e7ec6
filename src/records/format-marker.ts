import { FORMAT_VERSIONS, MEMWEAVE_VERSION, formatTooNew, isTooNew } from '../core/format-version.js'
import type { StoragePort, WriteTx } from '../storage/port.js'
import { DEXIE_VERSIONS } from '../storage/schema.js'

/**
 * The format marker of a Memory's storage (issue 28): one `meta` row, `format`, naming the version
 * of the records and side tables and the memweave that last upgraded them. It lives in the same
 * tables on every adapter (IndexedDB, file, memory), so one check serves them all.
 *
 * Why a row and not IndexedDB's own version number: Dexie opens a database whose version is higher
 * than the schema it was given without an error (it retries without a version on VersionError),
 * so an older build would read a newer database as if it understood it. The row is read before
 * anything else, and a newer one refuses the open with nothing written.
 */
export const FORMAT_ROW = 'format'

export interface FormatRow {
  readonly key: typeof FORMAT_ROW
  /** `FORMAT_VERSIONS.store` of the build that wrote it. */
  readonly version: number
  /** The Dexie schema version that build declared (diagnostics: what tables it knew). */
  readonly schema: number
  /** The memweave version that wrote the row. */
  readonly writtenBy: string
}

/**
 * Refuses storage written in a newer format. Writes nothing: a store without the current marker
 * (new, or written before 0.2.0, whose records this build reads as they are) gets it with its next
 * write (`markStoreFormat`), so an open that only reads changes no byte.
 * @returns whether the marker is missing or older (the next commit writes it).
 * @throws MemweaveError FORMAT_TOO_NEW
 */
export async function checkStoreFormat(storage: StoragePort, where: string): Promise<boolean> {
  const row = await storage.read(['meta'], (tx) => tx.get<FormatRow>('meta', FORMAT_ROW))
  assertNotNewer(row, where)
  return row?.version !== FORMAT_VERSIONS.store
}

/**
 * Writes the marker inside a commit's transaction, unless another handle wrote a newer one since
 * the open (then the commit fails with FORMAT_TOO_NEW and nothing of it lands).
 */
export async function markStoreFormat(tx: WriteTx, where: string): Promise<void> {
  const row = await tx.get<FormatRow>('meta', FORMAT_ROW)
  assertNotNewer(row, where)
  if (row?.version === FORMAT_VERSIONS.store) return
  const mark: FormatRow = { key: FORMAT_ROW, version: FORMAT_VERSIONS.store, schema: DEXIE_VERSIONS.at(-1)!.version, writtenBy: MEMWEAVE_VERSION }
  await tx.put('meta', [mark])
}

function assertNotNewer(row: FormatRow | undefined, where: string): void {
  if (row && isTooNew('store', row.version)) throw formatTooNew('store', row.version, where, typeof row.writtenBy === 'string' ? row.writtenBy : undefined)
}

/** The storage as a refusal names it: its directory or database name where it has one. */
export function storageLabel(storage: StoragePort): string {
  const { dir, name } = storage as { dir?: unknown; name?: unknown }
  const label = typeof dir === 'string' ? dir : typeof name === 'string' ? name : null
  return label === null ? `${storage.kind} storage` : `${storage.kind} storage ${label}`
}
