import type { RawVerdict } from './verdict.js'
import type { Reading } from '../read/reading.js'

/**
 * One text that tells both times of day of a clash (rule 29, session 13): "is on lates until
 * October, then returns to early shifts" against "works the early shift". That text gives two
 * answers at two times, and one of them is the other text's; what is left is a change over time,
 * told by one side, not a second answer given by the other.
 */

const DAYPART_CLASH = /^(?:different daypart|opposite time-of-day): "([^"]+)" vs "([^"]+)"/

/** Where `word` or its plural stands as a whole word in `r` ("late" meets "lates", not "later"), or -1. */
function at(r: Reading, word: string): number {
  const bare = word.toLowerCase().replace(/s$/, '')
  return new RegExp(`\\b${bare}s?\\b`, 'i').exec(r.norm)?.index ?? -1
}

/**
 * Whether `r` tells both `own` and `other` in two clauses ("on lates until October, then returns to
 * early shifts"). In one clause the two words are one phrase ("late in the morning": a lateness),
 * no second time.
 */
function tellsBoth(r: Reading, own: string, other: string): boolean {
  const [x, y] = [at(r, own), at(r, other)]
  if (x < 0 || y < 0) return false
  return /[,;]|\bthen\b/.test(r.norm.slice(Math.min(x, y), Math.max(x, y)))
}

/** Why the clash is told within one text, or null. */
export function bothDayparts(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const m = DAYPART_CLASH.exec(raw.reason)
  if (!m) return null
  const [x, y] = [m[1]!, m[2]!]
  if (tellsBoth(b, y, x)) return `the second text tells both "${x}" and "${y}": two times, one of them the first text's`
  if (tellsBoth(a, x, y)) return `the first text tells both "${x}" and "${y}": two times, one of them the second text's`
  return null
}
