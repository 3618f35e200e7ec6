import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { FORMAT_VERSIONS, formatTooNew, isTooNew } from '../core/format-version.js'
import type { Key, Schema } from '../storage/port.js'
import type { RecordedOp } from './recording-tx.js'
import { parseCheckedLine, readLines } from './file-lines.js'

/**
 * Reads a file storage directory into encoded rows (Node only), both formats:
 *
 *   v2: snapshot.jsonl  checksummed lines (file-lines.ts): a header {format, version: 2, seq, writtenBy},
 *                       one {t: table, r: row} per row, then {end: rows}
 *       log.jsonl       checksummed lines {n, ops}, n = seq + 1, seq + 2, ... with no gap
 *   v1: snapshot.json   one JSON document {format, version: 1, seq, tables}; changes.jsonl
 *                       plain lines {n, ops}. Read, then migrated to v2 by the adapter.
 *
 * It never writes. Every problem is listed (`damage`); strict callers refuse the directory when
 * there is any, `repair` keeps what is intact: every verified row and transaction, in order, with
 * transactions after a gap still applied (rows are content-addressed records; what is missing is
 * what the gap held).
 */

export const FORMAT = 'memweave.file-storage'
export const FILES = {
  snapshot: 'snapshot.jsonl',
  log: 'log.jsonl',
  v1Snapshot: 'snapshot.json',
  v1Log: 'changes.jsonl',
} as const

export interface Damage {
  readonly file: string
  /** 1-based line, when the problem is one line. */
  readonly line?: number
  readonly reason: string
}

export interface LoadedDir {
  readonly tables: Map<string, Map<Key, unknown>>
  /** Bytes of each row's JSON, by table and key (for the size limit). */
  readonly sizes: Map<string, Map<Key, number>>
  readonly seq: number
  /** 2 when v2 files were read, 1 for a v1 directory, 0 when the directory holds no data yet. */
  readonly version: 0 | 1 | 2
  /** Size of the log file (0 when absent): whether anything waits to be folded into the snapshot. */
  readonly logBytes: number
  /** v1 files beside a v2 snapshot: a migration cut short after its rename; they are stale. */
  readonly staleV1: boolean
  readonly damage: Damage[]
}

const exists = (path: string): Promise<boolean> => stat(path).then(() => true, (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? false : Promise.reject(err)))

/**
 * @param expectData the directory is known to hold a store (its snapshot must be there).
 */
export async function loadDir(dir: string, schema: Schema, options: { expectData: boolean }): Promise<LoadedDir> {
  const tables = new Map<string, Map<Key, unknown>>()
  const sizes = new Map<string, Map<Key, number>>()
  for (const name of Object.keys(schema)) {
    tables.set(name, new Map())
    sizes.set(name, new Map())
  }
  const damage: Damage[] = []
  const apply = (file: string, line: number | undefined, op: RecordedOp, bytes: number): void => {
    const table = tables.get(op[1])
    const spec = schema[op[1]]
    if (!table || !spec) return void damage.push({ file, line, reason: `unknown table ${JSON.stringify(op[1])}` })
    if (op[0] === 'd') {
      table.delete(op[2])
      sizes.get(op[1])!.delete(op[2])
      return
    }
    const key = (op[2] as Record<string, Key> | null)?.[spec.key]
    if (op[0] !== 'p' || (typeof key !== 'string' && typeof key !== 'number')) return void damage.push({ file, line, reason: 'not a change' })
    table.set(key, op[2])
    sizes.get(op[1])!.set(key, bytes)
  }

  const [v2Snap, v2Log, v1Snap, v1Log] = await Promise.all([FILES.snapshot, FILES.log, FILES.v1Snapshot, FILES.v1Log].map((f) => exists(join(dir, f))))
  let version: 0 | 1 | 2 = 0
  let seq = 0
  if (v2Snap) {
    version = 2
    seq = await readSnapshot(join(dir, FILES.snapshot), damage, apply)
  } else if (v2Log) {
    // v2 writes its snapshot before the log ever exists: a log alone means the snapshot was lost.
    version = 2
    damage.push({ file: FILES.snapshot, reason: `missing while ${FILES.log} exists (everything before the log is gone)` })
  } else if (v1Snap || v1Log) {
    version = 1
    if (v1Snap) seq = await readV1Snapshot(join(dir, FILES.v1Snapshot), damage, apply)
  } else if (options.expectData) {
    damage.push({ file: FILES.snapshot, reason: 'missing: the store has no data files' })
  }
  const logPath = join(dir, version === 1 ? FILES.v1Log : FILES.log)
  const logBytes = (version === 2 && v2Log) || (version === 1 && v1Log) ? (await stat(logPath)).size : 0
  if (logBytes > 0) seq = await replayLog(logPath, version === 2, seq, damage, apply)
  return { tables, sizes, seq, version, logBytes, staleV1: !!v2Snap && !!(v1Snap || v1Log), damage }
}

/**
 * Refuses a directory written in a newer format, before the lock, the load or any write (issue 28).
 * Every later format keeps `snapshot.jsonl`'s first line a checksummed `{format, version, ...}`
 * header: that line is the marker this build reads. A damaged or foreign header is left to
 * `loadDir` (DATA_DAMAGED); only a header that parses and names a newer version refuses here.
 * @throws MemweaveError FORMAT_TOO_NEW naming the version and the memweave that wrote it.
 */
export async function assertKnownFormat(dir: string): Promise<void> {
  const path = join(dir, FILES.snapshot)
  if (!(await exists(path))) return
  for await (const raw of readLines(path)) {
    const parsed = parseCheckedLine(raw.text)
    if (!parsed.ok) return
    const head = parsed.value as { format?: unknown; version?: unknown; writtenBy?: unknown }
    if (head?.format === FORMAT && isTooNew('fileStorage', head.version)) {
      throw formatTooNew('fileStorage', head.version, `file storage ${dir}`, typeof head.writtenBy === 'string' ? head.writtenBy : undefined)
    }
    return
  }
}

/** The header of a snapshot this build writes. */
export function snapshotHeader(seq: number, writtenBy: string): { format: string; version: number; seq: number; writtenBy: string } {
  return { format: FORMAT, version: FORMAT_VERSIONS.fileStorage, seq, writtenBy }
}

/** What a row counts against a store's size limit: the bytes of its JSON form. */
export function rowBytes(row: unknown): number {
  return Buffer.byteLength(JSON.stringify(row) ?? '', 'utf8')
}

type Apply = (file: string, line: number | undefined, op: RecordedOp, bytes: number) => void

async function readSnapshot(path: string, damage: Damage[], apply: Apply): Promise<number> {
  const file = FILES.snapshot
  let seq: number | undefined
  let rows = 0
  let end: number | undefined
  for await (const raw of readLines(path)) {
    const parsed = parseCheckedLine(raw.text)
    if (!parsed.ok) {
      damage.push({ file, line: raw.number, reason: raw.terminated ? parsed.reason : 'cut short' })
      continue
    }
    const v = parsed.value as { format?: unknown; version?: unknown; seq?: unknown; t?: unknown; r?: unknown; end?: unknown }
    if (raw.number === 1) {
      // Checked before the lock too (assertKnownFormat); again here, as another process may have written since.
      if (v?.format === FORMAT && isTooNew('fileStorage', v.version)) {
        const by = (v as { writtenBy?: unknown }).writtenBy
        throw formatTooNew('fileStorage', v.version, `file storage ${path.slice(0, -FILES.snapshot.length - 1)}`, typeof by === 'string' ? by : undefined)
      }
      if (v?.format !== FORMAT || v.version !== 2 || typeof v.seq !== 'number') damage.push({ file, line: 1, reason: 'not a v2 snapshot header' })
      else seq = v.seq
    } else if (typeof v?.end === 'number') {
      end = v.end
    } else if (typeof v?.t === 'string' && end === undefined) {
      rows++
      // The row's own JSON is the line's minus the wrapper {"t":<table>,"r":...}.
      apply(file, raw.number, ['p', v.t, v.r], parsed.jsonBytes - Buffer.byteLength(JSON.stringify(v.t), 'utf8') - 11)
    } else {
      damage.push({ file, line: raw.number, reason: 'not a snapshot row' })
    }
  }
  // The trailer catches a snapshot cut at a line boundary, which no line checksum can.
  if (end === undefined) damage.push({ file, reason: 'no end line (cut short)' })
  else if (end !== rows) damage.push({ file, reason: `holds ${rows} intact rows, its end line says ${end}` })
  return seq ?? 0
}

async function readV1Snapshot(path: string, damage: Damage[], apply: Apply): Promise<number> {
  const file = FILES.v1Snapshot
  let snap: { format?: unknown; version?: unknown; seq?: unknown; tables?: Record<string, unknown> }
  try {
    snap = JSON.parse(await readFile(path, 'utf8')) as typeof snap
  } catch (err) {
    damage.push({ file, reason: `not readable JSON (${(err as Error).message})` })
    return 0
  }
  if (snap?.format !== FORMAT || snap.version !== 1 || typeof snap.seq !== 'number' || typeof snap.tables !== 'object' || snap.tables === null) {
    damage.push({ file, reason: 'not a v1 snapshot' })
    return 0
  }
  for (const [name, rows] of Object.entries(snap.tables)) {
    if (!Array.isArray(rows)) damage.push({ file, reason: `table ${JSON.stringify(name)} is not a list` })
    else for (const row of rows) apply(file, undefined, ['p', name, row], rowBytes(row))
  }
  return snap.seq
}

/**
 * Applies the log's transactions after `seq`. Leading lines at or below `seq` were folded into
 * the snapshot already (a crash between its rename and the log's truncation); after them the
 * numbers must run on without a gap. Text after the last newline is a torn append (the crash came before
 * its fsync, so it was never acknowledged): dropped, not damage.
 */
async function replayLog(path: string, checked: boolean, seq: number, damage: Damage[], apply: Apply): Promise<number> {
  const file = checked ? FILES.log : FILES.v1Log
  let last = seq
  let replaying = false
  for await (const raw of readLines(path)) {
    if (!raw.terminated) break
    let tx: { n?: unknown; ops?: unknown }
    if (checked) {
      const parsed = parseCheckedLine(raw.text)
      if (!parsed.ok) {
        damage.push({ file, line: raw.number, reason: parsed.reason })
        continue
      }
      tx = parsed.value as typeof tx
    } else {
      try {
        tx = JSON.parse(raw.text) as typeof tx
      } catch {
        damage.push({ file, line: raw.number, reason: 'not JSON' })
        continue
      }
    }
    if (typeof tx?.n !== 'number' || !Array.isArray(tx.ops)) {
      damage.push({ file, line: raw.number, reason: 'not a transaction' })
      continue
    }
    if (tx.n <= seq && !replaying) continue
    // The file's order is the commit order (lines are only appended); the numbers check it. An
    // intact line out of order is still applied where it stands, so a repair keeps it.
    if (tx.n <= last) damage.push({ file, line: raw.number, reason: `transaction ${tx.n} out of order (after ${last})` })
    else if (tx.n !== last + 1) damage.push({ file, line: raw.number, reason: `transactions ${last + 1}..${tx.n - 1} are missing` })
    replaying = true
    for (const op of tx.ops as RecordedOp[]) {
      if (!Array.isArray(op)) damage.push({ file, line: raw.number, reason: 'not a change' })
      else apply(file, raw.number, op, op[0] === 'p' ? rowBytes(op[2]) : 0)
    }
    last = Math.max(last, tx.n)
  }
  return last
}

/** The error for a damaged directory: the first problems in the message, all of them in details. */
export function damaged(dir: string, damage: readonly Damage[]): MemweaveError {
  const where = (d: Damage): string => `${d.file}${d.line === undefined ? '' : ` line ${d.line}`}: ${d.reason}`
  const more = damage.length > 3 ? `, and ${damage.length - 3} more` : ''
  return new MemweaveError(
    ErrorCode.DATA_DAMAGED,
    `file storage ${dir} is damaged (${damage.slice(0, 3).map(where).join('; ')}${more}); it was left untouched: ` +
      'a repair (memweave gmp repair, or repairFileStorage) keeps what is intact',
    { dir, problems: damage.slice(0, 100) },
  )
}
