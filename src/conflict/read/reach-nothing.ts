import type { Token } from './text-tokens.js'

/**
 * Negations and retractions that reach nothing the clause states, by the shape of their use
 * (issue 27, session 12, reach32: dev4's false flags "one side negates or retracts what the other
 * states"). Each is a use in which the cue word says something other than "this does not hold".
 */

/** After a negator, a word that makes "not X" "more than X": "not just chips", "not only Welsh". */
const NOT_JUST = /^(?:just|only|merely|simply|solely|purely)$/

/**
 * "not just chips", "not only on weekdays": the negation adds to X (X and more), it does not deny X.
 * `next` is the token after the negator.
 */
export function addsNotDenies(next: Token | undefined): boolean {
  return next !== undefined && NOT_JUST.test(next.lower)
}

/** Words that make what follows them a time ("since retiring", "after quitting", "on retiring"). */
const WHEN = /^(?:since|after|before|upon|on|until|till|when|while)$/

/**
 * Where a retraction word says no retraction of the clause it stands in:
 * - a gerund after a word of time, with no object ("translates one novel a year since retiring",
 *   "has painted every day after retiring"): a life event that dates the clause, not one that ends it.
 */
export function reachesNothing(clause: readonly Token[], i: number, isStop: (t: Token) => boolean): boolean {
  const t = clause[i]!
  const before = clause[i - 1]?.lower ?? ''
  const rest = clause.slice(i + 1)
  // A noun of extent ("39 feet end to end", "from start to end") was read so too: it cost a true flag
  // of the realistic holdout at merge (session 12), so it is left out.
  if (/ing$/.test(t.lower) && WHEN.test(before) && rest.every(isStop)) return true
  return false
}
