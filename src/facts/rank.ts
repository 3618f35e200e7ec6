import { cosine } from './embedder.js'
import type { LexicalIndex } from './lexical-index.js'
import { terms } from './text.js'
import type { Version } from './version.js'

export interface RankContext {
  readonly lexical: LexicalIndex | undefined
  /** Query vector and candidate vectors, when an embedder is configured. */
  readonly queryVector?: Float32Array | undefined
  readonly vectors?: ReadonlyMap<string, Float32Array> | undefined
}

interface Scored {
  readonly v: Version
  readonly score: number
}

// Reciprocal-rank fusion constant (Cormack et al. 2009): robust without score calibration.
const RRF_K = 60

/**
 * Orders every candidate: by relevance (BM25 over content and metadata, fused with vector
 * similarity when an embedder is set), then importance, then recency, then ref. The order is a
 * total order on the candidates, so retrieve() is deterministic for a fixed state (GMP §4.3).
 */
export function rank(query: string, candidates: readonly Version[], ctx: RankContext): Version[] {
  const qterms = new Map<string, number>()
  for (const t of terms(query)) qterms.set(t, 1)
  const lexical = ctx.lexical?.score(qterms) ?? new Map<string, number>()
  let relevance: (v: Version) => number = (v) => lexical.get(v.ref) ?? 0

  if (ctx.queryVector && ctx.vectors) {
    const qv = ctx.queryVector
    const vectors = ctx.vectors
    const byLex = [...candidates].filter((v) => lexical.has(v.ref)).sort((a, b) => tiebreak(lexical.get(b.ref)!, lexical.get(a.ref)!, a, b))
    const sims = new Map<string, number>()
    for (const v of candidates) {
      const vec = vectors.get(v.ref)
      if (vec) sims.set(v.ref, cosine(qv, vec))
    }
    const byVec = [...candidates].filter((v) => sims.has(v.ref)).sort((a, b) => tiebreak(sims.get(b.ref)!, sims.get(a.ref)!, a, b))
    const fused = new Map<string, number>()
    byLex.forEach((v, i) => fused.set(v.ref, (fused.get(v.ref) ?? 0) + 1 / (RRF_K + i + 1)))
    byVec.forEach((v, i) => fused.set(v.ref, (fused.get(v.ref) ?? 0) + 1 / (RRF_K + i + 1)))
    relevance = (v) => fused.get(v.ref) ?? 0
  }

  const scored: Scored[] = candidates.map((v) => ({ v, score: relevance(v) }))
  scored.sort((a, b) => tiebreak(b.score, a.score, a.v, b.v))
  return scored.map((s) => s.v)
}

/** Descending by score (given as `bScore, aScore`), then importance, recency, and ref. */
function tiebreak(bScore: number, aScore: number, a: Version, b: Version): number {
  if (bScore !== aScore) return bScore - aScore
  if (b.importance !== a.importance) return b.importance - a.importance
  if (b.body.writtenAt !== a.body.writtenAt) return b.body.writtenAt - a.body.writtenAt
  return a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0
}

/**
 * GMP §4.2 budget contract: whole memories in rank order until the first that does not fit;
 * nothing is cut, nothing is skipped to squeeze a later one in.
 */
export function pack(ordered: readonly Version[], budget: number, topK: number | null): Version[] {
  const out: Version[] = []
  let used = 0
  for (const v of ordered) {
    if (topK !== null && out.length >= topK) break
    if (used + v.cost > budget) break
    used += v.cost
    out.push(v)
  }
  return out
}
