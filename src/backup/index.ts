import type { Identity } from '../core/identity.js'
import type { RecordLog } from '../records/log.js'
import { exportPages, type BackupExportOptions } from './export.js'
import { BackupImporter, importFrom, type BackupImportOptions, type BackupImportReport } from './import.js'
import type { BackupSource } from './source.js'

export { BACKUP_FORMAT, type BackupHeader, type BackupLine } from './format.js'
export { BackupImporter, importFrom, type BackupImportOptions, type BackupImportProblem, type BackupImportReport } from './import.js'
export { exportPages, type BackupExportOptions } from './export.js'

export { chunksOf, type BackupSource } from './source.js'

/** A Memory's backup as lines (each ending in "\n"). */
export async function* exportLines(log: RecordLog, identity: Identity | null, options?: BackupExportOptions): AsyncGenerator<string> {
  for await (const page of exportPages(log, identity, options)) yield* page
}

/** Imports a backup into a Memory's record log. */
export function importLines(log: RecordLog, source: BackupSource, options?: BackupImportOptions): Promise<BackupImportReport> {
  return importFrom(new BackupImporter(log, options), source)
}
