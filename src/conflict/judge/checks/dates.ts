import type { Slot } from '../../read/slot.js'
import { compareDateParts } from '../../read/values.js'
import type { Clash, Verdict } from './value-verdict.js'

// Calendar dates, ranges of days and weekdays, and relative dates ("today", "next week").

type DateSlot = Extract<Slot, { kind: 'date' }>
type RelDate = Extract<Slot, { kind: 'reldate' }>

/** Compares two dates, or two relative dates of one unit. */
export function compareDates(a: DateSlot | RelDate, b: DateSlot | RelDate): Verdict {
  switch (a.kind) {
    case 'date': {
      const o = b as typeof a
      // "Mon–Sat" holds Saturday and not Sunday; two ranges agree when they are the same days.
      if (a.wds || o.wds) {
        const [x, y] = [a.wds ?? (a.wd !== undefined ? [a.wd] : null), o.wds ?? (o.wd !== undefined ? [o.wd] : null)]
        if (!x || !y) return 'incomparable'
        if (a.wds && o.wds) return x.length === y.length && x.every((d) => y.includes(d)) ? 'equal' : 'differ'
        return x.some((d) => y.includes(d)) ? 'equal' : 'differ'
      }
      return a.end || o.end ? compareRanges(a, o) : compareDateParts(a, o)
    }
    case 'reldate': return a.offset === (b as typeof a).offset ? 'equal' : 'differ'
  }
}

/** Ranges agree when both ends do; a single day agrees with a range it falls in. */
function compareRanges(a: DateSlot, b: DateSlot): Verdict {
  const day = (m: number | undefined, d: number | undefined): number | null => (m === undefined || d === undefined ? null : m * 32 + d)
  const span = (x: DateSlot): [number, number] | null => {
    const s = day(x.m, x.d)
    return s === null ? null : [s, x.end ? day(x.end.m, x.end.d)! : s]
  }
  const [x, y] = [span(a), span(b)]
  if (!x || !y) return 'incomparable'
  if (a.end && b.end) return x[0] === y[0] && x[1] === y[1] ? 'equal' : 'differ'
  const [range, one] = a.end ? [x, y] : [y, x]
  return one[0] >= range[0] && one[0] <= range[1] ? 'equal' : 'differ'
}

/**
 * "today" / "next week", "tomorrow" / "last month": relative dates of two units clash when the
 * days they can name do not overlap ("tomorrow" may fall in "next week" and agrees with it).
 */
export function relativeDateClash(xa: readonly Slot[], xb: readonly Slot[]): Clash | null {
  const rel = (xs: readonly Slot[]): RelDate[] => xs.filter((x): x is RelDate => x.kind === 'reldate')
  const [ra, rb] = [rel(xa), rel(xb)]
  if (ra.length === 1 && rb.length === 1 && ra[0]!.unit !== rb[0]!.unit) {
    const [x, y] = [relDays(ra[0]!), relDays(rb[0]!)]
    if (x && y && (x[1] < y[0] || y[1] < x[0])) return { kind: 'date', a: ra[0]!.text, b: rb[0]!.text, slots: [ra[0]!, rb[0]!] }
  }
  return null
}

/** The days from today a relative date can name, or null for units it does not know. */
function relDays(s: Extract<Slot, { kind: 'reldate' }>): [number, number] | null {
  const span = ({ day: 1, week: 7, weekend: 7, sprint: 14, month: 31, quarter: 92, year: 366 } as Record<string, number>)[s.unit]
  if (!span) return null
  if (span === 1) return [s.offset, s.offset]
  if (s.offset === 0) return [-(span - 1), span - 1]
  return s.offset > 0 ? [span * (s.offset - 1) + 1, span * (s.offset + 1) - 1] : [span * (s.offset - 1) + 1, span * (s.offset + 1) - 1]
}
