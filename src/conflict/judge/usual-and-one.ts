import type { Reading } from '../read/reading.js'
import { wordClass } from '../read/part-of-speech.js'
import { isPastVerb } from '../read/claim-kind.js'
import { sameStem } from '../read/same-stem.js'
import type { RawVerdict } from './verdict.js'

// A measure of a thing that recurs against a measure of one time it was done (issue 27, events27):
// "the drive is 35 min" (the usual drive, a noun) / "she drove up from El Paso, 9 hours" (one
// drive, a past verb); "the flight takes 3 hours" / "we flew 11 hours to Lima". The shared word
// is the event itself, said as a thing on one side and as an act on the other: two occurrences.

/** Value clashes of a measure: how long, how far, how much. Dates and times say when, not how much. */
const MEASURE = /^different (?:duration|distance|length|number|amount|money|speed)\b/

/**
 * Why a clashing measure is of the usual thing on one side and of one time it was done on the
 * other, or null: every word the texts share (but a capitalized name) is a noun on one side and a
 * past verb on the other.
 */
export function usualAndOne(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.check !== 'value' || !MEASURE.test(raw.reason)) return null
  const uses = (r: Reading, k: string): Set<string> => {
    const out = new Set<string>()
    r.tokens.forEach((t, i) => {
      if (!sameStem(t.stem, k)) return
      if (t.capital) out.add('name')
      else if (isPastVerb(t.lower) && wordClass(r.tokens, i, r.norm) !== 'noun') out.add('act')
      else out.add(wordClass(r.tokens, i, r.norm) === 'noun' ? 'thing' : 'other')
    })
    return out
  }
  const words = raw.shared.filter((k) => ![a, b].some((r) => uses(r, k).has('name')))
  if (words.length === 0) return null
  const one = (x: Set<string>): string | null => (x.size === 1 ? [...x][0]! : null)
  const split = words.every((k) => {
    const [ua, ub] = [one(uses(a, k)), one(uses(b, k))]
    return (ua === 'thing' && ub === 'act') || (ua === 'act' && ub === 'thing')
  })
  return split ? `"${words[0]}" is the usual one on one side and one time it was done on the other` : null
}
