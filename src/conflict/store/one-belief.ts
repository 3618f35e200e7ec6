import type { TextConflictVerdict } from '../judge/verdict.js'

// A store-level rule of the free-text conflict listing (issue 27, eighth round). The pair
// detector judges two texts; a store has many, and one statement meets several that say the same
// thing ("all-hands was recorded", later "all-hands recording posted"). A statement against that
// one belief ("we have no recording of the all-hands") is one disagreement, not one per
// restatement: it is listed once, against the statement it contradicts most surely. The belief
// stays visible (its surest statement is flagged); a restatement is not marked on its own.
//
// Nothing here reads a text: the verdicts come from the detector; this file only decides which of
// one statement's flags speak of one belief. It is a function of the judged pairs and the current
// facts, not of the order pairs were found in, so a store lists the same whatever order its writes
// were settled in (`sameClaim` is asked of the two texts in write order: the detector reads a pair
// in order, and an order by ref changed with every build).

/** What the listing keeps of one judged pair. */
export interface JudgedEdge {
  /** The detector's kind of contradiction (`negation`, `value`, ...). */
  readonly kind: string
  readonly confidence: number
  /** How many key entities the two texts share. */
  readonly shared: number
  /** How many content words the two texts' claims share. */
  readonly words: number
}

/** A current fact as the rule needs it: its text. */
export interface EdgeEnd {
  readonly content: string
}

/** The judged pairs around one statement, and what the rule asks of the store. */
export interface BeliefGraph {
  /** Every judged partner of a ref (current or not). */
  partners(ref: string): Iterable<readonly [string, JudgedEdge]>
  /** The current fact of a ref, or null. */
  current(ref: string): EdgeEnd | null
  /** Whether two statements say the same of one subject (memoized by the caller; see `sameClaim`). */
  sameClaim(x: string, y: string): boolean
}

/**
 * Whether two texts make one claim as the detector reads them: one subject, something shared, and
 * nothing incompatible. Two subjects, two periods, a side that is no claim or a contradiction at
 * any confidence are not one claim.
 */
export function sameClaim(verdict: TextConflictVerdict): boolean {
  return verdict.kind === 'none' && verdict.confidence === 0 && verdict.shared.length > 0 && verdict.reason.startsWith('same subject')
}

/**
 * Whether flag `e` is surer than flag `f` among one statement's flags: a higher confidence; the
 * same with more key entities shared; or those equal with more content words shared (the closer
 * text is the more direct contradiction). Two flags equal in all three stay listed side by side:
 * nothing says which restatement is contradicted more directly (a choice by write time or ref
 * would be arbitrary, and hide a real flag as often as a redundant one).
 */
export function outranks(e: JudgedEdge, f: JudgedEdge): boolean {
  if (e.confidence !== f.confidence) return e.confidence > f.confidence
  return e.shared !== f.shared ? e.shared > f.shared : e.words > f.words
}

/**
 * Whether the flag between `n` and `x` is hidden at `n`: `n` has a flag that outranks it, of the
 * same kind, against a current statement `y` that makes the same claim as `x`. The same kind is a
 * proxy for one attribute: a fact that says another city and another employer than two compatible
 * facts makes two disagreements, and their flags are of two kinds more often than not. Cost: one
 * pass over `n`'s judged partners (each write judges its few nearest neighbours, so most facts
 * have a handful: their own and those that chose them).
 */
export function restatedAt(g: BeliefGraph, n: string, x: string, e: JudgedEdge): boolean {
  for (const [y, f] of g.partners(n)) {
    if (y !== x && f.kind === e.kind && outranks(f, e) && g.current(y) && g.sameClaim(x, y)) return true
  }
  return false
}

/** Whether a judged pair is listed: hidden when either side has a surer flag against the same claim. */
export function listedPair(g: BeliefGraph, a: string, b: string, e: JudgedEdge): boolean {
  return !restatedAt(g, a, b, e) && !restatedAt(g, b, a, e)
}
