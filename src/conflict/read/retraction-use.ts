import type { Token } from './text-tokens.js'
import { DETERMINER_WORDS } from '../words/determiners.js'

/**
 * When a retraction word ("cancel", "drop", "end", "retire") says no retraction, by the shape of
 * its use, not by which word it is (issue 27, session 10, obs27: flags of fresh observation
 * streams, dev2). A retraction says the thing beside it no longer holds; these three uses say
 * something else of it, so a statement of the thing does not contradict them.
 */

const BE = /^(?:is|are|am|was|were|be|been|being)$/
// The determiners of words/determiners.ts that open a phrase with a modifier before its noun ("a
// retiring neighbour", "those failing pumps", "every closing shift"); not "any", "all", "both", which
// also stand alone before a verb ("they all retired").
const DETERMINER: ReadonlySet<string> = new Set([...DETERMINER_WORDS, 'these', 'those', 'some', 'every', 'each'])
// How often: a habit or a pattern ("drops every summer", "usually ends late"), not one act.
const FREQUENCY = /^(?:every|each|always|usually|often|sometimes|typically|normally|generally|regularly|rarely|seldom|annually|yearly|weekly|monthly|daily|nightly)$/
// Counts before a noun: "two crossings were cancelled" retracts two occurrences, not the service.
const COUNT = /^(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|several|few|some|many|most|half|dozens?)$/
// State words whose -ing form is their retraction ("an outstanding balance"), not a participle.
const STATE_ING = /^(?:outstanding)$/

/**
 * "a retiring neighbour", "the failing pump": an -ing form between a determiner and the noun it
 * describes is a modifier of that noun (who or what it is), not an act that retracts the clause.
 */
function attributive(clause: readonly Token[], i: number, isStop: (t: Token) => boolean): boolean {
  const t = clause[i]!
  if (!/ing$/.test(t.lower) || STATE_ING.test(t.lower)) return false
  const before = clause[i - 1]
  const after = clause[i + 1]
  return before !== undefined && DETERMINER.has(before.lower) && after !== undefined && !isStop(after)
}

/**
 * "the price drops every summer", "the course ends with an exam": an active verb with no object
 * told as a habit, or followed by "with" (what it ends or goes with), describes how the thing goes,
 * and the thing still holds. Passive ("was cancelled with no notice") stays a retraction.
 */
function habitOrManner(clause: readonly Token[], i: number): boolean {
  if (clause.slice(Math.max(0, i - 2), i).some((u) => BE.test(u.lower))) return false
  const next = clause[i + 1]
  if (next === undefined) return false
  if (next.lower === 'with') return true
  return FREQUENCY.test(next.lower) || FREQUENCY.test(clause[i - 1]?.lower ?? '')
}

/** Whether the retraction word at `i` of `clause` retracts nothing, by the shape of its use. */
export function noRetraction(clause: readonly Token[], i: number, isStop: (t: Token) => boolean): boolean {
  return attributive(clause, i, isStop) || habitOrManner(clause, i)
}

/**
 * Whether what a retraction retracts is counted ("two crossings were cancelled", "3 flights
 * dropped"): some occurrences of a thing, which leaves the thing itself (the route, the service)
 * as it was. `retracted` is what the retraction reader found; `clause` the clause it stands in.
 */
export function countedOccurrences(clause: readonly Token[], retracted: readonly Token[]): boolean {
  const first = retracted[0]
  if (first === undefined) return false
  const at = clause.indexOf(first)
  const count = COUNT.test(first.lower) ? at : at > 0 && COUNT.test(clause[at - 1]!.lower) ? at - 1 : -1
  if (count < 0) return false
  // A count of things is a number before a plural ("two crossings", "3 flights"); a number before
  // a singular is a label or a time ("the 7:15 bus", "flight 22").
  const after = clause.slice(count + 1, count + 4)
  if (after[0] === undefined || /^\d/.test(after[0].lower)) return false
  return after.some((u) => /[^sui']s$/.test(u.lower) && !/^\d/.test(u.lower))
}
