import type { Reading } from '../read/reading.js'
import type { RawVerdict } from './verdict.js'
import { datedEvents, UPDATE } from './date-events.js'

// A date of a thing that recurs (issue 27, session 14, notes39). A text that gives one thing
// several dated occurrences ("takes her methotrexate on Monday 14 and Monday 21 September", "the
// blood test falls on 14 July, then 8 September", "study days in March, May and June") or says it
// came "again" tells a series: another date of it in the other text is another occurrence, not
// another answer. Two ends of one span ("from 3 to 10 June") are one occurrence; a weekday alone
// ("on Fridays and Saturdays") is a habit's schedule, which one answer can contradict; a text that
// says the date was moved or changed gives a new answer, and keeps the clash.

// Between two dates, what makes them the ends of one span.
const SPAN = /^\s*(?:-|–|to|until|till|through|thru)\s*$/i
const AGAIN = /\bagain\b/i

/**
 * Whether `r` gives its dated thing more than one occurrence: "again", or two dates of one head
 * (date-events.ts) that bound no span, one of them of a month or day. Two dates of two heads ("bought
 * the house in 2009 and sold it in May 2020") are two events, not a series; a quarter ("Q2 earnings
 * release Jul 24") holds its date.
 */
export function datedSeries(r: Reading): boolean {
  if (AGAIN.test(r.norm)) return true
  const at = new Map([...r.slots.at].filter(([s, p]) => s.kind === 'date' && p >= 0))
  const dated = datedEvents(r)
    .filter((e) => e.head && e.slot.q === undefined && !e.slot.end && at.has(e.slot))
    .sort((x, y) => at.get(x.slot)! - at.get(y.slot)!)
  // "on Monday 14 and Monday 21 September" reads a weekday and a date: one of a month or day is enough.
  if (!dated.some((e) => e.slot.m !== undefined || e.slot.d !== undefined)) return false
  return dated.some((e, i) => {
    const prev = dated[i - 1]
    return prev !== undefined && prev.head!.stem === e.head!.stem && !SPAN.test(r.norm.slice(at.get(prev.slot)! + prev.slot.text.length, at.get(e.slot)!))
  })
}

/** Why a date clash is one occurrence against a series of the thing, or null. */
export function dateSeries(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.check !== 'value' || !/^different date\b/.test(raw.reason)) return null
  if (UPDATE.test(a.norm) || UPDATE.test(b.norm)) return null
  const [sa, sb] = [datedSeries(a), datedSeries(b)]
  if (sa === sb) return null
  return `one date against a series of dates (${sa ? 'the first' : 'the second'} text tells the thing more than once)`
}
