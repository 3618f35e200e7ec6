import { ErrorCode, isMemweaveError } from '../core/errors.js'
import { SLUG_PATTERN } from '../artifacts/slug.js'
import type { ArtifactImportResult, ArtifactProblem, ArtifactStore } from '../artifacts/types.js'
import { validateArtifactText } from '../artifacts/validate.js'
import type { ArtifactWorkspace } from './artifact-workspace.js'

/**
 * Moving a workspace's artifact files into a store and back (Node only). A store version keeps the
 * file's exact bytes, so a file that goes in and comes out is byte-identical.
 */

export interface TransferProblem {
  readonly path: string
  readonly code: string
  readonly problems: readonly ArtifactProblem[]
}

export interface ImportReport {
  readonly imported: ReadonlyArray<ArtifactImportResult & { readonly path: string }>
  /** Invalid files (then nothing was imported) or conflicts with what the store holds. */
  readonly failed: readonly TransferProblem[]
}

/**
 * Imports every `artifacts/*.md` of the workspace. All files are validated first: when any is
 * invalid, nothing is imported. A file older than, or unrelated to, the stored artifact is
 * reported as a conflict; the others are still imported.
 */
export async function importWorkspace(workspace: ArtifactWorkspace, store: ArtifactStore): Promise<ImportReport> {
  const files: Array<{ slug: string; path: string; text: string }> = []
  const invalid: TransferProblem[] = []
  for (const { slug, path } of await workspace.files()) {
    if (!SLUG_PATTERN.test(slug)) {
      invalid.push({ path, code: ErrorCode.INVALID_ARGUMENT, problems: [{ field: 'id', message: `"${slug}.md" is not <slug>.md with a valid slug (SMP §3.2)` }] })
      continue
    }
    const text = await workspace.readText(slug)
    if (text === null) continue
    const checked = validateArtifactText(text, { slug })
    if (checked.valid) files.push({ slug, path, text })
    else invalid.push({ path, code: ErrorCode.INVALID_ARGUMENT, problems: checked.problems })
  }
  if (invalid.length > 0) return { imported: [], failed: invalid }
  const imported: Array<ArtifactImportResult & { path: string }> = []
  const failed: TransferProblem[] = []
  for (const f of files) {
    try {
      imported.push({ ...(await store.import(f.text, { slug: f.slug })), path: f.path })
    } catch (err) {
      if (!isMemweaveError(err) || err.code !== ErrorCode.CONFLICT) throw err
      const field = String(err.details.field ?? 'version')
      failed.push({ path: f.path, code: err.code, problems: [{ field, message: err.message.replace(`${field}: `, '') }] })
    }
  }
  return { imported, failed }
}

export interface ExportReport {
  readonly exported: ReadonlyArray<{ readonly slug: string; readonly path: string; readonly version: number; readonly status: 'created' | 'updated' | 'unchanged' }>
  /** Forked artifacts (merge them first) and files with edits the store does not have (import them first, or force). */
  readonly failed: readonly TransferProblem[]
}

/**
 * Writes the current head of every stored artifact to `artifacts/<slug>.md`, byte for byte. A file
 * is replaced only when it holds a version the store knows (so no edit is lost), unless `force`.
 */
export async function exportWorkspace(store: ArtifactStore, workspace: ArtifactWorkspace, options: { force?: boolean } = {}): Promise<ExportReport> {
  const exported: Array<ExportReport['exported'][number]> = []
  const failed: TransferProblem[] = []
  for (const summary of await store.list()) {
    const path = `artifacts/${summary.slug}.md`
    const head = await store.read(summary.slug)
    if (head.conflicted) {
      failed.push({ path, code: ErrorCode.CONFLICT, problems: [{ field: 'version', message: `artifact:${summary.slug} has forked (${head.heads.length} heads); merge it first` }] })
      continue
    }
    const existing = await workspace.readText(summary.slug)
    if (existing === head.text) {
      exported.push({ slug: summary.slug, path, version: head.version, status: 'unchanged' })
      continue
    }
    if (existing !== null && !options.force && !(await knows(store, summary.slug, existing))) {
      failed.push({ path, code: ErrorCode.CONFLICT, problems: [{ field: 'version', message: `${path} has changes the store does not have; import it first (or export with force)` }] })
      continue
    }
    try {
      await workspace.writeText(summary.slug, head.text, existing)
    } catch (err) {
      if (!isMemweaveError(err) || err.code !== ErrorCode.CONFLICT) throw err
      failed.push({ path, code: err.code, problems: [{ field: 'version', message: err.message }] })
      continue
    }
    exported.push({ slug: summary.slug, path, version: head.version, status: existing === null ? 'created' : 'updated' })
  }
  return { exported, failed }
}

/** Whether `text` is, byte for byte, one of the stored versions of the artifact. */
async function knows(store: ArtifactStore, slug: string, text: string): Promise<boolean> {
  for (const v of await store.history(slug)) if ((await store.read(slug, { version: v.versionId })).text === text) return true
  return false
}
