import { invalidArgument } from '../core/errors.js'
import { editArtifact } from './edit.js'
import { stringifyArtifact, type ArtifactFile } from './format.js'
import { idFromSlug, type ArtifactSlug } from './slug.js'
import type { ArtifactFrontmatter, CommitArtifactInput, CreateArtifactInput, ProvenanceEntry } from './types.js'
import { assertNoProblems, validateFrontmatter, validateSuccessor } from './validate.js'

/**
 * The SMP operations as pure functions from files to a new file (SMP §4): the store and the
 * workspace on disk share them, so both write byte-identical artifacts. Each result is validated
 * (schema, rules, and against the version it continues) before it is returned.
 */

/** The AWP version memweave writes into new artifacts: the one AWP's tool writes today (shared fixtures). */
export const AWP_VERSION = '0.4.0'
export const SMP_VERSION = '1.0'

/** Who acts and when; `agent` is a DID, or `anonymous` (SMP §7). */
export interface Stamp {
  readonly agent: string
  /** ISO 8601 (see formatTimestamp). */
  readonly timestamp: string
}

/**
 * ISO 8601 UTC, with milliseconds only when there are some: `2026-02-01T09:00:00Z`,
 * `2026-05-12T16:54:56.947Z`. Both forms appear in SMP's examples and AWP's files.
 */
export function formatTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString()
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso
}

/** A file's frontmatter once it has passed validation. */
export function frontmatterOf(file: ArtifactFile): ArtifactFrontmatter {
  return file.frontmatter as unknown as ArtifactFrontmatter
}

function entry(fields: Record<string, unknown>): ProvenanceEntry {
  // Key order as SMP §2.6 lists them; absent values are left out, never written as null.
  const out: Record<string, unknown> = {}
  for (const key of ['agent', 'action', 'timestamp', 'message', 'confidence']) if (fields[key] !== undefined) out[key] = fields[key]
  return out as ProvenanceEntry
}

function checked(file: ArtifactFile, slug: string, parent?: ArtifactFile): ArtifactFile {
  const problems = validateFrontmatter(file.frontmatter, { slug })
  if (parent && problems.length === 0) problems.push(...validateSuccessor(frontmatterOf(parent), frontmatterOf(file)))
  assertNoProblems(problems)
  return file
}

/** AWP's default title: the slug in title case. */
export function titleFromSlug(slug: string): string {
  return slug.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ')
}

/** SMP §4.1: version 1, `created` and `lastModified` now, one `created` provenance entry, the agent as author. */
export function createArtifactFile(slug: ArtifactSlug, input: CreateArtifactInput, stamp: Stamp, awpVersion = AWP_VERSION): ArtifactFile {
  const { agent, timestamp } = stamp
  const fm: Record<string, unknown> = {
    awp: awpVersion,
    smp: SMP_VERSION,
    type: 'knowledge-artifact',
    id: idFromSlug(slug),
    title: input.title ?? titleFromSlug(slug),
    authors: [agent],
    version: 1,
    confidence: input.confidence,
    tags: input.tags && input.tags.length > 0 ? [...input.tags] : undefined,
    created: timestamp,
    lastModified: timestamp,
    modifiedBy: agent,
    provenance: [entry({ agent, action: 'created', timestamp, message: input.message, confidence: input.confidence })],
  }
  for (const key of Object.keys(fm)) if (fm[key] === undefined) delete fm[key]
  return checked(stringifyArtifact(fm, input.body ?? ''), slug)
}

/** SMP §4.2: version + 1, `lastModified`/`modifiedBy`, an `updated` entry, the agent added to the authors. */
export function commitArtifactFile(parent: ArtifactFile, slug: ArtifactSlug, input: Omit<CommitArtifactInput, 'expectedVersion' | 'basedOn'>, stamp: Stamp): ArtifactFile {
  const fm = frontmatterOf(parent)
  const { agent, timestamp } = stamp
  const next = editArtifact(parent, input.body ?? parent.body, (e) => {
    if (input.title !== undefined) e.set('title', input.title)
    if (!fm.authors.includes(agent)) e.append('authors', agent)
    e.set('version', fm.version + 1)
    if (input.confidence !== undefined) e.set('confidence', input.confidence)
    if (input.tags !== undefined) e.set('tags', [...input.tags])
    e.set('lastModified', timestamp)
    e.set('modifiedBy', agent)
    e.append('provenance', entry({ agent, action: 'updated', timestamp, message: input.message, confidence: input.confidence }))
  })
  return checked(next, slug, parent)
}

/** What is merged into a target: another artifact (SMP §4.6), or another head of a forked target. */
export interface MergePart {
  readonly file: ArtifactFile
  /** False for a fork head whose body the target already has: only its metadata is merged. */
  readonly appendBody: boolean
}

export interface MergeOptions {
  readonly message?: string
  readonly confidence?: number
  /** The merged version number; default the target's + 1 (a fork's merge passes its highest head + 1). */
  readonly version?: number
}

/**
 * SMP §4.6, additive merge: each part's body is appended under the separator
 * `---` / `*Merged from artifact:<slug> (version N) on <timestamp>*`; authors and tags are unioned
 * without duplicates (the merging agent joins the authors); confidence is the minimum of all
 * (unless the merging agent states one); version + 1; one `merged` provenance entry. The parts
 * themselves are not changed. The byte layout is AWP's own (shared/specs/smp/fixtures/repo-artifacts/mcp-coverage-findings.md).
 */
export function mergeArtifactFiles(target: ArtifactFile, slug: ArtifactSlug, parts: readonly MergePart[], options: MergeOptions, stamp: Stamp): ArtifactFile {
  if (parts.length === 0) throw invalidArgument('source', 'there is nothing to merge')
  const tfm = frontmatterOf(target)
  const { agent, timestamp } = stamp
  let body = target.body
  const authors = [...tfm.authors]
  const tags = [...(tfm.tags ?? [])]
  const confidences = tfm.confidence === undefined ? [] : [tfm.confidence]
  for (const { file, appendBody } of parts) {
    const sfm = frontmatterOf(file)
    if (appendBody) body += `\n---\n*Merged from ${sfm.id} (version ${sfm.version}) on ${timestamp}*\n\n${file.body.trim()}\n`
    for (const a of sfm.authors) if (!authors.includes(a)) authors.push(a)
    for (const t of sfm.tags ?? []) if (!tags.includes(t)) tags.push(t)
    if (sfm.confidence !== undefined) confidences.push(sfm.confidence)
  }
  if (!authors.includes(agent)) authors.push(agent)
  const confidence = options.confidence ?? (confidences.length > 0 ? Math.min(...confidences) : undefined)
  const message = options.message ?? `Merged from ${parts.map((p) => `${frontmatterOf(p.file).id} (version ${frontmatterOf(p.file).version})`).join(', ')}`
  const next = editArtifact(target, body, (e) => {
    // New authors and tags are appended, so the target's own entries keep their bytes.
    for (const a of authors.slice(tfm.authors.length)) e.append('authors', a)
    e.set('version', options.version ?? tfm.version + 1)
    if (confidence !== undefined) e.set('confidence', confidence)
    for (const t of tags.slice(tfm.tags?.length ?? 0)) e.append('tags', t)
    e.set('lastModified', timestamp)
    e.set('modifiedBy', agent)
    e.append('provenance', entry({ agent, action: 'merged', timestamp, message, confidence }))
  })
  return checked(next, slug, target)
}
