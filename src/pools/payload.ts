import type { MemoryPayload } from './records.js'

const TYPES = new Set(['PREFERENCE', 'CONTEXT', 'KNOWLEDGE', 'PROCEDURE', 'RELATIONSHIP', 'TEMPORAL'])

/** Shape check of a payload read from storage or decrypted: a record that fails it is ignored, never trusted. */
export function isPayload(x: unknown): x is MemoryPayload {
  const p = x as MemoryPayload
  const strings = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string')
  return (
    typeof p === 'object' && p !== null && TYPES.has(p.type) && typeof p.subject === 'string' && typeof p.predicate === 'string' &&
    ['string', 'number', 'boolean'].includes(typeof p.object) && (p.context === null || typeof p.context === 'string') &&
    typeof p.confidence === 'number' && typeof p.source === 'string' && strings(p.evidence) && typeof p.createdAt === 'number' &&
    (p.ttl === null || typeof p.ttl === 'number') && typeof p.permanent === 'boolean' &&
    (p.visibility === 'PUBLIC' || p.visibility === 'AUTHORIZED') && typeof p.ephemeral === 'boolean' &&
    typeof p.noTraining === 'boolean' && strings(p.supersedes) &&
    (p.merged === null || (typeof p.merged === 'object' && strings(p.merged.from)))
  )
}
