import type { Reading } from '../read/reading.js'
import type { Slot } from '../read/slot.js'
import type { TextConflictVerdict } from '../judge/verdict.js'
import type { DiaryWeight } from './diary.js'
import { inYearNearest } from './states.js'
import { DAY_MS } from '../../core/time.js'

// A store-level rule of the free-text conflict listing (issue 27, next34). "The next blood test is
// on 24 March", "the upcoming review", "the boiler service is due in May" name the next occurrence
// as of the day the fact was written. Once that date has passed, the next one is another
// occurrence: "next blood test is on 24 March" (written in February) and "next blood test after
// July falls on 8 September" (written in August) are two tests, not two dates of one. A later date
// told on the same day, or while the earlier date is still ahead, keeps the clash: one next event
// told with two dates is a real contradiction (or a move, which the user should see).

/** "the next X", "the upcoming X", "X is due": a recurring thing's next occurrence. "next week" is a relative date, not this. */
const NEXT_OCCURRENCE = /\b(?:next|upcoming|forthcoming)\s+(?!(?:week|weekend|month|year|day|time|morning|evening|night|mon|tues|wednes|thurs|fri|satur|sun)\w*\b)[a-z]|\bdue\s+(?:on|in|by)\b/i

/** Flags of when something happens: the only clashes this rule weighs. */
const WHEN = /^different (?:date|day|weekday|month)\b/

/** The last day a date slot names, in the year nearest the fact's own time (a month alone: its last day); null if it names no month. */
function lastDay(s: Extract<Slot, { kind: 'date' }>, at: number): number | null {
  if (s.m === undefined) return null
  const [m, d] = s.end ? [s.end.m, s.end.d] : [s.m, s.d]
  return inYearNearest((y) => (d !== undefined ? Date.UTC(y, m - 1, d) : Date.UTC(y, m, 0)), s.y, at)
}

/** When the occurrence a "next X" text names is over: the last of its calendar dates, or null (none, or not a "next X"). */
function occurrenceOver(r: Reading, at: number): number | null {
  if (!NEXT_OCCURRENCE.test(r.norm)) return null
  const days = r.slots.slots.flatMap((s) => (s.kind === 'date' ? [lastDay(s, at)] : []))
  if (days.length === 0 || days.some((d) => d === null)) return null
  return Math.max(...(days as number[])) + DAY_MS
}

/**
 * How the dates of two flagged texts weigh on their flag when the earlier names the next
 * occurrence of something and that occurrence is over by the later's valid time: null otherwise.
 * @param earlier - the reading of the statement with the earlier valid time
 * @param later - the reading of the statement with the later valid time
 * @param times - the two valid times (ms since the epoch), the earlier's first
 */
export function nextOccurrenceWeight(earlier: Reading, later: Reading, verdict: Pick<TextConflictVerdict, 'kind' | 'reason'>, times: readonly [number, number]): DiaryWeight | null {
  const [ta, tb] = times
  if (!(tb - ta >= DAY_MS) || verdict.kind !== 'value' || !WHEN.test(verdict.reason)) return null
  const over = occurrenceOver(earlier, ta)
  if (over === null || over > tb) return null
  const passed = new Date(over - DAY_MS).toISOString().slice(0, 10)
  return { factor: 0.5, note: `the earlier names the next occurrence as of its own day, and it was over (${passed}) when the later was written: two occurrences` }
}
