import type { Reading } from '../read/reading.js'
import { isPastVerb } from '../read/claim-kind.js'
import { RATE_AFTER } from '../words/amount-roles.js'
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
// "6 metres long", "is just under 24 ft": what a thing measures.
const SIZE = /^\s+(?:long|tall|high|wide|deep)\b/
const COPULA = /\b(?:is|are|was|were)\s+(?:just\s+|only\s+)?(?:about\s+|under\s+|over\s+)?$/

/** Whether the length `text` at `at` in `r` tells a size, a distance, or neither. */
function roleOf(r: Reading, at: number, text: string): 'size' | 'distance' | null {
  const after = r.norm.slice(at + text.length, at + text.length + 24)
  // The sentence the length stands in ("sailed to Kerrera and back, about six miles").
  const sentence = r.norm.slice(0, at).split(/[.;!?]/).at(-1)!
  // A record of going bounds every distance ("her longest ride is the 11-kilometre greenway" /
  // "rode 35 kilometres" may clash).
  if (/\b(?:longest|furthest)\b/.test(sentence)) return 'distance'
  // A length joined to a noun ("his 28-foot yacht") sizes that noun whatever verb the sentence has.
  if (/-\p{L}+$/u.test(text) || SIZE.test(after) || COPULA.test(sentence)) return 'size'
  // "32 miles to the gallon", "a week"; "sailed ... about six miles", "rode 35 kilometres": how far.
  // Not "runs for 17 kilometres": no past, no rate (a dev9 contradiction, the cave's size).
  return /^\s+to the\b/.test(after) || RATE_AFTER.test(after) || sentence.toLowerCase().split(/\W+/).some(isPastVerb) ? 'distance' : null
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
