import { recordId } from '../core/ids.js'
import type { LiveMemory, Structure } from './structure.js'
import type { ConflictRule, MemoryId, PoolConflict, PoolConflictGroup } from './types.js'

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
 * Nothing changes until an agent or a person calls `resolve()`. Which memories conflict is
 * current-index.ts (by slot and by predecessor, kept as memories come and go). A group of more than
 * two gets the member the pairwise rule prefers to every other one, else a merge of all.
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

/** The conflict group of `kind` among `members` (sorted by id, two or more), with its suggestion. */
export function groupOf(kind: PoolConflictGroup['kind'], members: readonly LiveMemory[], s: Structure): PoolConflictGroup {
  const ids = members.map((m) => m.id as MemoryId)
  const first = members[0]!.payload
  return {
    id: recordId({ kind: 'pool-conflict', pool: s.id, memories: ids }),
    pool: s.id,
    kind,
    memories: ids,
    subject: first.subject,
    predicate: first.predicate,
    context: first.context,
    suggestion: members.length === 2 ? suggest(members[0]!, members[1]!, s) : suggestAmong(members, s),
  }
}

const RULES: readonly ConflictRule[] = ['recency', 'confidence', 'source-authority']

/**
 * §6 over many: a candidate that the pairwise rule prefers to everyone met so far, then checked
 * against every member (2k comparisons, not k²). The pairwise rule is not transitive (recency has a
 * threshold), so a candidate that loses or ties once means no member is preferred to all: merge.
 */
function suggestAmong(members: readonly LiveMemory[], s: Structure): PoolConflict['suggestion'] {
  let best = members[0]!
  for (const m of members) if (m !== best && suggest(best, m, s).winner === m.id) best = m
  const wins = new Map<ConflictRule, number>()
  for (const m of members) {
    if (m === best) continue
    const r = suggest(best, m, s)
    if (r.winner !== best.id) return { winner: null, rule: 'merge', strategy: 'average', reason: `no one of the ${members.length} memories is preferred to every other one (LCS-004 §6 pairwise): merge them into a composite` }
    wins.set(r.rule, (wins.get(r.rule) ?? 0) + 1)
  }
  const used = RULES.filter((r) => wins.has(r))
  return {
    winner: best.id as MemoryId,
    rule: used[used.length - 1]!,
    reason: `preferred to each of the other ${members.length - 1} (${used.map((r) => `${r} over ${wins.get(r)}`).join(', ')})`,
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
