import type { Reading } from '../read/reading.js'
import { claimKind, toldOfOneThing } from '../read/claim-kind.js'
import { OCCASION_NAME } from '../words/diary.js'
import { OCCASION_NOUNS, ONE_OF_A_KIND } from '../words/event-verbs.js'
import type { RawVerdict } from './verdict.js'

// Two events are not two values of one state (issue 27, event27). "Mira took her niece to the
// aquarium" / "... to the zoo", "went to a yoga class" / "a pottery class", "ran a marathon in
// Boston" / "in Chicago": events of a life accumulate, so another object, place or companion of
// the action is another occurrence, not another answer. They contradict only when they name one
// occasion ("her first marathon", "at the wedding", "last night"), or when an outcome is opposed
// ("passed" / "failed" the exam), which the antonym and negation checks say, not this one.
// store/diary.ts lowers the same pairs when a store's dates put them a day apart; this rule needs
// no date, so it holds within one session and in streams without dates.

/** The checks whose flag says another object, place or member, which an event's argument can be. */
const ARGUMENT_CHECKS: ReadonlySet<string> = new Set(['substitution', 'complement', 'place'])

// A week, a month, a year or a quarter holds many events: only a day or a time names one occasion.
const SPAN_OF_DAYS = /week|month|year|^q[1-4]$|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/

/** The occasions a text names: a day or time ("last night", "on Saturday"), or "the wedding", "her graduation". */
function occasions(r: Reading): Set<string> {
  const out = new Set<string>()
  for (const m of r.norm.matchAll(OCCASION_NAME)) {
    const o = m[0].toLowerCase().replace(/\s+/g, ' ')
    if (!SPAN_OF_DAYS.test(o)) out.add(o)
  }
  for (const m of r.norm.matchAll(OCCASION_NOUNS)) out.add(m[0].toLowerCase().split(/\s+/).at(-1)!)
  return out
}

/** Whether two readings speak of one occasion: one names a first, last or only one, or both name the same occasion. */
export function oneOccasionNamed(a: Reading, b: Reading): boolean {
  if (ONE_OF_A_KIND.test(a.norm) || ONE_OF_A_KIND.test(b.norm)) return true
  const named = occasions(a)
  return [...occasions(b)].some((o) => named.has(o))
}

/**
 * Why a fired flag is two events differing in an argument of the action, or null when it is not:
 * both texts tell an event (read/claim-kind.ts) in the active voice (the passive tells what was done
 * to one thing), the check found another name, place or modifier, no numbered thing is shared ("order 5521"), no outcome is opposed, and no one occasion is named.
 */
export function twoEvents(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (!raw.check || !ARGUMENT_CHECKS.has(raw.check)) return null
  if (claimKind(a) !== 'event' || claimKind(b) !== 'event') return null
  if (toldOfOneThing(a) || toldOfOneThing(b)) return null
  if (raw.shared.some((k) => /\d/.test(k))) return null
  if ([...a.poles].some(([g, pa]) => g !== 'preference' && b.poles.get(g)?.some((q) => pa.some((p) => p.pole === -q.pole)))) return null
  if (oneOccasionNamed(a, b)) return null
  return 'two events told, each with its own object, place or companion, and no one occasion named'
}
