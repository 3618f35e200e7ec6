import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { checkAppendOnly, entryDigest } from '../small/append-only.js'
import { SmallRule, findingsError, makeReport, type Finding } from '../small/findings.js'
import { buildHandoff, type HandoffOptions } from '../small/handoff.js'
import { SMALL_CACHE_DIR, SMALL_DIR, SMALL_DOCS, SMALL_VERSION, fileNameOf, filePathOf, type SmallDocName } from '../small/layout.js'
import { assertMayWrite, type SmallRole } from '../small/ownership.js'
import { prepareEntry, type ProgressEntryInput } from '../small/progress.js'
import { computeReplayId } from '../small/replay-id.js'
import { currentRunId, type LayoutEntry } from '../small/strict.js'
import { constraintsTemplate, intentTemplate, planTemplate, progressTemplate, workspaceTemplate } from '../small/templates.js'
import { nextTimestamp } from '../small/timestamp.js'
import type { HandoffDoc, ProgressEntry } from '../small/types.js'
import { validateDocument, validateWorkspace, type WorkspaceFiles, type WorkspaceValidation } from '../small/validate.js'
import { assertInsideWorkspace, assertNotLinkedDir } from './small-workspace-guard.js'
import { parseYaml, patchYaml } from '../small/yaml-text.js'

/**
 * A SMALL workspace on disk (Node only): `<root>/.small/*.small.yml`. Reading never changes a
 * file; a write goes through the same validation as `mem.small`, rewrites only the document it
 * changes (patching its YAML, see yaml-text.ts) and lands atomically (a temporary file renamed over
 * the old one). memweave remembers the progress entries it has seen in
 * `<root>/.small-cache/progress-ledger.json` (operational data belongs outside `.small/`, SMALL.md §8):
 * that is the "last known state" an edit or removal of an earlier entry is detected against.
 *
 * File-system failures (a directory that does not exist or cannot be read) throw MemweaveError
 * STORAGE: a system error, which the CLI reports with exit code 2. A malformed document is not an
 * error here but a finding: the workspace is invalid.
 */
export interface LoadedWorkspace {
  readonly root: string
  readonly files: WorkspaceFiles
  /** The `.small/` listing; null when there is no `.small/` directory. */
  readonly layout: readonly LayoutEntry[] | null
}

const LEDGER = 'progress-ledger.json'

function systemError(action: string, path: string, cause: unknown): MemweaveError {
  const code = (cause as NodeJS.ErrnoException)?.code
  return new MemweaveError(ErrorCode.STORAGE, `cannot ${action} ${path}${code ? ` (${code})` : ''}`, { path, errno: code ?? null }, { cause })
}

/** Reads the workspace's documents and `.small/` listing. @throws MemweaveError STORAGE when `root` cannot be read. */
export async function readWorkspace(root: string): Promise<LoadedWorkspace> {
  try {
    const s = await stat(root)
    if (!s.isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' })
    await readdir(root)
  } catch (err) {
    throw systemError('read the workspace directory', root, err)
  }
  const dir = join(root, SMALL_DIR)
  await assertInsideWorkspace(root, dir)
  let layout: LayoutEntry[] | null
  try {
    layout = (await readdir(dir, { withFileTypes: true })).map((e) => ({ name: e.name, directory: e.isDirectory() }))
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw systemError('read', dir, err)
    layout = null
  }
  const files: WorkspaceFiles = {}
  if (layout) {
    for (const name of SMALL_DOCS) {
      const path = join(dir, fileNameOf(name))
      await assertInsideWorkspace(root, path)
      try {
        files[name] = new Uint8Array(await readFile(path))
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code
        if (code !== 'ENOENT' && code !== 'EISDIR') throw systemError('read', path, err)
      }
    }
  }
  return { root, files, layout }
}

/** The digests of the progress entries memweave last saw, or null when it has none. */
export async function readLedger(root: string): Promise<string[] | null> {
  const path = join(root, SMALL_CACHE_DIR, LEDGER)
  await assertInsideWorkspace(root, path)
  try {
    const json = JSON.parse(await readFile(path, 'utf8')) as { entries?: unknown }
    return Array.isArray(json.entries) && json.entries.every((e) => typeof e === 'string') ? (json.entries as string[]) : null
  } catch {
    return null // no ledger (or an unreadable one): nothing to compare against
  }
}

async function writeLedger(root: string, entries: readonly unknown[]): Promise<void> {
  const dir = join(root, SMALL_CACHE_DIR)
  await mkdir(dir, { recursive: true })
  const body = { small_version: SMALL_VERSION, file: filePathOf('progress'), entries: entries.map(entryDigest) }
  await atomicWrite(join(dir, LEDGER), `${JSON.stringify(body, null, 2)}\n`, dir)
}

async function atomicWrite(path: string, text: string, tmpDir: string): Promise<void> {
  const tmp = join(tmpDir, `.tmp-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`)
  await writeFile(tmp, text, 'utf8')
  await rename(tmp, path)
}

export interface DirValidateOptions {
  readonly strict?: boolean
  /** verify: also check progress against the ledger and that the replayId reproduces. */
  readonly verify?: boolean
}

/**
 * Validates a workspace directory (`validate`, or `verify` with `verify: true`).
 * @throws MemweaveError STORAGE when the directory cannot be read.
 */
export async function validateDir(root: string, options: DirValidateOptions = {}): Promise<WorkspaceValidation> {
  const ws = await readWorkspace(root)
  if (ws.layout === null) {
    const finding: Finding = {
      severity: 'error', file: `${SMALL_DIR}/`, pointer: '', rule: SmallRule.MISSING,
      message: `there is no ${SMALL_DIR}/ directory in ${root}: create the workspace with memweave small init`,
    }
    return { report: makeReport([finding]), data: {}, replay: null }
  }
  return validateWorkspace(ws.files, {
    strict: options.strict,
    layout: ws.layout,
    knownProgress: options.verify ? await readLedger(root) : null,
    checkReplayId: options.verify,
  })
}

export interface DirWriteOptions {
  /** Who writes: agents (the default) may not write intent or constraints. */
  readonly role?: SmallRole
  readonly strict?: boolean
}

export interface DirWriteResult {
  readonly changed: boolean
  readonly text: string
  readonly warnings: readonly Finding[]
}

async function readText(root: string, path: string): Promise<string | null> {
  await assertInsideWorkspace(root, path)
  try {
    return await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw systemError('read', path, err)
  }
}

/**
 * Writes one document, keeping the formatting of what did not change.
 * @throws MemweaveError PERMISSION_DENIED (an agent writing intent or constraints), INVALID_ARGUMENT
 * (schema or invariant, with file, pointer and rule), CONFLICT (an earlier progress entry edited or
 * removed, against the file and the ledger), STORAGE (the file system).
 */
export async function writeDocument(root: string, name: SmallDocName, data: object, options: DirWriteOptions = {}): Promise<DirWriteResult> {
  assertMayWrite(name, options.role ?? 'agent', options.role === 'human' ? 'this writer' : 'an agent')
  const path = join(root, SMALL_DIR, fileNameOf(name))
  const previous = await readText(root, path)
  const checked = validateDocument(name, data, { strict: options.strict })
  const errors = checked.findings.filter((f) => f.severity === 'error')
  if (errors.length > 0) throw findingsError(errors)
  if (name === 'progress') {
    const entries = (checked.data as { entries: unknown[] }).entries
    const onDisk = previous === null ? [] : progressEntries(previous)
    const ledger = (await readLedger(root)) ?? []
    const edits = dedupe([...checkAppendOnly(onDisk.map(entryDigest), entries), ...checkAppendOnly(ledger, entries)])
    if (edits.length > 0) throw findingsError(edits, ErrorCode.CONFLICT)
  }
  const text = patchYaml(previous, checked.data)
  const warnings = checked.findings.filter((f) => f.severity === 'warning')
  if (text === previous) return { changed: false, text, warnings }
  // Not through a linked .small/ or .small-cache/ (mkdir accepts a link to a directory as is).
  await assertNotLinkedDir(root, join(root, SMALL_DIR))
  await assertNotLinkedDir(root, join(root, SMALL_CACHE_DIR))
  try {
    await mkdir(join(root, SMALL_DIR), { recursive: true })
    await mkdir(join(root, SMALL_CACHE_DIR), { recursive: true })
    await atomicWrite(path, text, join(root, SMALL_CACHE_DIR))
    if (name === 'progress') await writeLedger(root, (checked.data as { entries: unknown[] }).entries)
  } catch (err) {
    throw systemError('write', path, err)
  }
  return { changed: true, text, warnings }
}

function progressEntries(text: string): unknown[] {
  const data = parseYaml(text).data as { entries?: unknown } | null | undefined
  return Array.isArray(data?.entries) ? data.entries : []
}

function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>()
  return findings.filter((f) => (seen.has(f.pointer) ? false : (seen.add(f.pointer), true)))
}

/** Reads a document's data for an update; refuses (INVALID_ARGUMENT) a document that is missing or does not parse. */
async function readData(root: string, name: SmallDocName): Promise<{ data: unknown; text: string } | null> {
  const text = await readText(root, join(root, SMALL_DIR, fileNameOf(name)))
  if (text === null) return null
  const parsed = parseYaml(text)
  if (parsed.errors.length > 0) {
    throw findingsError(parsed.errors.map((e) => ({ severity: 'error' as const, file: filePathOf(name), pointer: '', rule: SmallRule.YAML, message: `is not valid YAML: ${e.message}`, ...(e.line ? { line: e.line, column: e.column ?? 1 } : {}) })))
  }
  return { data: parsed.data, text }
}

export interface AppendOptions extends DirWriteOptions {
  /** Wall clock in ms (for the timestamp). */
  readonly now?: number
}

/** Appends one progress entry (timestamped, evidence checked) to `.small/progress.small.yml`. */
export async function appendProgressEntry(root: string, input: ProgressEntryInput, options: AppendOptions = {}): Promise<{ entry: ProgressEntry; warnings: readonly Finding[] }> {
  const current = await readData(root, 'progress')
  if (current === null) throw missing('progress')
  const doc = current.data as { entries?: unknown }
  const entries = Array.isArray(doc?.entries) ? doc.entries : []
  const runId = currentRunId({ workspace: (await readData(root, 'workspace'))?.data, handoff: (await readData(root, 'handoff'))?.data })
  const { entry, warnings } = prepareEntry(input, { entries, now: options.now ?? Date.now(), runId, strict: options.strict })
  const result = await writeDocument(root, 'progress', { ...(current.data as object), entries: [...entries, entry] }, { ...options, role: options.role ?? 'agent' })
  return { entry, warnings: [...warnings, ...result.warnings] }
}

function missing(name: SmallDocName): MemweaveError {
  return new MemweaveError(ErrorCode.INVALID_ARGUMENT, `${filePathOf(name)} is missing: run memweave small init first`, { field: name, file: filePathOf(name), pointer: '', rule: SmallRule.MISSING })
}

/** Regenerates `.small/handoff.small.yml` from plan and progress, with the run's replayId. */
export async function regenerateHandoff(root: string, options: HandoffOptions & DirWriteOptions = {}): Promise<{ handoff: HandoffDoc; changed: boolean }> {
  const dir = join(root, SMALL_DIR)
  const [intent, plan, constraints] = await Promise.all(
    (['intent', 'plan', 'constraints'] as const).map(async (n) => {
      const path = join(dir, fileNameOf(n))
      await assertInsideWorkspace(root, path)
      try {
        return new Uint8Array(await readFile(path))
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw systemError('read', path, err)
      }
    }),
  )
  if (!intent) throw missing('intent')
  if (!plan) throw missing('plan')
  const handoff = buildHandoff(
    {
      plan: (await readData(root, 'plan'))?.data,
      progress: (await readData(root, 'progress'))?.data,
      replay: { intent, plan, constraints },
      previous: (await readData(root, 'handoff'))?.data,
      workspace: (await readData(root, 'workspace'))?.data,
    },
    options,
  )
  const { changed } = await writeDocument(root, 'handoff', handoff, options)
  return { handoff, changed }
}

export interface InitOptions {
  readonly intent?: string
  readonly now?: number
}

/**
 * Creates `.small/` with a valid starting document for each file that does not exist yet (existing
 * files are never touched), then the handoff. The person running init scaffolds the human-owned
 * documents, so they are written with the human role.
 * @returns the files created.
 */
export async function initWorkspace(root: string, options: InitOptions = {}): Promise<string[]> {
  try {
    await mkdir(root, { recursive: true })
  } catch (err) {
    throw systemError('create', root, err)
  }
  await readWorkspace(root) // the root must be a readable directory
  const timestamp = nextTimestamp(options.now ?? Date.now(), null)
  const created: string[] = []
  const write = async (name: SmallDocName, data: () => object): Promise<void> => {
    if ((await readText(root, join(root, SMALL_DIR, fileNameOf(name)))) !== null) return
    await writeDocument(root, name, data(), { role: 'human' })
    created.push(filePathOf(name))
  }
  await write('intent', () => intentTemplate({ intent: options.intent, timestamp }))
  await write('constraints', () => constraintsTemplate())
  await write('plan', () => planTemplate())
  await write('progress', () => progressTemplate({ timestamp }))
  // The run starts here: its id is the replayId of the run-defining documents as they are now (§6).
  const [intent, plan, constraints] = await Promise.all((['intent', 'plan', 'constraints'] as const).map((n) => readText(root, join(root, SMALL_DIR, fileNameOf(n)))))
  const runId = intent && plan ? computeReplayId({ intent, plan, constraints }) : null
  await write('workspace', () => workspaceTemplate({ timestamp, runId }))
  if ((await readText(root, join(root, SMALL_DIR, fileNameOf('handoff')))) === null) {
    await regenerateHandoff(root, { summary: 'Workspace initialized. Read the intent and constraints, then plan the work.' })
    created.push(filePathOf('handoff'))
  }
  return created
}
