import type { Reading } from '../read/reading.js'
import type { Slot } from '../read/slot.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import { NUMBER_SRC, parseNumber } from '../read/numbers.js'
import { LASTING, NEWS_OF_CHANGE, RECURRING_PRICE, agePatterns } from '../words/states.js'
import { occasionsNamed, type DiaryWeight } from './diary.js'

// A store-level rule of the free-text conflict listing (issue 27): states that change over time.
// A store remembers a life over months; jobs, homes, weights, counts, prices and plans change. Of
// two state claims on one attribute written at two valid times, the later one is either news of a
// change, which the store's supersession handles, or a flat contradiction the user must see:
//
// - the later statement tells the news of a change, in words of the time between ("has since
//   moved", "these days", "no longer", "back to", "a new job", "got internet", "healed", "more than
//   before"), with a sign the earlier one does not already carry ("got an A" / "got a C" is one event
//   told twice): a change. Not the diary's change verbs (words/diary.ts CHANGE: "moved to", "now",
//   "since", "switched", "pushed to"): they are also how a fact or an instruction is corrected ("notes
//   go in Confluence from now on", "standup moves to 10:30", "min is 16 now"), which pair sets label
//   contradictions; reusing them cost 9 of 80 planted dev contradictions (docs/conflicts.md);
// - the attribute is one that drifts and the later value is one the gap allows: an age that grew by
//   about the years between (14, then 16 two years on), a count that grew, a weight or a recurring
//   price that moved by a share the months allow: a change;
// - anything else ("is vegetarian" ... months later "eats steak every day"; an age that shrank; a
//   later "still" / "never" / "always") keeps its flag.
//
// The diary rule (store/diary.ts) weighs two moments and leaves states alone; this one weighs
// states, and only in the order the dates give. Like every store rule it lowers, never vetoes.

/** How much a change lowers a flag: one weak reading takes a 0.85-0.9 flag under the 0.8 threshold. */
const CHANGE_FACTOR = 0.5

/** What drifts moves at most this share of its value a month (a weight, a recurring price), at most half. */
const DRIFT_PER_MONTH = 0.1
const DRIFT_MAX = 0.5

/** A drift is read over a month or more: a day's or a week's gap is too short for a weight or a price to move. */
const DRIFT_MIN_DAYS = 30

const DAYS_PER_YEAR = 365.25
const DAYS_PER_MONTH = DAYS_PER_YEAR / 12

/**
 * How the dates of two flagged state claims weigh on their flag: null when they do not (see above).
 * @param earlier - the reading of the statement with the earlier valid time
 * @param later - the reading of the statement with the later valid time
 * @param days - how far apart the two valid times are, in days (>= 0)
 */
export function stateWeight(earlier: Reading, later: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason'>, days: number): DiaryWeight | null {
  if (!(days >= 1) || verdict.kind === 'none' || verdict.kind === 'unrelated') return null
  // The reader rewrites "no longer" to "not": signs are read in the text as written too.
  if (LASTING.test(later.text)) return null
  const apart = gapText(days)
  // An age stated on both sides is judged by the gap alone: "turns 5 next week" is news, but not of
  // an age two years younger than the gap allows.
  const ages = agesOf(earlier, later)
  if (ages) return days >= DRIFT_MIN_DAYS && ageGrew(ages, days) ? { factor: CHANGE_FACTOR, note: `an age that grew by the gap (${ages[0]} to ${ages[1]}), ${apart} apart` } : null
  const news = newSigns([earlier.text, earlier.norm], [later.text, later.norm])
  if (news.length) return { factor: CHANGE_FACTOR, note: `the later statement, ${apart} after, tells a change ("${news[0]}")` }
  if (days < DRIFT_MIN_DAYS) return null
  // One job each, months apart: people change jobs (the job check already lets a said change pass).
  if (verdict.kind === 'substitution' && verdict.reason.startsWith('one job each')) return { factor: CHANGE_FACTOR, note: `a job title, ${apart} apart` }
  if (verdict.kind !== 'value') return null
  const named = occasionsNamed(earlier)
  for (const o of occasionsNamed(later)) if (named.has(o)) return null
  const drift = driftOf(earlier, later, days)
  return drift ? { factor: CHANGE_FACTOR, note: `${drift}, ${apart} apart` } : null
}

/** Signs of a change in the later text that the earlier does not carry, in the later text's words. */
function newSigns(earlier: readonly string[], later: readonly string[]): string[] {
  const signs = (texts: readonly string[]): string[] =>
    texts.flatMap((t) => [...t.matchAll(new RegExp(NEWS_OF_CHANGE.source, 'gi'))].map((m) => m[0].toLowerCase().replace(/\s+/g, ' ')))
  const before = new Set(signs(earlier))
  return signs(later).filter((s) => !before.has(s))
}

/** What drifted, when every value the two texts differ in is a drift the gap allows; null otherwise. */
function driftOf(earlier: Reading, later: Reading, days: number): string | null {
  const clashes = clashing(earlier.slots.slots, later.slots.slots)
  if (!clashes.length) return null
  const notes = clashes.map(([x, y]) => drifts(x, y, days, later))
  return notes.every((n) => n !== null) ? notes[0]! : null
}

/** The ages two texts state, the earlier's first, when each states one. */
function agesOf(earlier: Reading, later: Reading): [number, number] | null {
  const [a, b] = [ageOf(earlier.norm), ageOf(later.norm)]
  return a !== null && b !== null && a !== b ? [a, b] : null
}

/** Whether an age grew by about the years between: birthdays fall anywhere in the gap, so a year either side. */
function ageGrew([a, b]: [number, number], days: number): boolean {
  return b > a && Math.abs(b - a - days / DAYS_PER_YEAR) <= 1
}

/** The one age a text states, or null (none, or two). */
function ageOf(norm: string): number | null {
  const found = new Set<number>()
  for (const re of agePatterns(NUMBER_SRC)) for (const m of norm.matchAll(new RegExp(re.source, 'gi'))) {
    const n = parseNumber(m[1]!)
    if (Number.isInteger(n) && n > 0 && n < 120) found.add(n)
  }
  return found.size === 1 ? [...found][0]! : null
}

/** Pairs of values of one kind and unit that differ, the earlier's first. */
function clashing(xs: readonly Slot[], ys: readonly Slot[]): Array<[Slot, Slot]> {
  const out: Array<[Slot, Slot]> = []
  for (const x of xs) for (const y of ys) if (sameAttribute(x, y) && amount(x) !== amount(y)) out.push([x, y])
  return out
}

function sameAttribute(x: Slot, y: Slot): boolean {
  if (x.kind === 'count' && y.kind === 'count') return x.unit === y.unit && !x.bound && !y.bound
  if (x.kind === 'measure' && y.kind === 'measure') return x.dim === y.dim && !x.range && !y.range && !x.bound && !y.bound
  if (x.kind === 'money' && y.kind === 'money') return (x.currency ?? '') === (y.currency ?? '') && (x.per ?? '') === (y.per ?? '') && !x.bound && !y.bound
  return false
}

function amount(s: Slot): number {
  if (s.kind === 'count') return s.value
  if (s.kind === 'measure') return s.bases[0]!
  if (s.kind === 'money') return s.amount
  return NaN
}

/** Whether one value drifting into the other over `days` is no contradiction: a note saying which drift, or null. */
function drifts(x: Slot, y: Slot, days: number, later: Reading): string | null {
  const [a, b] = [amount(x), amount(y)]
  // A count of things one has or gathers (grandchildren, subscribers, engineers) grows; one that shrank is a contradiction.
  if (x.kind === 'count') return b > a ? `a count that grew ("${x.text}" to "${y.text}")` : null
  const share = Math.abs(b - a) / Math.max(Math.abs(a), Math.abs(b))
  const allowed = Math.min(DRIFT_MAX, (DRIFT_PER_MONTH * days) / DAYS_PER_MONTH)
  if (!(share <= allowed)) return null
  if (x.kind === 'measure') return x.dim === 'mass' ? `a weight that moved ("${x.text}" to "${y.text}")` : null
  // A price that recurs (a rent, a fee, what a thing costs now) moves; one invoice's amount does not.
  return RECURRING_PRICE.test(later.norm) && !later.past ? `a price that moved ("${x.text}" to "${y.text}")` : null
}

function gapText(days: number): string {
  if (days < 60) return `${Math.round(days)} day${Math.round(days) === 1 ? '' : 's'}`
  if (days < 2 * DAYS_PER_YEAR) return `${Math.round(days / DAYS_PER_MONTH)} months`
  return `${(days / DAYS_PER_YEAR).toFixed(1)} years`
}
