import { readdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { isMemweaveError } from '../core/errors.js'
import { checkRecords } from '../gmp-http/store-check.js'
import { acquireLock } from '../node/file-lock.js'
import { repairFileStorage, type DroppedRow, type RepairReport } from '../node/file-repair.js'
import { EXIT, UsageError, parseCommandFlags, type Command } from './command.js'

const FLAGS = {
  dir: { type: 'string' },
  store: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const STORE_ID = /^[0-9a-f]{32}$/

/** `memweave gmp repair`: keeps what is intact of damaged stores, and says what it dropped. */
export const repairCommand: Command = {
  name: 'repair',
  summary: 'Repair damaged stores of a stopped GMP server: keep what is intact, report what is dropped',
  usage: `Usage: memweave gmp repair --dir D [--store ID]

Checks every store in D (the --dir of "memweave gmp serve"), or only store ID, while the server
is stopped. A store whose files or records fail their checks is rewritten from what is intact:
every line that verifies is kept, damaged lines and facts whose hash or signature fails are
dropped, and each is reported. The damaged files are first copied to
D/stores/ID/damaged-<time>/. Intact stores are not touched.

Options:
  --dir D     The GMP server's directory (required)
  --store ID  Repair only this store
  -h, --help  Show this help

Exit status: 0 when every store is intact or repaired, 1 when a store could not be repaired.
`,
  async run(argv, io) {
    const values = parseCommandFlags(repairCommand, argv, FLAGS, io)
    if (!values) return EXIT.OK
    if (!values.dir) throw new UsageError(repairCommand, '--dir is required')
    if (values.store !== undefined && !STORE_ID.test(values.store)) throw new UsageError(repairCommand, '--store must be a store id (32 hex digits)')
    const dir = resolve(values.dir)
    let serverLock
    try {
      // The server's own lock: a running server may open a store while it is being rewritten.
      serverLock = await acquireLock(join(dir, 'LOCK'), `GMP server directory ${dir}`)
    } catch (err) {
      io.stderr(`memweave: cannot repair ${dir}: ${(err as Error).message}\n`)
      return EXIT.FAILURE
    }
    try {
      const ids = await storeIds(dir)
      if (values.store !== undefined && !ids.includes(values.store)) {
        io.stderr(`memweave: no store ${values.store} in ${dir}\n`)
        return EXIT.FAILURE
      }
      if (values.store !== undefined) ids.splice(0, ids.length, values.store)
      let failed = false
      for (const id of ids) {
        try {
          io.stdout(describe(id, await repairFileStorage({ dir: join(dir, 'stores', id), check: checkFacts })))
        } catch (err) {
          failed = true
          io.stderr(`store ${id}: cannot repair: ${isMemweaveError(err) ? err.message : String(err)}\n`)
        }
      }
      if (ids.length === 0) io.stdout(`no stores in ${dir}\n`)
      return failed ? EXIT.FAILURE : EXIT.OK
    } finally {
      await serverLock.release()
    }
  },
}

async function storeIds(dir: string): Promise<string[]> {
  const entries = await readdir(join(dir, 'stores')).catch((err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? [] : Promise.reject(err)))
  return entries.filter((e) => STORE_ID.test(e)).sort()
}

/** GMP's own check: facts and tombstones whose hash or signature fails go, with their vectors. */
async function checkFacts(tables: ReadonlyMap<string, ReadonlyMap<string | number, unknown>>): Promise<DroppedRow[]> {
  const records = [...(tables.get('records')?.values() ?? [])] as Array<Record<string, unknown>>
  const bad = await checkRecords(records)
  const dropped: DroppedRow[] = bad.map((b) => ({ table: 'records', key: b.ref, reason: b.reason }))
  const vectors = tables.get('vectors')
  for (const b of bad) if (vectors?.has(b.ref)) dropped.push({ table: 'vectors', key: b.ref, reason: 'its fact was dropped' })
  return dropped
}

function describe(id: string, report: RepairReport): string {
  if (report.backup === null) return `store ${id}: intact (${report.rows} rows)\n`
  const lines = [`store ${id}: repaired, kept ${report.rows} rows; the damaged files are in ${report.backup}`]
  for (const d of report.damage) lines.push(`  dropped ${d.file}${d.line === undefined ? '' : ` line ${d.line}`}: ${d.reason}`)
  for (const d of report.dropped) lines.push(`  dropped ${d.table} ${String(d.key)}: ${d.reason}`)
  return `${lines.join('\n')}\n`
}
