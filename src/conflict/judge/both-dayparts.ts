import type { RawVerdict } from './verdict.js'
import type { Reading } from '../read/reading.js'

/**
 * One text that tells both times of day of a clash (rule 29, session 13): "is on lates until
 * October, then returns to early shifts" against "works the early shift". That text gives two
 * answers at two times, and one of them is the other text's; what is left is a change over time,
 * told by one side, not a second answer given by the other.
 */

const DAYPART_CLASH = /^(?:different daypart|opposite time-of-day): "([^"]+)" vs "([^"]+)"/

/** `word` or its plural as a whole word in `r` ("late" meets "lates", not "later"). */
function says(r: Reading, word: string): boolean {
  const bare = word.toLowerCase().replace(/s$/, '')
  return new RegExp(`\\b${bare}s?\\b`, 'i').test(r.norm)
}

/** Why the clash is told within one text, or null. */
export function bothDayparts(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const m = DAYPART_CLASH.exec(raw.reason)
  if (!m) return null
  const [x, y] = [m[1]!, m[2]!]
  if (says(b, x)) return `the second text tells both "${x}" and "${y}": two times, one of them the first text's`
  if (says(a, y)) return `the first text tells both "${x}" and "${y}": two times, one of them the second text's`
  return null
}
