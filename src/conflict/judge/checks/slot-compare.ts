import type { Slot, Slots } from '../../read/slot.js'
import { compareDates, relativeDateClash } from './dates.js'
import { adapt, compareQuantities, withinBound, withSpanDurations } from './quantities.js'
import { compareTimes, withUtcDates } from './times.js'
import type { Clash, Verdict } from './value-verdict.js'

// Two texts' slots compared family by family: which values agree and which clash. How each kind of
// value compares is in times.ts, dates.ts and quantities.ts; the check that turns a clash into a
// signal is values.ts.

/** The comparable family of a slot: only slots of one family are compared. */
export function family(s: Slot): string {
  switch (s.kind) {
    case 'span': return 'time'
    case 'measure': return `measure:${s.dim}`
    case 'count': return `count:${s.unit}`
    case 'freq': return 'freq'
    case 'reldate': return `reldate:${s.unit}`
    default: return s.kind
  }
}

/** Compares two slots of one family. */
export function compare(a: Slot, b: Slot, approx: boolean): Verdict {
  if (a.kind === 'span' || b.kind === 'span') return compareTimes(a, b)
  if (a.kind !== b.kind) return 'incomparable'
  const bounded = withinBound(a, b)
  if (bounded !== null) return bounded
  switch (a.kind) {
    case 'time': return compareTimes(a, b)
    case 'date':
    case 'reldate': return compareDates(a, b as typeof a)
    default: return compareQuantities(a, b as typeof a, approx)
  }
}

/**
 * Slots of one family present on both sides: they clash when no reading of one equals a reading of
 * the other (one equal pair means the texts agree on that family; the rest is added detail).
 * A bare count ("table for 6") is compared with a counted one ("8 people") only when each text has
 * a single count, and a bare amount ("25k") with money when the other side's amount is money.
 */
export function compareSlots(sa: Slots, sb: Slots): { readonly clashes: readonly Clash[]; readonly agreements: number } {
  const approx = sa.approximate || sb.approximate
  const [xa, xb] = [adapt(withUtcDates(withSpanDurations(sa.slots)), sb.slots), adapt(withUtcDates(withSpanDurations(sb.slots)), sa.slots)]
  const clashes: Clash[] = []
  let agreements = 0
  const fams = new Set(xa.map(family).filter((f) => xb.some((s) => family(s) === f)))
  for (const f of fams) {
    const pa = xa.filter((s) => family(s) === f)
    const pb = xb.filter((s) => family(s) === f)
    // Values that find an equal partner agree; a clash is between two that found none
    // ("Q3, week of July 8" / "Q3, week of July 22": the quarters agree, the weeks do not).
    const matched = (p: Slot, others: readonly Slot[], flip: boolean): boolean =>
      others.some((q) => (flip ? compare(q, p, approx) : compare(p, q, approx)) === 'equal')
    const ua = pa.filter((p) => !matched(p, pb, false))
    const ub = pb.filter((q) => !matched(q, pa, true))
    if (ua.length < pa.length) agreements++
    let differ: [Slot, Slot] | null = null
    for (const p of ua) for (const q of ub) if (!differ && compare(p, q, approx) === 'differ') differ = [p, q]
    if (differ) clashes.push({ kind: f.replace(/^(measure|count|freq|reldate):/, ''), a: differ[0].text, b: differ[1].text, slots: differ })
  }
  // "today" / "next week": relative dates of two units (dates.ts).
  const rel = relativeDateClash(xa, xb)
  if (rel) clashes.push(rel)
  return { clashes, agreements }
}
