import type { MemoryPayload } from './records.js'

const TYPES = new Set(['PREFERENCE', 'CONTEXT', 'KNOWLEDGE', 'PROCEDURE', 'RELATIONSHIP', 'TEMPORAL'])

// Every record of a pool is checked several times on its way in (decode, plan, derive): nothing here allocates.
function strings(v: unknown): boolean {
  if (!Array.isArray(v)) return false
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') return false
  return true
}

const isScalar = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'

/** Shape check of a payload read from storage or decrypted: a record that fails it is ignored, never trusted. */
export function isPayload(x: unknown): x is MemoryPayload {
  const p = x as MemoryPayload
  return (
    typeof p === 'object' && p !== null && TYPES.has(p.type) && typeof p.subject === 'string' && typeof p.predicate === 'string' &&
    isScalar(p.object) && (p.context === null || typeof p.context === 'string') &&
    typeof p.confidence === 'number' && typeof p.source === 'string' && strings(p.evidence) && typeof p.createdAt === 'number' &&
    (p.ttl === null || typeof p.ttl === 'number') && typeof p.permanent === 'boolean' &&
    (p.visibility === 'PUBLIC' || p.visibility === 'AUTHORIZED') && typeof p.ephemeral === 'boolean' &&
    typeof p.noTraining === 'boolean' && strings(p.supersedes) &&
    (p.merged === null || (typeof p.merged === 'object' && strings(p.merged.from)))
  )
}
