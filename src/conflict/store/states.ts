import type { Reading } from '../read/reading.js'
import type { Slot } from '../read/slot.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import { NUMBER_SRC, parseNumber } from '../read/numbers.js'
import { LASTING, LEVEL_RESULT, NEWS_OF_CHANGE, READING_TAKEN, RECURRING_PRICE, REPEATED_READING, agePatterns, fromDate } from '../words/states.js'
import { MONTH_PATTERN } from '../words/months.js'
import { DAY_MS } from '../../core/time.js'
import { shareAnOccasion, type DiaryWeight } from './diary.js'

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
// - the shape of the later reading says it is a value at a date (change27): told as holding from a
//   date ahead ("will charge 110 from May"), dated at its own time as the earlier is at its own
//   ("sold for 1.10 in March" ... "fell to 0.85 in May", "cannot drive" ... "was cleared to drive
//   again in September"), a level told as the result of its change ("cut her metformin to once a
//   day"), or a reading of what is measured again and again, both told as taken ("A1C was 7.2" ...
//   "A1C was 6.1"): a change;
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
 * @param times - the two valid times (ms since the epoch), the earlier's first, when the caller has them
 */
export function stateWeight(earlier: Reading, later: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason'>, days: number, times?: readonly [number, number]): DiaryWeight | null {
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
  const ahead = FROM_DATE.exec(later.text)
  if (ahead && !FROM_DATE.test(earlier.text)) return { factor: CHANGE_FACTOR, note: `the later statement, ${apart} after, tells a value from a date ahead ("${ahead[0].toLowerCase()}")` }
  if (days < DRIFT_MIN_DAYS) return null
  const shape = valueAtDate(earlier, later, verdict, times)
  if (shape) return { factor: CHANGE_FACTOR, note: `${shape}, ${apart} apart` }
  // One job each, months apart: people change jobs (the job check already lets a said change pass).
  if (verdict.kind === 'substitution' && verdict.reason.startsWith('one job each')) return { factor: CHANGE_FACTOR, note: `a job title, ${apart} apart` }
  if (verdict.kind !== 'value' || shareAnOccasion(earlier, later)) return null
  const drift = driftOf(earlier, later, days)
  return drift ? { factor: CHANGE_FACTOR, note: `${drift}, ${apart} apart` } : null
}

const FROM_DATE = fromDate(MONTH_PATTERN)
const DEADLINE = /\b(?:until|till|til|through|thru|expir\w*|due|deadline|valid|good\s+for|runs?\s+out|ends?|ending|closes?|closing|opens?|opening)\b/i

/** A stated date this far from its text's own valid time is that text's own moment ("in May", written in May). */
const OWN_DATE_DAYS = 45

/**
 * The shapes of a later reading that make it a value at its own date rather than another answer
 * (change27, see above); a note saying which, or null.
 */
function valueAtDate(earlier: Reading, later: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason'>, times?: readonly [number, number]): string | null {
  // Two texts that name one occasion ("passed ... last month" / "failed ... last month, retake in June") speak of it, whatever else they date.
  if (shareAnOccasion(earlier, later)) return null
  if (times && toldAtOwnDates(earlier, later, times)) return 'each statement dated at its own time'
  if (verdict.kind !== 'value' || /^different (?:relative )?(?:date|time|day|weekday|duration)/.test(verdict.reason)) return null
  const values = [...verdict.reason.matchAll(/"([^"]+)" vs "([^"]+)"/g)].flatMap((m) => [m[1]!, m[2]!])
  // Told so on both sides ("fell to 4 percent" / "rose to 9 percent") it is one change told two ways, as news is.
  const told = (r: Reading): boolean => values.some((v) => levelResultBefore(r.text, v) || levelResultBefore(r.norm, v))
  const result = told(earlier) ? undefined : values.find((v) => levelResultBefore(later.text, v) || levelResultBefore(later.norm, v))
  if (result) return `a level told as the result of its change (to "${result}")`
  const taken = (r: Reading): boolean => REPEATED_READING.test(r.norm) && READING_TAKEN.test(r.norm)
  if (taken(earlier) && taken(later)) return `two readings of what is measured again and again`
  return null
}

/** Whether a level verb and "to" stand right before the value in the text ("cut her metformin to" once a day). */
function levelResultBefore(text: string, value: string): boolean {
  const at = text.toLowerCase().indexOf(value.toLowerCase())
  return at > 0 && LEVEL_RESULT.test(text.slice(0, at))
}

/**
 * Whether the later statement names one date near its own valid time (a moment it reports or
 * plans), and the earlier names none or one near its own: two statements each of its own time.
 * A date far from its text's time ("scheduled for 14 May", written in March) is the date of
 * something else, which another date may contradict.
 */
function toldAtOwnDates(earlier: Reading, later: Reading, [ta, tb]: readonly [number, number]): boolean {
  const b = ownDate(later, tb)
  if (b === null || b === 'far' || b === 'none') return false
  const a = ownDate(earlier, ta)
  if (a === 'far' || a === null) return false
  return b - (a === 'none' ? ta : a) >= DRIFT_MIN_DAYS * DAY_MS * 0.7
}

/** The one calendar date a text states, resolved to the year nearest its valid time: 'none', 'far' (not near its time), or null (two). */
function ownDate(r: Reading, at: number): number | 'none' | 'far' | null {
  // A deadline or an end ("expires June 30", "good until Sept 30") is a value of the thing, not the statement's moment.
  if (DEADLINE.test(r.norm)) return null
  const dates = r.slots.slots.filter((s): s is Extract<Slot, { kind: 'date' }> => s.kind === 'date' && s.m !== undefined)
  if (dates.length === 0) return 'none'
  const keys = new Set(dates.map((s) => `${s.y ?? ''}-${s.m}-${s.d ?? ''}`))
  if (keys.size > 1) return null
  const s = dates[0]!
  const best = inYearNearest((y) => Date.UTC(y, s.m! - 1, s.d ?? 15), s.y, at)
  return Math.abs(best - at) <= OWN_DATE_DAYS * DAY_MS ? best : 'far'
}

/**
 * A day of a date said without its year, placed in the year nearest `at` (the fact's valid time):
 * "24 March" written in February 2026 is 24 March 2026, written in December 2025 too. A stated year is kept.
 * @param on - the day, in ms since the epoch, for a year
 */
export function inYearNearest(on: (year: number) => number, year: number | undefined, at: number): number {
  if (year !== undefined) return on(year)
  const y = new Date(at).getUTCFullYear()
  return [y - 1, y, y + 1].map(on).reduce((p, q) => (Math.abs(q - at) < Math.abs(p - at) ? q : p))
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
