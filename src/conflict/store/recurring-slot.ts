import type { Reading } from '../read/reading.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import { LASTING } from '../words/states.js'
import type { DiaryWeight } from './diary.js'

// A store-level rule of the free-text conflict listing (issue 27, store28): a thing told over time.
// A pair of texts cannot tell a state from a thing that changes; a store can, by how often it told
// it. When the name a flagged pair opens with has been told together with what the two share on
// three days or more ("Abena walks 30 minutes every morning" in April, "now walks 45 minutes" in
// June, "cannot walk while her ankle heals" in August; a band's bookings told at every session),
// the thing is one the store follows as it changes: two statements of it at two dates are more
// likely two moments of it than one state said two ways. So the flag is lowered, not dropped.
//
// What keeps its flag: two statements on one day (what cannot hold at once is a contradiction
// however often the thing comes up), and a later statement told as lasting ("still", "never",
// "always", "for now": words/states.ts LASTING), which says the earlier value did not change.
// The store says what recurs (facts/slot-tally.ts counts the days, per name and word, as facts
// come and go); this file only weighs a pair once it is told.

/** A thing told over time is weak evidence against a change: a 0.85-0.9 flag goes under the 0.8 threshold, a surer one stays near it. */
const RECURRING_FACTOR = 0.6

/**
 * How a thing the store tells over time weighs on a flag between two of its statements: null when
 * it does not (see above).
 * @param earlier - the reading of the statement with the earlier valid time
 * @param later - the reading of the statement with the later valid time
 * @param days - how far apart the two valid times are, in days (>= 0)
 * @param name - the name the store told the word with, lower case
 * @param word - the shared key the store told with it
 * @param told - on how many days the store told them together
 */
export function recurringWeight(earlier: Reading, later: Reading, verdict: Pick<TextConflictVerdict, 'kind'>, days: number, name: string, word: string, told: number): DiaryWeight | null {
  if (!(days >= 1) || verdict.kind === 'none' || verdict.kind === 'unrelated') return null
  if (LASTING.test(later.text)) return null
  const apart = Math.round(days)
  return { factor: RECURRING_FACTOR, note: `the store tells "${word}" of ${name} on ${told} days, and these two are ${apart} day${apart === 1 ? '' : 's'} apart: a thing told over time` }
}
