import type { Identity } from '../core/identity.js'
import type { RecordLog } from '../records/log.js'
import { exportPages, type ExportOptions } from './export.js'
import { BackupImporter, importFrom, type ImportOptions, type ImportReport } from './import.js'

export { BACKUP_FORMAT, type BackupHeader, type BackupLine } from './format.js'
export { BackupImporter, importFrom, type ImportOptions, type ImportProblem, type ImportReport } from './import.js'
export { exportPages, type ExportOptions } from './export.js'

/** What a backup source may be: the whole text, or chunks of text or UTF-8 bytes (a Node stream, `Blob.stream()`, lines). */
export type BackupSource = string | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>

/** A Memory's backup as lines (each ending in "\n"). */
export async function* exportLines(log: RecordLog, identity: Identity | null, options?: ExportOptions): AsyncGenerator<string> {
  for await (const page of exportPages(log, identity, options)) yield* page
}

/** Imports a backup into a Memory's record log. */
export function importLines(log: RecordLog, source: BackupSource, options?: ImportOptions): Promise<ImportReport> {
  return importFrom(new BackupImporter(log, options), source)
}
