import type { Reading } from '../read/reading.js'
import { locate } from './value-of.js'
import type { RawVerdict } from './verdict.js'

/**
 * A size against a distance (issue 27, session 14, notes40). A length is two questions: how big a
 * thing is ("a 28-foot yacht", "the van is just under 24 ft", "6 metres long") and how far
 * something went or goes ("sailed about six miles", "does 32 miles to the gallon"). Notes about one
 * person meet both ("sailed on his 28-foot yacht" / "sailed to Kerrera and back, about six miles");
 * a size against a size ("a 57-foot trad" / "62 feet long") or a distance against a distance keeps
 * its clash, and so does a side that is neither.
 */

const LENGTH_CLASH = /^different (?:length|distance): "([^"]+)" vs "([^"]+)"/
// "a 28-foot yacht", "6 metres long", "is just under 24 ft": what a thing measures.
const SIZE_AFTER = /^(?:-\p{L}+\s+\p{L}|\s+(?:long|tall|high|wide|deep|across)\b)/u
const SIZE_BEFORE = /\b(?:is|are|was|were)\s+(?:just\s+|only\s+)?(?:about\s+|around\s+|under\s+|over\s+|nearly\s+|almost\s+)?$/
// "does 32 miles to the gallon", "sailed ... about six miles", "rode 35 kilometres": how far. Not
// "runs": "the cave runs for 17 kilometres" is its size (a dev9 contradiction).
const RATE_AFTER = /^\s+(?:to the|per|a|an|each)\s+(?:gallon|litre|liter|hour|day|week|month|year|charge|tank)\b/
const MOVED = /\b(?:sail(?:s|ed)?|r[oi]de|rides|ran|walk(?:s|ed)?|dr[oi]ve|drives|cycl(?:e|es|ed)|sw[ai]m|swims|hik(?:e|es|ed)|fl[eo]w|flies|travell?ed|covered|paddled|rowed|commutes?|does|did)\b/

type Role = 'size' | 'distance' | null

/** Whether the length `text` at `at` in `r` tells a size, a distance, or neither. */
function roleOf(r: Reading, at: number, text: string): Role {
  const after = r.norm.slice(at + text.length, at + text.length + 24)
  const before = r.norm.slice(Math.max(0, at - 60), at)
  // Only the sentence the length stands in ("sailed to Kerrera and back, about six miles"), and
  // for a copula only its clause.
  const sentence = before.slice(before.search(/[^.;!?]*$/))
  const own = before.slice(before.search(/[^.;!?,:]*$/))
  // A record of going bounds every distance ("her longest ride is the 11-kilometre greenway" /
  // "rode 35 kilometres" may clash): a distance, whatever it is joined to.
  if (/\b(?:longest|furthest|farthest)\b/.test(sentence)) return 'distance'
  // A length joined to a noun ("his 28-foot yacht") sizes that noun whatever verb the clause has.
  if (/-\p{L}+$/u.test(text) || /^-\p{L}+\s+\p{L}/u.test(after)) return 'size'
  if (RATE_AFTER.test(after) || MOVED.test(sentence)) return 'distance'
  return SIZE_AFTER.test(after) || SIZE_BEFORE.test(own) ? 'size' : null
}

/** Why the clashing lengths are a size and a distance, or null. */
export function sizeAndDistance(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const m = LENGTH_CLASH.exec(raw.reason)
  if (!m) return null
  const [pa, pb] = [locate(a, m[1]!, raw.signal?.at?.[0] ?? -1), locate(b, m[2]!, raw.signal?.at?.[1] ?? -1)]
  if (pa < 0 || pb < 0) return null
  const roles = [roleOf(a, pa, m[1]!), roleOf(b, pb, m[2]!)]
  return roles.includes('size') && roles.includes('distance') ? `a size against a distance ("${m[1]}" / "${m[2]}")` : null
}
