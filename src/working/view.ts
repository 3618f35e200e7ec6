import { decodeHlc } from '../core/clock.js'
import type { TaskState } from './state.js'
import type { Observation, ObservationId } from './types.js'

const iso = (hlc: string): string => new Date(decodeHlc(hlc).wall).toISOString()

/** Observation id -> partners in open conflicts, computed once per read. */
export function conflictIndex(state: TaskState, cleared?: (a: string, b: string) => boolean): Map<string, ObservationId[]> {
  const out = new Map<string, ObservationId[]>()
  for (const c of state.openConflicts()) {
    const { a, b } = c.body
    if (cleared && c.body.by === 'detector' && cleared(a, b)) continue
    ;(out.get(a) ?? out.set(a, []).get(a)!).push(b as ObservationId)
    ;(out.get(b) ?? out.set(b, []).get(b)!).push(a as ObservationId)
  }
  for (const list of out.values()) list.sort()
  return out
}

/** The public, plain (structured-cloneable) view of one observation. */
export function toObservation(state: TaskState, id: string, conflicts: Map<string, ObservationId[]> = conflictIndex(state)): Observation | null {
  const o = state.observations.get(id)
  if (!o) return null
  const ev = state.evictions.get(id)
  const access = state.access(id)
  return {
    id: o.id as ObservationId,
    taskId: state.task,
    content: o.body.content,
    sourceAgentId: o.body.agent,
    timestamp: iso(o.hlc),
    sequence: o.hlc,
    attentionWeight: ev ? ev.body.weight : state.weight(id),
    confidence: o.body.confidence,
    isBeliefCandidate: o.body.candidate,
    beliefType: o.body.beliefType,
    conflictsWith: conflicts.get(id) ?? [],
    accessedBy: ev ? [...ev.body.accessedBy] : [...access.by].sort(),
    accessCount: ev ? ev.body.accessCount : access.count,
    evicted: ev ? { reason: ev.body.reason, at: iso(ev.hlc), attentionWeight: ev.body.weight } : null,
  }
}

export { iso as hlcToIso }
