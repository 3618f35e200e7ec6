/**
 * SMALL.md invariant 2: every progress entry carries at least one evidence field, so a claim of
 * progress can be checked. `notes` is commentary, not evidence: an entry with only notes fails.
 */
export const EVIDENCE_FIELDS = ['evidence', 'verification', 'command', 'test', 'link', 'commit'] as const
export type EvidenceField = (typeof EVIDENCE_FIELDS)[number]

/** The evidence fields of an entry that actually say something (a non-blank string or a non-empty object). */
export function evidenceOf(entry: unknown): EvidenceField[] {
  if (typeof entry !== 'object' || entry === null) return []
  const e = entry as Record<string, unknown>
  return EVIDENCE_FIELDS.filter((f) => isSubstantial(e[f]))
}

export function hasEvidence(entry: unknown): boolean {
  return evidenceOf(entry).length > 0
}

function isSubstantial(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== ''
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.keys(value).length > 0
  return false
}

/** The finding text for an entry without evidence. */
export function missingEvidenceMessage(entry: unknown): string {
  const notes = typeof entry === 'object' && entry !== null && typeof (entry as Record<string, unknown>)['notes'] === 'string'
  return (
    `progress entry has no evidence: add at least one of ${EVIDENCE_FIELDS.join(', ')}` +
    (notes ? ' (notes alone are not evidence)' : '')
  )
}
