import { invalidArgument } from '../core/errors.js'
import { FORMAT_VERSIONS, MEMWEAVE_VERSION, formatTooNew, isTooNew } from '../core/format-version.js'
import type { StoredRecord } from '../storage/schema.js'

/**
 * The backup format (issue 28, docs/upgrading.md): JSON lines, one value a line.
 *
 *   {"type":"header","format":"memweave.backup","version":1,"writtenBy":"0.2.0","createdAt":<ms>}
 *   {"type":"identity","did":...,"seed":<hex>}      only when the export was asked for the key
 *   {"type":"record","record":{id,kind,tenant,body,author,hlc,sig?,pool?}}   one per stored record
 *   {"type":"end","records":<count>}
 *
 * Records are the store's own immutable records, signed or content-addressed as they were
 * written: the backup is exactly what every derived view (facts, pools, artifacts, SMALL, working
 * memory) is rebuilt from, and an importer checks each one as it would a synced record. The end
 * line tells a whole backup from one cut short.
 */
export const BACKUP_FORMAT = 'memweave.backup'

export interface BackupHeader {
  readonly type: 'header'
  readonly format: typeof BACKUP_FORMAT
  readonly version: number
  readonly writtenBy: string
  readonly createdAt: number
}

export interface BackupIdentity {
  readonly type: 'identity'
  readonly did: string
  /** Hex of the 32-byte Ed25519 seed: the private key. */
  readonly seed: string
}

export interface BackupRecord {
  readonly type: 'record'
  readonly record: StoredRecord
}

export interface BackupEnd {
  readonly type: 'end'
  readonly records: number
}

export type BackupLine = BackupHeader | BackupIdentity | BackupRecord | BackupEnd

export function headerLine(now: number): BackupHeader {
  return { type: 'header', format: BACKUP_FORMAT, version: FORMAT_VERSIONS.export, writtenBy: MEMWEAVE_VERSION, createdAt: now }
}

/**
 * Checks a backup's first line.
 * @throws MemweaveError FORMAT_TOO_NEW for a backup a newer memweave wrote; INVALID_ARGUMENT when it is not a memweave backup.
 */
export function assertHeader(value: unknown): BackupHeader {
  const h = value as Partial<BackupHeader> | null
  if (h?.type !== 'header' || h.format !== BACKUP_FORMAT) throw invalidArgument('backup', 'the first line is not a memweave backup header')
  if (isTooNew('export', h.version)) throw formatTooNew('export', h.version, 'the backup', typeof h.writtenBy === 'string' ? h.writtenBy : undefined)
  if (typeof h.version !== 'number' || !Number.isInteger(h.version) || h.version < 1) throw invalidArgument('backup', `unknown backup version ${JSON.stringify(h.version)}`)
  return h as BackupHeader
}
