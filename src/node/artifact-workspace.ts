import { randomBytes } from 'node:crypto'
import { link, lstat, mkdir, open, readdir, readFile, realpath, rename, unlink } from 'node:fs/promises'
import { join, sep } from 'node:path'
import { ErrorCode, MemweaveError, invalidArgument, isMemweaveError } from '../core/errors.js'
import type { ArtifactFile } from '../artifacts/format.js'
import { assertCommitInput, assertCreateInput, assertListOptions, assertMergeInput, assertQuery, assertSearchOptions } from '../artifacts/input.js'
import { commitArtifactFile, createArtifactFile, formatTimestamp, frontmatterOf, mergeArtifactFiles, type Stamp } from '../artifacts/operations.js'
import { parseQuery, scoreArtifact } from '../artifacts/search.js'
import { parseArtifactSlug, SLUG_PATTERN, type ArtifactSlug } from '../artifacts/slug.js'
import type {
  ArtifactFrontmatter, ArtifactProblem, ArtifactSearchHit, ArtifactSummary, CommitArtifactInput, CreateArtifactInput,
  ListArtifactsOptions, MergeArtifactInput, ProvenanceEntry, SearchArtifactsOptions,
} from '../artifacts/types.js'
import { assertNoProblems, validateArtifactText } from '../artifacts/validate.js'
import { decodeUtf8 } from '../artifacts/utf8.js'

/**
 * SMP artifacts as files in an AWP workspace (SMP §3): `<dir>/artifacts/<slug>.md`, one current
 * version per file (earlier ones live in git, SMP §2.5). Node only. The operations are the store's
 * (operations.ts), so a file written here and one written by a store are the same bytes.
 *
 * Every path is confined to the workspace: a slug is checked against SMP's pattern (no `/`, no
 * `..`, nothing absolute), and a file or `artifacts/` directory that is a symbolic link resolving
 * outside the workspace is refused. Files are replaced atomically (temp file, then rename).
 */

export const ARTIFACTS_DIR = 'artifacts'

export interface ArtifactWorkspaceOptions {
  /** The workspace root. */
  readonly dir: string
  /** The acting agent's DID; default: `agent.did` of `.awp/workspace.json`, else `anonymous` (SMP §7). */
  readonly agent?: string
  /** Wall clock in ms (tests). */
  readonly now?: () => number
}

/** An artifact file of the workspace. */
export interface WorkspaceArtifact {
  readonly slug: ArtifactSlug
  /** Relative to the workspace: `artifacts/<slug>.md`. */
  readonly path: string
  readonly version: number
  readonly frontmatter: ArtifactFrontmatter
  readonly body: string
  readonly text: string
}

/** A file of `artifacts/` that is not a valid artifact. */
export interface SkippedFile {
  readonly path: string
  readonly problems: readonly ArtifactProblem[]
}

const errno = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code

function escape(what: string, slug: string): MemweaveError {
  return new MemweaveError(ErrorCode.PERMISSION_DENIED, `${what} leads outside the workspace; refused`, { field: 'slug', slug })
}

/** Reads `agent.did` from an AWP workspace manifest, as AWP's tools do. */
async function manifestAgent(root: string): Promise<string | null> {
  try {
    const manifest = JSON.parse(await readFile(join(root, '.awp', 'workspace.json'), 'utf8')) as { agent?: { did?: unknown } }
    return typeof manifest?.agent?.did === 'string' && manifest.agent.did !== '' ? manifest.agent.did : null
  } catch {
    return null
  }
}

export class ArtifactWorkspace {
  /** The workspace root, as given (resolved paths are checked on every access). */
  readonly dir: string
  readonly #agent: string | undefined
  readonly #now: () => number
  #resolvedAgent: string | undefined

  constructor(options: ArtifactWorkspaceOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '') throw invalidArgument('dir', 'must be a non-empty path')
    if (options.agent !== undefined && (typeof options.agent !== 'string' || options.agent.trim() === '')) throw invalidArgument('agent', 'must be a non-empty string')
    this.dir = options.dir
    this.#agent = options.agent
    this.#now = options.now ?? Date.now
  }

  /** The acting agent: the option, the workspace manifest's DID, or `anonymous`. */
  async agent(): Promise<string> {
    this.#resolvedAgent ??= this.#agent ?? (await manifestAgent(this.dir)) ?? 'anonymous'
    return this.#resolvedAgent
  }

  async #stamp(): Promise<Stamp> {
    return { agent: await this.agent(), timestamp: formatTimestamp(this.#now()) }
  }

  async #root(): Promise<string> {
    try {
      return await realpath(this.dir)
    } catch (err) {
      if (errno(err) === 'ENOENT') throw new MemweaveError(ErrorCode.NOT_FOUND, `workspace ${this.dir} does not exist`, { field: 'dir' }, { cause: err })
      throw err
    }
  }

  /** `<root>/artifacts`, real path, confined; created when `create` is set (SMP §3.3). */
  async #artifactsDir(slug: string, create: boolean): Promise<string> {
    const root = await this.#root()
    const dir = join(root, ARTIFACTS_DIR)
    if (create) await mkdir(dir, { recursive: true })
    let real: string
    try {
      real = await realpath(dir)
    } catch (err) {
      if (errno(err) === 'ENOENT') return dir
      throw err
    }
    if (!real.startsWith(root + sep)) throw escape(`${ARTIFACTS_DIR}/`, slug)
    return real
  }

  /**
   * The confined absolute path of `artifacts/<slug>.md`.
   * @throws MemweaveError INVALID_ARGUMENT for a slug that is not SMP's; PERMISSION_DENIED when the
   *   directory or the file is a symbolic link leading outside the workspace.
   */
  async path(slug: string, options: { create?: boolean } = {}): Promise<string> {
    const s = parseArtifactSlug(slug)
    const dir = await this.#artifactsDir(s, options.create ?? false)
    const file = join(dir, `${s}.md`)
    let stat
    try {
      stat = await lstat(file)
    } catch (err) {
      if (errno(err) === 'ENOENT') return file
      throw err
    }
    if (stat.isSymbolicLink()) {
      let target: string
      try {
        target = await realpath(file)
      } catch {
        throw escape(`${ARTIFACTS_DIR}/${s}.md (a dangling symbolic link)`, s)
      }
      if (!target.startsWith(dir + sep)) throw escape(`${ARTIFACTS_DIR}/${s}.md`, s)
    }
    return file
  }

  async #load(slug: ArtifactSlug): Promise<{ path: string; file: ArtifactFile }> {
    const path = await this.path(slug)
    let bytes: Uint8Array
    try {
      bytes = await readFile(path)
    } catch (err) {
      if (errno(err) === 'ENOENT') throw new MemweaveError(ErrorCode.NOT_FOUND, `artifact:${slug} does not exist (no ${ARTIFACTS_DIR}/${slug}.md)`, { field: 'slug', slug })
      throw err
    }
    const text = decodeUtf8(bytes, `${ARTIFACTS_DIR}/${slug}.md`)
    const checked = validateArtifactText(text, { slug })
    if (!checked.valid) {
      const p = checked.problems[0]!
      throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, `${ARTIFACTS_DIR}/${slug}.md: ${p.field}: ${p.message}`, { field: p.field, problems: checked.problems, slug })
    }
    return { path, file: checked.file! }
  }

  #view(slug: ArtifactSlug, file: ArtifactFile): WorkspaceArtifact {
    const fm = frontmatterOf(file)
    return { slug, path: `${ARTIFACTS_DIR}/${slug}.md`, version: fm.version, frontmatter: structuredClone(fm), body: file.body, text: file.text }
  }

  /** Writes a file atomically; `expected` is the text it must still have (a concurrent edit is a CONFLICT), null when it must not exist. */
  async #write(path: string, slug: ArtifactSlug, text: string, expected: string | null): Promise<void> {
    const tmp = join(path, '..', `.${slug}.md.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
    const file = await open(tmp, 'wx', 0o644)
    try {
      await file.writeFile(text, 'utf8')
      await file.sync()
    } finally {
      await file.close()
    }
    try {
      if (expected === null) {
        // link() fails if the name exists: an exclusive, atomic create.
        await link(tmp, path).catch((err: unknown) => {
          if (errno(err) === 'EEXIST') throw new MemweaveError(ErrorCode.CONFLICT, `artifact:${slug} already exists`, { field: 'slug', slug })
          throw err
        })
      } else {
        // Strict: bytes that are not UTF-8 must not compare equal to text that has U+FFFD.
        const now = await readFile(path).then((b) => decodeUtf8(b, 'file')).catch(() => null)
        if (now !== expected) throw new MemweaveError(ErrorCode.CONFLICT, `${ARTIFACTS_DIR}/${slug}.md changed while this write was being prepared; try again`, { field: 'slug', slug })
        await rename(tmp, path)
      }
    } finally {
      await unlink(tmp).catch(() => undefined)
    }
  }

  // ---- SMP operations (§4) ---------------------------------------------------------------------

  async read(slug: string): Promise<WorkspaceArtifact> {
    const s = parseArtifactSlug(slug)
    return this.#view(s, (await this.#load(s)).file)
  }

  async create(slug: string, input: CreateArtifactInput = {}): Promise<WorkspaceArtifact> {
    const s = parseArtifactSlug(slug)
    const i = assertCreateInput(input)
    const path = await this.path(s, { create: true })
    const file = createArtifactFile(s, i, await this.#stamp())
    await this.#write(path, s, file.text, null)
    return this.#view(s, file)
  }

  async commit(slug: string, input: CommitArtifactInput): Promise<WorkspaceArtifact> {
    const s = parseArtifactSlug(slug)
    const i = assertCommitInput(input)
    if (i.basedOn !== undefined) throw invalidArgument('basedOn', 'a workspace file has one version: there is nothing to base a commit on')
    const { path, file } = await this.#load(s)
    const version = frontmatterOf(file).version
    if (i.expectedVersion !== undefined && i.expectedVersion !== version) {
      throw new MemweaveError(ErrorCode.CONFLICT, `artifact:${s} is at version ${version}, not the expected version ${i.expectedVersion}`, {
        field: 'expectedVersion', slug: s, expected: i.expectedVersion, actual: [version],
      })
    }
    const next = commitArtifactFile(file, s, i, await this.#stamp())
    await this.#write(path, s, next.text, file.text)
    return this.#view(s, next)
  }

  async merge(target: string, source: string, input: MergeArtifactInput = {}): Promise<WorkspaceArtifact> {
    const t = parseArtifactSlug(target, 'target')
    const src = parseArtifactSlug(source, 'source')
    const i = assertMergeInput(input)
    if (t === src) throw invalidArgument('source', 'an artifact cannot be merged into itself')
    const [tl, sl] = await Promise.all([this.#load(t).catch(relabel('target')), this.#load(src).catch(relabel('source'))])
    const version = frontmatterOf(tl.file).version
    if (i.expectedVersion !== undefined && i.expectedVersion !== version) {
      throw new MemweaveError(ErrorCode.CONFLICT, `artifact:${t} is at version ${version}, not the expected version ${i.expectedVersion}`, {
        field: 'expectedVersion', slug: t, expected: i.expectedVersion, actual: [version],
      })
    }
    const next = mergeArtifactFiles(tl.file, t, [{ file: sl.file, appendBody: true }], { message: i.message, confidence: i.confidence }, await this.#stamp())
    await this.#write(tl.path, t, next.text, tl.file.text)
    return this.#view(t, next)
  }

  async log(slug: string): Promise<ProvenanceEntry[]> {
    return [...(await this.read(slug)).frontmatter.provenance]
  }

  /** The `*.md` files of `artifacts/`, by slug (file name); none when the directory does not exist. */
  async files(): Promise<Array<{ slug: string; path: string }>> {
    const dir = await this.#artifactsDir('', false)
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (err) {
      if (errno(err) === 'ENOENT') return []
      throw err
    }
    return names.filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort().map((n) => ({ slug: n.slice(0, -3), path: `${ARTIFACTS_DIR}/${n}` }))
  }

  /** Every valid artifact, and the files that are not (SMP §4.4 lists artifacts; a broken file is reported, not hidden). */
  async scan(): Promise<{ artifacts: WorkspaceArtifact[]; skipped: SkippedFile[] }> {
    const artifacts: WorkspaceArtifact[] = []
    const skipped: SkippedFile[] = []
    for (const { slug, path } of await this.files()) {
      if (!SLUG_PATTERN.test(slug)) {
        skipped.push({ path, problems: [{ field: 'id', message: `the file name "${slug}.md" is not <slug>.md with a valid slug (SMP §3.2)` }] })
        continue
      }
      try {
        artifacts.push(await this.read(slug))
      } catch (err) {
        if (!isMemweaveError(err) || (err.code !== ErrorCode.INVALID_ARGUMENT && err.code !== ErrorCode.PERMISSION_DENIED)) throw err
        const problems = (err.details['problems'] as ArtifactProblem[] | undefined) ?? [{ field: String(err.details.field ?? 'file'), message: err.message }]
        skipped.push({ path, problems })
      }
    }
    return { artifacts, skipped }
  }

  async list(options: ListArtifactsOptions = {}): Promise<{ artifacts: ArtifactSummary[]; skipped: SkippedFile[] }> {
    const tag = assertListOptions(options).tag?.toLowerCase()
    const { artifacts, skipped } = await this.scan()
    const out = artifacts.map(summary).filter((a) => tag === undefined || a.tags.some((t) => t.toLowerCase() === tag))
    return { artifacts: out, skipped }
  }

  async search(query: string, options: SearchArtifactsOptions = {}): Promise<{ results: ArtifactSearchHit[]; skipped: SkippedFile[] }> {
    const q = parseQuery(assertQuery(query))
    const o = assertSearchOptions(options)
    const { artifacts, skipped } = await this.scan()
    const results: ArtifactSearchHit[] = []
    for (const a of artifacts) {
      const scored = scoreArtifact(q, a.frontmatter, a.body)
      if (scored) results.push({ ...summary(a), ...scored })
    }
    results.sort((a, b) => b.score - a.score || (b.confidence ?? -1) - (a.confidence ?? -1) || (a.slug < b.slug ? -1 : 1))
    return { results: o.limit === undefined ? results : results.slice(0, o.limit), skipped }
  }

  /**
   * Writes an artifact file exactly (export from a store). `expected` is the text the file must
   * still have, `null` when it must not exist yet.
   */
  async writeText(slug: string, text: string, expected: string | null): Promise<void> {
    const s = parseArtifactSlug(slug)
    assertNoProblems(validateArtifactText(text, { slug: s }).problems)
    await this.#write(await this.path(s, { create: true }), s, text, expected)
  }

  /** The file's text, or null when there is none. */
  async readText(slug: string): Promise<string | null> {
    const path = await this.path(slug)
    const bytes = await readFile(path).catch((err: unknown) => (errno(err) === 'ENOENT' ? null : Promise.reject(err)))
    return bytes === null ? null : decodeUtf8(bytes, `${ARTIFACTS_DIR}/${parseArtifactSlug(slug)}.md`)
  }
}

function summary(a: WorkspaceArtifact): ArtifactSummary {
  const fm = a.frontmatter
  return {
    slug: a.slug, id: fm.id, title: fm.title, version: fm.version, confidence: fm.confidence ?? null, tags: [...(fm.tags ?? [])],
    authors: [...fm.authors], lastModified: fm.lastModified ?? null, conflicted: false, pool: null,
  }
}

function relabel(field: 'target' | 'source'): (err: unknown) => never {
  return (err) => {
    if (isMemweaveError(err) && err.code === ErrorCode.NOT_FOUND) throw new MemweaveError(err.code, err.message, { ...err.details, field })
    throw err
  }
}
