import { readFile, readdir, stat } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { SmpArtifactStore } from '../artifacts/store.js'
import type { ArtifactProblem } from '../artifacts/types.js'
import { SLUG_PATTERN } from '../artifacts/slug.js'
import { validateArtifactText } from '../artifacts/validate.js'
import { decodeUtf8 } from '../artifacts/utf8.js'
import { exportWorkspace, importWorkspace, type TransferProblem } from '../node/artifact-workspace-sync.js'
import { fileStorage } from '../node/file-adapter.js'
import { sub } from './artifact-sub.js'
import { EXIT, type CliIO, type Command } from './command.js'

/** `memweave artifact validate | import | export`: artifact files as a whole. */

// ---- validate -----------------------------------------------------------------------------------

interface FileReport {
  readonly file: string
  readonly valid: boolean
  readonly problems: readonly ArtifactProblem[]
}

/** The `.md` files a path stands for: a file; a workspace's `artifacts/`; or a directory's `.md` files, recursively. */
async function mdFiles(path: string): Promise<string[]> {
  const s = await stat(path)
  if (!s.isDirectory()) return [path]
  const artifacts = join(path, 'artifacts')
  const isWorkspace = await stat(artifacts).then((a) => a.isDirectory(), () => false)
  if (isWorkspace) return (await readdir(artifacts)).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort().map((n) => join(artifacts, n))
  const entries = await readdir(path, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => join(e.parentPath, e.name)).sort()
}

export const validate: Command = sub({
  name: 'validate',
  options: '',
  summary: 'Validate artifact files against SMP (schema and rules)',
  args: '[paths...]',
  help: `Paths are files or directories (a workspace: its artifacts/; another directory: its .md files,
recursively); default: the workspace's artifacts/. Each problem is printed as "file: field: message".
Exit 0 when every file is valid, 1 when any is invalid, 2 when a path cannot be read.`,
  flags: { help: { type: 'boolean', short: 'h' } },
  positionals: [0, Infinity],
  async run(ctx) {
    const paths = ctx.positionals.length > 0 ? [...ctx.positionals] : [resolve(ctx.values.dir ?? '.')]
    const reports: FileReport[] = []
    const errors: Array<{ path: string; message: string }> = []
    for (const path of paths) {
      let files: string[]
      try {
        files = await mdFiles(path)
      } catch (err) {
        errors.push({ path, message: systemMessage(err) })
        continue
      }
      for (const file of files) {
        let bytes: Uint8Array
        try {
          bytes = await readFile(file)
        } catch (err) {
          errors.push({ path: file, message: systemMessage(err) })
          continue
        }
        const name = basename(file, '.md')
        let text: string
        try {
          text = decodeUtf8(bytes, 'text')
        } catch (err) {
          // A file that is not UTF-8 is an invalid artifact, not a file that cannot be read.
          reports.push({ file, valid: false, problems: [{ field: 'text', message: (err as Error).message.replace(/^text: /, '') }] })
          continue
        }
        const result = validateArtifactText(text, SLUG_PATTERN.test(name) ? { slug: name } : {})
        const problems = SLUG_PATTERN.test(name) ? [...result.problems] : [{ field: 'id', message: `the file name "${basename(file)}" is not <slug>.md with a valid slug (SMP §3.2)` }, ...result.problems]
        reports.push({ file, valid: problems.length === 0, problems })
      }
    }
    const invalid = reports.filter((r) => !r.valid)
    const code = errors.length > 0 ? EXIT.USAGE : invalid.length > 0 ? EXIT.FAILURE : EXIT.OK
    if (ctx.json) {
      ctx.io.stdout(`${JSON.stringify({ valid: code === EXIT.OK, files: reports, errors }, null, 2)}\n`)
      return code
    }
    for (const e of errors) ctx.io.stderr(`memweave: cannot read ${e.path}: ${e.message}\n`)
    for (const r of invalid) for (const p of r.problems) ctx.io.stdout(`${r.file}: ${p.field}: ${p.message}\n`)
    ctx.io.stdout(`${reports.length} file(s) checked, ${invalid.length} invalid${errors.length > 0 ? `, ${errors.length} unreadable` : ''}\n`)
    return code
  },
})

function systemMessage(err: unknown): string {
  const e = err as NodeJS.ErrnoException
  return e?.code ? `${e.code} ${e.message}` : String(e?.message ?? err)
}

// ---- import / export ----------------------------------------------------------------------------

const STORE_HELP = '--store S is the memweave store directory (default: <dir>/.memweave, the one "memweave mcp" uses).'

async function withStore<T>(dir: string, store: string | undefined, body: (s: SmpArtifactStore) => Promise<T>): Promise<T> {
  const artifacts = new SmpArtifactStore(fileStorage({ dir: store ?? join(dir, '.memweave') }))
  try {
    return await body(artifacts)
  } finally {
    await artifacts.close()
  }
}

function printProblems(ctx: { io: CliIO }, failed: readonly TransferProblem[]): void {
  for (const f of failed) for (const p of f.problems) ctx.io.stderr(`memweave: ${f.path}: ${p.field}: ${p.message}\n`)
}

export const importCmd: Command = sub({
  name: 'import',
  options: `  --store S     The store directory (default: <dir>/.memweave)
`,
  summary: 'Copy the workspace\'s artifacts into a memweave store',
  args: '[--store S]',
  help: `Every file is validated first; if any is invalid, nothing is imported. Files keep their exact
bytes. ${STORE_HELP}`,
  flags: { store: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  positionals: [0, 0],
  async run(ctx) {
    const ws = ctx.workspace()
    const report = await withStore(ws.dir, ctx.values.store, (store) => importWorkspace(ws, store))
    const human = report.imported.map((r) => `${r.status.padEnd(9)} ${r.path} (version ${r.version})`).join('\n')
    if (!ctx.json) printProblems(ctx, report.failed)
    ctx.print(report, `${human}${human ? '\n' : ''}${report.imported.length} imported, ${report.failed.length} failed\n`)
    return report.failed.length > 0 ? EXIT.FAILURE : EXIT.OK
  },
})

export const exportCmd: Command = sub({
  name: 'export',
  options: `  --store S     The store directory (default: <dir>/.memweave)
  --force       Replace files even when they hold edits the store does not have
`,
  summary: 'Write a memweave store\'s artifacts into the workspace',
  args: '[--store S] [--force]',
  help: `Writes each artifact's current version to artifacts/<slug>.md, byte for byte. A file is replaced
only when it holds a version the store knows, unless --force. ${STORE_HELP}`,
  flags: { store: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  positionals: [0, 0],
  async run(ctx) {
    const ws = ctx.workspace()
    const report = await withStore(ws.dir, ctx.values.store, (store) => exportWorkspace(store, ws, { force: ctx.values.force === true }))
    const human = report.exported.map((r) => `${r.status.padEnd(9)} ${r.path} (version ${r.version})`).join('\n')
    if (!ctx.json) printProblems(ctx, report.failed)
    ctx.print(report, `${human}${human ? '\n' : ''}${report.exported.length} exported, ${report.failed.length} failed\n`)
    return report.failed.length > 0 ? EXIT.FAILURE : EXIT.OK
  },
})

/** `memweave artifact ...`. */
