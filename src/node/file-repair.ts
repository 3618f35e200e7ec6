import { copyFile, mkdir, open, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { decodeValue } from './file-codec.js'
import { FILES, loadDir, type Damage } from './file-load.js'
import { acquireLock } from './file-lock.js'
import type { Key, Schema } from '../storage/port.js'
import { SCHEMA } from '../storage/schema.js'
import { writeSnapshot } from './file-snapshot.js'
import { syncDir } from './durable-file.js'

/**
 * Repairs a file storage directory (Node only): keeps every row and transaction that verifies,
 * drops what does not (and what `check` refuses), and writes the result as a fresh v2 snapshot
 * with an empty log. The damaged files are first copied, as they were, to
 * `<dir>/damaged-<time>/`; delete that folder once the repair is checked (it may hold content
 * that was later hard-deleted by nobody's choice: it is the store as it was found).
 */

export interface DroppedRow {
  readonly table: string
  readonly key: Key
  readonly reason: string
}

export interface RepairReport {
  readonly dir: string
  /** What the files held that did not verify (lines skipped, transactions missing, files missing). */
  readonly damage: readonly Damage[]
  /** Rows that read back but that `check` refused (for GMP: facts failing hash or signature). */
  readonly dropped: readonly DroppedRow[]
  /** Rows kept. */
  readonly rows: number
  /** Where the damaged files were copied; null when nothing needed repair (nothing was written). */
  readonly backup: string | null
}

export interface RepairOptions {
  readonly dir: string
  readonly schema?: Schema
  /** Finds intact-looking rows that must go anyway; gets the decoded rows by table. */
  readonly check?: (tables: ReadonlyMap<string, ReadonlyMap<Key, unknown>>) => Promise<DroppedRow[]>
}

/**
 * Repairs the file storage in `options.dir` (see the top of this file); a directory with nothing
 * wrong is left untouched (`backup: null`).
 * @returns what was found, dropped and kept, and where the damaged files were copied.
 * @throws MemweaveError CONFLICT when a process holds the directory (stop it first); STORAGE on
 *   I/O errors, with the directory left as it was unless the new snapshot's rename happened.
 * @example
 * import { repairFileStorage } from 'memweave/node'
 * const report = await repairFileStorage({ dir: './data' })
 * for (const d of report.damage) console.log(`dropped ${d.file} line ${d.line}: ${d.reason}`)
 */
export async function repairFileStorage(options: RepairOptions): Promise<RepairReport> {
  const dir = resolve(options.dir)
  const schema = options.schema ?? SCHEMA
  const lock = await acquireLock(join(dir, 'LOCK'), `file storage ${dir}`)
  try {
    const loaded = await loadDir(dir, schema, { expectData: false })
    const decoded = new Map<string, Map<Key, unknown>>()
    const damage = [...loaded.damage]
    for (const [name, rows] of loaded.tables) {
      const out = new Map<Key, unknown>()
      for (const [key, row] of rows) {
        try {
          out.set(key, decodeValue(row))
        } catch (err) {
          damage.push({ file: name, reason: `row ${JSON.stringify(key)} does not decode (${(err as Error).message})` })
          rows.delete(key)
        }
      }
      decoded.set(name, out)
    }
    const dropped = (await options.check?.(decoded)) ?? []
    for (const d of dropped) loaded.tables.get(d.table)?.delete(d.key)
    let kept = 0
    for (const rows of loaded.tables.values()) kept += rows.size
    if (damage.length === 0 && dropped.length === 0) return { dir, damage, dropped, rows: kept, backup: null }

    const backup = join(dir, `damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`)
    await mkdir(backup, { recursive: true, mode: 0o700 })
    for (const f of Object.values(FILES)) {
      const there = await stat(join(dir, f)).then(() => true, () => false)
      if (there) await copyDurably(join(dir, f), join(backup, f))
    }
    await syncDir(backup)
    function* rows(): Generator<readonly [string, unknown]> {
      for (const [name, table] of loaded.tables) for (const row of table.values()) yield [name, row]
    }
    await writeSnapshot(dir, rows(), loaded.seq, (file) => file.datasync())
    // The log's lines are in the snapshot now (or were dropped): empty it, after the snapshot exists.
    const log = await open(join(dir, FILES.log), 'w', 0o600)
    await log.sync()
    await log.close()
    return { dir, damage, dropped, rows: kept, backup }
  } finally {
    await lock.release()
  }
}

/** A copy that is on disk before the original is replaced (the repair rewrites it next). */
async function copyDurably(from: string, to: string): Promise<void> {
  await copyFile(from, to)
  const file = await open(to, 'r+')
  try {
    await file.sync()
  } finally {
    await file.close()
  }
}
