import { mkdir, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { invalidArgument } from '../core/errors.js'
import { loadOrCreateIdentity } from '../gmp-http/server-identity.js'
import { createMemory } from '../memory.js'
import { fileStorage } from '../node/file-adapter.js'
import { EXIT, parseCommandFlags, type CliIO, type Command } from './command.js'

/**
 * `memweave export` and `memweave import`: a file store's backup on stdout, and a backup from
 * stdin into a file store (issue 28; the format is src/backup/format.ts, docs/upgrading.md). The
 * store directory is the one `memweave mcp --dir D` serves, with its identity in D/identity.json.
 */

const FLAGS = {
  dir: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

function storeDir(command: Command, dir: string | undefined): string {
  if (dir === undefined || dir === '') throw invalidArgument('--dir', `"memweave ${command.name}" needs --dir D, the store directory`)
  return resolve(dir)
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write a backup of a store directory to stdout (JSON lines)',
  usage: `Usage: memweave export --dir D > backup.jsonl

Writes a backup of the file store in D to stdout: JSON lines, a header naming the format and its
version, then every record (facts, pools with their ACL records, artifacts, SMALL documents,
working memory) as it was signed, then an end line. Hard-deleted memories are not in it; no
private key is. Restore it with "memweave import". The store must not be open in another process.

Options:
  --dir D     The store directory
  -h, --help  Show this help
`,
  async run(argv, io) {
    const values = parseCommandFlags(exportCommand, argv, FLAGS, io)
    if (!values) return EXIT.OK
    const dir = storeDir(exportCommand, values.dir)
    // A missing directory is a mistake, not an empty backup (the storage would create it).
    if (!(await stat(dir).then((s) => s.isDirectory(), () => false))) throw invalidArgument('--dir', `${dir} is not a directory`)
    const mem = await createMemory({ storage: fileStorage({ dir, expectData: true }) })
    try {
      let page: string[] = []
      for await (const line of mem.export({ signal: io.shutdown() })) {
        page.push(line)
        if (page.length >= 1000) {
          io.stdout(page.join(''))
          page = []
        }
      }
      io.stdout(page.join(''))
    } finally {
      await mem.close()
    }
    return EXIT.OK
  },
}

export const importCommand: Command = {
  name: 'import',
  summary: 'Restore a backup from stdin into a store directory',
  usage: `Usage: memweave import --dir D < backup.jsonl

Imports a backup made by "memweave export" (or mem.export()) into the file store in D, created if
missing. Every record's id and signature is checked; records D already holds are skipped, so
importing twice changes nothing; nothing newer in D is replaced. Prints what was imported, and
every refused line with its number and why, on stderr; exits 1 when a line was refused or the
backup was cut short.

Options:
  --dir D     The store directory
  -h, --help  Show this help
`,
  async run(argv, io) {
    const values = parseCommandFlags(importCommand, argv, FLAGS, io)
    if (!values) return EXIT.OK
    const dir = storeDir(importCommand, values.dir)
    const mem = await createMemory({ storage: fileStorage({ dir }), identity: await loadOrCreateIdentity(await ensureDir(dir)) })
    try {
      const report = await mem.import(stdinOf(io), { signal: io.shutdown() })
      io.stderr(
        `memweave: imported ${report.imported} of ${report.records} records into ${dir} ` +
          `(${report.present} already there, ${report.forgotten} forgotten here, ${report.refused} refused)` +
          `${report.complete ? '' : '; the backup has no end line or a wrong count: it was cut short'}\n`,
      )
      for (const p of report.problems) io.stderr(`  line ${p.line}${p.id ? ` (${p.id})` : ''}: ${p.reason}\n`)
      if (report.refused > report.problems.length) io.stderr(`  ... and ${report.refused - report.problems.length} more\n`)
      return report.refused === 0 && report.complete ? EXIT.OK : EXIT.FAILURE
    } finally {
      await mem.close()
    }
  },
}

function stdinOf(io: CliIO): AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array> {
  return io.stdin ?? (process.stdin as AsyncIterable<Uint8Array>)
}

async function ensureDir(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
  return dir
}

