import { setOf } from '../core/set-map.js'
import type { StoredRecord } from '../storage/schema.js'
import { parseArtifactSlug } from './slug.js'
import type { ArtifactVersionId } from './types.js'

/** The record kind of one artifact version (DESIGN.md "Records"). */
export const ARTIFACT_VERSION_KIND = 'artifact-version'

/** An `artifact-version` record's body: the whole file, plus what the materializer needs without parsing it. */
export interface ArtifactVersionBody {
  readonly slug: string
  readonly version: number
  /** Version ids this one continues: none for a root, one for a commit, every head for a fork's merge. */
  readonly parents: readonly string[]
  /** The artifact file, byte for byte. */
  readonly text: string
}

export interface VersionMeta {
  readonly id: ArtifactVersionId
  readonly slug: string
  readonly version: number
  readonly parents: readonly ArtifactVersionId[]
  readonly hlc: string
  readonly author: string | null
  /** The pool the version was shared through (its versions replicate there), or null. */
  readonly pool: string | null
}

export function isArtifactVersionBody(b: unknown): b is ArtifactVersionBody {
  return artifactVersionProblem(b) === null
}

const VERSION_ID = /^[0-9a-f]{32}$/

/**
 * Why a version body read from another replica is not one this module writes, or null when it is:
 * exactly its fields, the slug as the API takes it (`parseArtifactSlug`, SMP §2.4), a positive
 * version, parents that are version (record) ids. The text is any string, as the API's is.
 */
export function artifactVersionProblem(b: unknown): string | null {
  const o = b as Partial<ArtifactVersionBody> | null
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return 'body: must be an object'
  let n = 0
  for (const k in o) if (Object.hasOwn(o, k)) n++
  if (n !== 4 || !('slug' in o && 'version' in o && 'parents' in o && 'text' in o)) return 'body: must hold exactly slug, version, parents and text'
  try {
    if (parseArtifactSlug(o.slug, 'body.slug') !== o.slug) return 'body.slug: must be a bare slug'
  } catch (err) {
    return err instanceof Error ? err.message : String(err)
  }
  if (!Number.isSafeInteger(o.version) || o.version! < 1) return 'body.version: must be a positive integer'
  if (!Array.isArray(o.parents) || !o.parents.every((p) => typeof p === 'string' && VERSION_ID.test(p))) return 'body.parents: must be an array of version ids'
  if (typeof o.text !== 'string') return 'body.text: must be a string'
  return null
}

/**
 * Winner first: the highest version, then the latest write (hybrid logical clock), then the
 * greater id. Every replica with the same records picks the same winner.
 */
export function compareHeads(a: VersionMeta, b: VersionMeta): number {
  return b.version - a.version || (a.hlc < b.hlc ? 1 : a.hlc > b.hlc ? -1 : 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
}

/**
 * The materialized state of the artifacts: a pure function of the set of version records,
 * maintained incrementally and independent of arrival order. A version is a head while no other
 * version names it as a parent; an artifact with two or more heads has forked (two commits on one
 * parent, two creations of one slug on two replicas) and is flagged, never silently resolved.
 * Texts are kept for heads only; earlier versions are read from storage when asked for.
 */
export class ArtifactState {
  readonly versions = new Map<string, VersionMeta>()
  readonly #bySlug = new Map<string, Set<string>>()
  /** Parent id -> ids naming it, including parents that have not arrived yet. */
  readonly #children = new Map<string, Set<string>>()
  readonly #heads = new Map<string, Set<string>>()
  readonly #texts = new Map<string, string>()

  clear(): void {
    this.versions.clear()
    this.#bySlug.clear()
    this.#children.clear()
    this.#heads.clear()
    this.#texts.clear()
  }

  /** Applies one record; idempotent; other kinds and malformed bodies are ignored. */
  apply(record: StoredRecord): void {
    if (record.kind !== ARTIFACT_VERSION_KIND || this.versions.has(record.id) || !isArtifactVersionBody(record.body)) return
    const body = record.body
    const v: VersionMeta = {
      id: record.id as ArtifactVersionId,
      slug: body.slug,
      version: body.version,
      parents: [...body.parents] as ArtifactVersionId[],
      hlc: record.hlc,
      author: record.author,
      pool: record.pool ?? null,
    }
    this.versions.set(v.id, v)
    setOf(this.#bySlug, v.slug).add(v.id)
    for (const p of v.parents) {
      setOf(this.#children, p).add(v.id)
      this.#heads.get(v.slug)?.delete(p)
      this.#texts.delete(p)
    }
    if (!this.#children.get(v.id)?.size) {
      setOf(this.#heads, v.slug).add(v.id)
      this.#texts.set(v.id, body.text)
    }
  }

  /**
   * Forgets a version whose record left storage (a pooled version the sync layer evicted or a
   * tombstone forgot), leaving the state a replica holding the other records derives: a parent no
   * other version names is a head again (its text is read from storage when asked for).
   * Returns whether the version was known.
   */
  remove(id: string): boolean {
    const v = this.versions.get(id)
    if (!v) return false
    this.versions.delete(id)
    this.#texts.delete(id)
    this.#heads.get(v.slug)?.delete(id)
    const versions = this.#bySlug.get(v.slug)!
    versions.delete(id)
    if (versions.size === 0) this.#bySlug.delete(v.slug)
    for (const p of v.parents) {
      const children = this.#children.get(p)
      children?.delete(id)
      if (!children || children.size > 0) continue
      this.#children.delete(p)
      const parent = this.versions.get(p)
      if (parent) setOf(this.#heads, parent.slug).add(p)
    }
    if (this.#heads.get(v.slug)?.size === 0) this.#heads.delete(v.slug)
    return true
  }

  has(slug: string): boolean {
    return (this.#bySlug.get(slug)?.size ?? 0) > 0
  }

  slugs(): string[] {
    return [...this.#bySlug.keys()].filter((s) => this.has(s)).sort()
  }

  /** Current heads of an artifact, winner first. */
  heads(slug: string): VersionMeta[] {
    return [...(this.#heads.get(slug) ?? [])].map((id) => this.versions.get(id)!).sort(compareHeads)
  }

  isHead(id: string): boolean {
    const v = this.versions.get(id)
    return !!v && !!this.#heads.get(v.slug)?.has(id)
  }

  /** All versions of an artifact, oldest first. */
  all(slug: string): VersionMeta[] {
    return [...(this.#bySlug.get(slug) ?? [])].map((id) => this.versions.get(id)!).sort((a, b) => -compareHeads(a, b))
  }

  /** The text of a head (others live in storage only). */
  text(id: string): string | undefined {
    return this.#texts.get(id)
  }

  /** Whether `ancestor` is `id` or lies on one of its parent chains. */
  isAncestor(ancestor: string, id: string): boolean {
    const stack = [id]
    const seen = new Set<string>()
    while (stack.length > 0) {
      const cur = stack.pop()!
      if (cur === ancestor) return true
      if (seen.has(cur)) continue
      seen.add(cur)
      stack.push(...(this.versions.get(cur)?.parents ?? []))
    }
    return false
  }
}
