import type { Slot } from '../../read/slot.js'
import type { Verdict } from './value-verdict.js'

// Amounts: money, percentages, measures in base units, counts, frequencies, versions; bounds on
// them ("under 6 hours"), and durations hidden in spans and ranges of days.

type Quantity = Extract<Slot, { kind: 'money' | 'percent' | 'measure' | 'count' | 'freq' | 'version' }>

const close = (x: number, y: number, rel: number): boolean => Math.abs(x - y) <= rel * Math.max(Math.abs(x), Math.abs(y)) + 1e-9

/** Compares two amounts of one kind. */
export function compareQuantities(a: Quantity, b: Quantity, approx: boolean): Verdict {
  const tol = approx ? 0.1 : 0.01
  switch (a.kind) {
    case 'money': {
      const o = b as typeof a
      if (a.currency && o.currency && a.currency !== o.currency) return 'incomparable'
      // "$1,200 per person" / "$2,400 for the two of us": a price per head is not the total.
      if (!a.per !== !o.per && !PER_YEAR[(a.per ?? o.per)!]) return 'incomparable'
      if (a.per && o.per && a.per !== o.per) {
        // "$2,100 a month" / "25.2k a year": amounts per periods of time compare per year.
        const [pa, po] = [PER_YEAR[a.per], PER_YEAR[o.per]]
        if (!pa || !po) return 'incomparable'
        return close(a.amount * pa, o.amount * po, approx ? 0.1 : 0.005) ? 'equal' : 'differ'
      }
      return close(a.amount, o.amount, approx ? 0.1 : 1e-9) ? 'equal' : 'differ'
    }
    case 'percent': return close(a.value, (b as typeof a).value, approx ? 0.05 : 1e-9) ? 'equal' : 'differ'
    case 'measure': {
      const o = b as typeof a
      // A range agrees with what falls inside it, and with a range it meets.
      if (a.range || o.range) {
        const [x0, x1] = [Math.min(...a.bases), Math.max(...a.bases)]
        const [y0, y1] = [Math.min(...o.bases), Math.max(...o.bases)]
        return x0 <= y1 * (1 + tol) && y0 <= x1 * (1 + tol) ? 'equal' : 'differ'
      }
      // Temperatures agree within a degree: 4°C is 39.2°F, and people round.
      if (a.dim === 'temperature') return a.bases.some((x) => o.bases.some((y) => Math.abs(x - y) <= (approx ? 1.5 : 1))) ? 'equal' : 'differ'
      return a.bases.some((x) => o.bases.some((y) => close(x, y, tol))) ? 'equal' : 'differ'
    }
    case 'count':
      // Bare decimals ("Ruby 3.3") are versions or measures, not counts.
      if (a.unit === '' && (!Number.isInteger(a.value) || !Number.isInteger((b as typeof a).value))) return 'incomparable'
      return close(a.value, (b as typeof a).value, approx ? 0.1 : 1e-9) ? 'equal' : 'differ'
    case 'freq': {
      // Per-period rates: "twice a month" is not "weekly"; compare as events per year.
      const perYear = (x: typeof a): number => x.value * ({ hour: 8766, day: 365, week: 52, fortnight: 26, month: 12, quarter: 4, year: 1 } as Record<string, number>)[x.per]!
      return close(perYear(a), perYear(b as typeof a), 0.05) ? 'equal' : 'differ'
    }
    case 'version': {
      // "MySQL 8" and "MySQL 8.0.36": the shorter one is a prefix of the longer, a refinement.
      const [x, y] = [a.parts, (b as typeof a).parts]
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return 'differ'
      return 'equal'
    }
  }
}

const PER_YEAR: Record<string, number> = { hour: 2080, day: 365, night: 365, week: 52, fortnight: 26, month: 12, mo: 12, quarter: 4, year: 1, yr: 1, annum: 1 }

/** Durations hidden in spans ("1–3pm" lasts 2 hours), so they agree or clash with stated durations. */
export function withSpanDurations(slots: readonly Slot[]): Slot[] {
  const out = [...slots]
  for (const s of slots) {
    // "May 12–15" lasts four days, counted inclusively as people count days of an event.
    if (s.kind === 'date' && s.end && s.m !== undefined && s.d !== undefined) {
      const days = Math.round((Date.UTC(2001, s.end.m - 1, s.end.d) - Date.UTC(2001, s.m - 1, s.d)) / 86400000) + 1
      // Over a week people count the days between ("Jan 5 to Feb 16" is six weeks) as often.
      out.push({ kind: 'measure', dim: 'duration', bases: days > 7 ? [days * 86400, (days - 1) * 86400] : [days * 86400], text: s.text })
    }
    if (s.kind !== 'span' || s.start.length !== 1 || s.end.length !== 1) continue
    const mins = (((s.end[0]! - s.start[0]!) % 1440) + 1440) % 1440
    out.push({ kind: 'measure', dim: 'duration', bases: [mins * 60], text: s.text })
  }
  return out
}

/** Re-reads bare counts against the other side: as money, or as the other's single count. */
export function adapt(mine: readonly Slot[], other: readonly Slot[]): Slot[] {
  const otherMoney = other.some((s) => s.kind === 'money')
  const counts = mine.filter((s) => s.kind === 'count')
  const otherCounts = other.filter((s) => s.kind === 'count')
  return mine.map((s) => {
    if (s.kind !== 'count') return s
    if (otherMoney && !mine.some((m) => m.kind === 'money') && (s.unit === '' || s.unit.startsWith('/')) && (s.value >= 1000 || /k\b/i.test(s.text))) {
      const per = s.unit.includes('/') ? s.unit.split('/')[1]! : null
      return { kind: 'money', amount: s.value, currency: null, per, text: s.text }
    }
    const single = otherCounts.length === 1 && counts.length === 1 ? otherCounts[0]! : null
    // Decimals ("Ruby 3.3") are versions or measures, never a count to compare with another's count.
    const decimal = (x: Slot): boolean => x.kind === 'count' && !Number.isInteger(x.value)
    // Bare numbers of three digits and more are codes ("returns 429") more often than amounts.
    const code = (x: Slot): boolean => x.kind === 'count' && x.unit === '' && x.value >= 100 && !/[k,]/i.test(x.text)
    // "down to about 6,800" / "two payments left": a bare number a thousand times the other's count
    // is another quantity (a balance, an amount), not a number of the same things (issue 27, second round).
    const apart = single && single.kind === 'count' && Math.max(s.value, single.value) >= 1000 * Math.max(1, Math.min(s.value, single.value))
    if (single && single.kind === 'count' && (s.unit === '' || single.unit === '') && !decimal(s) && !decimal(single) && !code(s) && !code(single) && !apart) return { ...s, unit: single.unit || s.unit }
    return s
  })
}

/** One side a bound ("under 6 hours"), the other a value: they agree when the value keeps to it. */
export function withinBound(a: Slot, b: Slot): Verdict | null {
  const amount = (s: Slot): number[] | null =>
    s.kind === 'measure' ? [...s.bases] : s.kind === 'count' ? [s.value] : s.kind === 'money' ? [s.amount] : null
  const bound = (s: Slot): 'max' | 'min' | undefined => ('bound' in s ? s.bound : undefined)
  const [ba, bb] = [bound(a), bound(b)]
  if ((ba && bb) || (!ba && !bb)) return null
  const [limit, value, kind] = ba ? [a, b, ba] : [b, a, bb!]
  const [l, v] = [amount(limit), amount(value)]
  if (!l || !v) return null
  // People round conversions ("15 mph" is 24.1 km/h, "keep it under 24 km/h"): 2 % slack.
  const ok = v.some((x) => l.some((y) => (kind === 'max' ? x <= y * 1.02 : x >= y * 0.98)))
  return ok ? 'equal' : 'differ'
}
