/**
 * The record kinds a backup carries, in the order an export writes them. Tombstones come first, so
 * an importer knows what is forgotten before it meets the forgotten (a hard-deleted memory must not
 * come back, and its bytes must not be stored again). Written out here rather than imported from
 * each module, so the worker's backup path does not pull every module's code in; a test checks
 * the list against the modules' own constants.
 */
export const TOMBSTONE_KINDS = ['tombstone', 'pool-tombstone'] as const

export const BACKUP_KINDS: ReadonlySet<string> = new Set([
  ...TOMBSTONE_KINDS,
  // facts
  'fact',
  // pools (LCS-004)
  'pool-create', 'pool-acl', 'pool-policy', 'pool-key', 'pool-memory', 'pool-resolve', 'pool-access', 'pool-rating',
  // sync checkpoints (owner-signed)
  'sync-checkpoint',
  // working memory (FR-001)
  'observation', 'attention', 'wm-access', 'wm-conflict', 'wm-resolve', 'wm-evict', 'wm-checkpoint',
  // SMALL
  'small-doc', 'small-progress',
  // SMP artifacts
  'artifact-version',
])

/** The ids a tombstone record forgets (facts: `body.target`; pools: `body.targets[].id`). */
export function forgottenBy(kind: string, body: unknown): string[] {
  const b = body as { target?: unknown; targets?: unknown } | null
  if (kind === 'tombstone') return typeof b?.target === 'string' ? [b.target] : []
  if (kind === 'pool-tombstone' && Array.isArray(b?.targets)) {
    return (b.targets as Array<{ id?: unknown }>).map((t) => t?.id).filter((id): id is string => typeof id === 'string')
  }
  return []
}
