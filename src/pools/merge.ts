import type { MemoryPayload } from './records.js'
import type { MergeStrategy } from './types.js'

export interface MergeSource {
  readonly id: string
  readonly hlc: string
  readonly payload: MemoryPayload
}

/** Newest first: creation time, then clock, then id. */
export function byRecency(a: MergeSource, b: MergeSource): number {
  return (
    b.payload.createdAt - a.payload.createdAt || (a.hlc < b.hlc ? 1 : a.hlc > b.hlc ? -1 : 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  )
}

function byConfidence(a: MergeSource, b: MergeSource): number {
  return b.payload.confidence - a.payload.confidence || byRecency(a, b)
}

/**
 * LCS-004 §4.4 `mergeMemories`, as a pure function of the sources. The strategies say which
 * source's content survives and what confidence the merge gets:
 * - `average`: content of the most confident source, confidence = the mean of all;
 * - `maximum`: content and confidence of the most confident source;
 * - `recent`: content and confidence of the newest source.
 * In every strategy the result keeps provenance (`merged.from`, and `supersedes` so the sources
 * leave the current view but stay stored), unions the supporting evidence, is PUBLIC only when all
 * sources are, NO_TRAINING when any is, permanent when any is, and otherwise lives as long as the
 * longest-lived source.
 */
export function mergePayloads(sources: readonly MergeSource[], strategy: MergeStrategy, now: number): MemoryPayload {
  const newest = [...sources].sort(byRecency)
  const confident = [...sources].sort(byConfidence)
  const base = strategy === 'recent' ? newest[0]! : confident[0]!
  const confidence =
    strategy === 'average'
      ? Math.round((sources.reduce((s, m) => s + m.payload.confidence, 0) / sources.length) * 10_000) / 10_000
      : base.payload.confidence
  const ids = sources.map((s) => s.id).sort()
  const idSet = new Set(ids)
  const evidence = [...new Set(sources.flatMap((s) => s.payload.evidence))].filter((e) => !idSet.has(e)).sort()
  const permanent = sources.some((s) => s.payload.permanent)
  let ttl: number | null = null
  if (!permanent && sources.every((s) => s.payload.ttl !== null)) {
    const until = Math.max(...sources.map((s) => s.payload.createdAt + s.payload.ttl! * 1000))
    ttl = Math.max(0.001, (until - now) / 1000)
  }
  const p = base.payload
  return {
    type: p.type,
    subject: p.subject,
    predicate: p.predicate,
    object: p.object,
    context: p.context,
    confidence,
    source: 'merge',
    evidence,
    createdAt: now,
    ttl,
    permanent,
    visibility: sources.every((s) => s.payload.visibility === 'PUBLIC') ? 'PUBLIC' : 'AUTHORIZED',
    ephemeral: false,
    noTraining: sources.some((s) => s.payload.noTraining),
    supersedes: ids,
    merged: { strategy, from: ids },
  }
}
