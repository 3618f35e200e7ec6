import type { Reading } from '../read/reading.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import { subjectStems } from '../read/subject.js'
import { DETERMINERS } from '../words/determiners.js'
import { hubOnlyWeight } from './hub-only.js'
import type { HubWeight } from './hub-subject.js'

// Rule 32 for any name two notes open with, not only the store's hub (issue 27, session 14,
// notes39). A name shared by two notes says who, not what: "Humber Locks charges a £65 call-out" /
// "Humber Locks paid £340 for Femi's course", "Maddie is a physiotherapist at the Manchester Royal
// Infirmary" / "Maddie is from Bolton". The hub rule asks a sign of one attribute only of the name
// most notes carry (a hub needs a fifth of the store); a name of a few notes shares as little.
// Only the name's own words count as the shared subject: "Rhodri's move-in" twice shares the
// move-in too, and is left to the other rules.

/** The capitalized words both texts' subjects hold, when the first of them opens both texts ("humber locks"), else null. */
export function sharedOpeningName(a: Reading, b: Reading): string | null {
  const [sa, sb] = [subjectStems(a), subjectStems(b)]
  if (!sa || !sb) return null
  const named = (r: Reading): string[] =>
    r.tokens.filter((t) => sa.has(t.stem) && sb.has(t.stem) && !DETERMINERS.has(t.lower) && /^\p{Lu}/u.test(r.norm.slice(t.start))).map((t) => t.lower)
  const [na, nb] = [named(a), named(b)]
  const opens = (r: Reading, words: readonly string[]): boolean => r.tokens[0] !== undefined && words.includes(r.tokens[0].lower)
  return na.length > 0 && na.join(' ') === nb.join(' ') && opens(a, na) && opens(b, nb) ? na.join(' ') : null
}

/** How sharing only an opening name weighs on a value or name clash (as hub-only.ts weighs the hub), or null. */
export function nameOnlyWeight(a: Reading, b: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason' | 'shared'>): HubWeight | null {
  const name = sharedOpeningName(a, b)
  return name ? hubOnlyWeight(a, b, verdict, name) : null
}
