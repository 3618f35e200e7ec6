import { invalidArgument } from '../core/errors.js'

/** An artifact's slug (SMP §2.4): `^[a-z0-9][a-z0-9-]*$`; it doubles as the file name `artifacts/<slug>.md`. */
export type ArtifactSlug = string & { readonly __brand: 'ArtifactSlug' }

/** SMP §2.4. The pattern alone keeps a slug inside `artifacts/`: no `/`, no `.`, no `..`. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/

/**
 * The longest slug memweave accepts. SMP sets no bound; this one keeps `artifacts/<slug>.md`
 * within the 255-byte file-name limit of common file systems.
 */
export const MAX_SLUG_LENGTH = 200

const ID_PREFIX = 'artifact:'

/**
 * Checks and brands a slug. The id form `artifact:<slug>` is accepted too, so callers may pass
 * either an artifact's slug or its `id`.
 *
 * @throws MemweaveError INVALID_ARGUMENT (`details.field` is `field`) when it is not a valid slug.
 * @example
 * parseArtifactSlug('llm-context-research') // 'llm-context-research'
 * parseArtifactSlug('artifact:api-design')  // 'api-design'
 */
export function parseArtifactSlug(value: unknown, field = 'slug'): ArtifactSlug {
  if (typeof value !== 'string') throw invalidArgument(field, 'must be a string')
  const slug = value.startsWith(ID_PREFIX) ? value.slice(ID_PREFIX.length) : value
  if (slug.length > MAX_SLUG_LENGTH) throw invalidArgument(field, `must be at most ${MAX_SLUG_LENGTH} characters`)
  if (!SLUG_PATTERN.test(slug)) {
    throw invalidArgument(field, `${JSON.stringify(value)} is not a valid slug: lowercase letters, digits and "-", starting with a letter or digit`)
  }
  return slug as ArtifactSlug
}

/** `artifact:<slug>`. */
export function idFromSlug(slug: ArtifactSlug): string {
  return `${ID_PREFIX}${slug}`
}

/** The slug of an `artifact:<slug>` id, or null when the id is not of that form. */
export function slugFromId(id: unknown): ArtifactSlug | null {
  if (typeof id !== 'string' || !id.startsWith(ID_PREFIX)) return null
  const slug = id.slice(ID_PREFIX.length)
  return SLUG_PATTERN.test(slug) && slug.length <= MAX_SLUG_LENGTH ? (slug as ArtifactSlug) : null
}
