import { AgentRole } from './types.js'
import type { Observation } from './types.js'

/**
 * What each role sees (FR-001.5). RESEARCHER: everything. CRITIC: belief candidates, the things
 * it must judge. EXECUTOR: observations typed SKILL or FACT, what it can act on; untyped
 * observations are raw notes that nobody has classified yet, so an executor does not see them.
 */
export function visibleTo(role: AgentRole, o: Observation): boolean {
  switch (role) {
    case AgentRole.RESEARCHER:
      return true
    case AgentRole.CRITIC:
      return o.isBeliefCandidate
    case AgentRole.EXECUTOR:
      return o.beliefType === 'SKILL' || o.beliefType === 'FACT'
  }
}

/**
 * Context order: attention first, then recency (newest first), then id. Decay already folds age
 * into attention, so recency only separates equal weights.
 */
export function byAttentionThenRecency(a: Observation, b: Observation): number {
  if (a.attentionWeight !== b.attentionWeight) return b.attentionWeight - a.attentionWeight
  if (a.sequence !== b.sequence) return a.sequence < b.sequence ? 1 : -1
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
