import { recordId } from '../core/ids.js'
import type { LiveMemory, Structure } from './structure.js'
import type { MemoryId, PoolConflict } from './types.js'

/**
 * Conflicts between current memories of a pool, flagged and never settled silently:
 * - `contradiction`: same subject, predicate and context, objects that are not near-duplicates,
 *   and a predicate not declared multi-valued;
 * - `competing-update`: two current memories that both replace the same one (concurrent updates or
 *   merges on two replicas).
 * LCS-004 §6's `resolve_conflict` becomes a suggestion attached to each pair, in the spec's order:
 * 1. recency: written more than `conflictRecency` seconds apart -> the newer one;
 * 2. confidence: one more than 1.5 times as confident as the other -> that one;
 * 3. source authority: exactly one has a source in `trustedSources` -> that one (the spec tests
 *    only its first argument; memweave checks both so the answer does not depend on argument order);
 * 4. otherwise: merge the two (a composite, strategy `average`).
 * Nothing changes until an agent or a person calls `resolve()`. Which pairs to compare is
 * current-index.ts (by slot and by predecessor, kept as memories come and go).
 */
/** The conflict of `kind` between two current memories of a pool, with its suggestion. */
export function conflictOf(kind: PoolConflict['kind'], a: LiveMemory, b: LiveMemory, s: Structure): PoolConflict {
  const [x, y] = a.id < b.id ? [a, b] : [b, a]
  return {
    id: recordId({ kind: 'pool-conflict', pool: s.id, memories: [x.id, y.id] }),
    pool: s.id,
    kind,
    memories: [x.id as MemoryId, y.id as MemoryId],
    subject: x.payload.subject,
    predicate: x.payload.predicate,
    context: x.payload.context,
    suggestion: suggest(x, y, s),
  }
}

function suggest(a: LiveMemory, b: LiveMemory, s: Structure): PoolConflict['suggestion'] {
  const { policies } = s
  const pa = a.payload, pb = b.payload
  const apart = Math.abs(pa.createdAt - pb.createdAt) / 1000
  if (apart > policies.conflictRecency) {
    const newer = pa.createdAt > pb.createdAt ? a : b
    return { winner: newer.id as MemoryId, rule: 'recency', reason: `written ${Math.round(apart)} s apart (more than ${policies.conflictRecency} s): the newer one is preferred` }
  }
  if (pa.confidence > pb.confidence * 1.5 || pb.confidence > pa.confidence * 1.5) {
    const [hi, lo] = pa.confidence > pb.confidence ? [a, b] : [b, a]
    return { winner: hi.id as MemoryId, rule: 'confidence', reason: `confidence ${hi.payload.confidence} is more than 1.5 times ${lo.payload.confidence}` }
  }
  const trusted = new Set(policies.trustedSources)
  const ta = trusted.has(pa.source), tb = trusted.has(pb.source)
  if (ta !== tb) {
    const w = ta ? a : b
    return { winner: w.id as MemoryId, rule: 'source-authority', reason: `source "${w.payload.source}" is trusted and the other's is not` }
  }
  return { winner: null, rule: 'merge', strategy: 'average', reason: 'close in time, confidence and source authority: merge them into a composite' }
}
