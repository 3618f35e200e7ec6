import type { Slot, Slots } from '../read/slot.js'
import { seasonFits, toUtc, type Zone } from '../read/time-zones.js'
import { compareDateParts } from '../read/values.js'

/** Two slots that disagree, for the reason shown to a person. */
export interface Clash {
  readonly kind: string
  readonly a: string
  readonly b: string
  /** The two slots, to look at what each is attached to. */
  readonly slots: readonly [Slot, Slot]
}

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

export type Verdict = 'equal' | 'differ' | 'incomparable'

const close = (x: number, y: number, rel: number): boolean => Math.abs(x - y) <= rel * Math.max(Math.abs(x), Math.abs(y)) + 1e-9

/** Compares two slots of one family. */
export function compare(a: Slot, b: Slot, approx: boolean): Verdict {
  const tol = approx ? 0.1 : 0.01
  if (a.kind === 'span' && b.kind === 'span') return overlapTimes(a.start, b.start, a, b) ? 'equal' : 'differ'
  if (a.kind === 'span' || b.kind === 'span') {
    const [span, t] = (a.kind === 'span' ? [a, b] : [b, a]) as [Extract<Slot, { kind: 'span' }>, Slot]
    if (t.kind !== 'time') return 'incomparable'
    // A time inside a window agrees with it ("between 8 and 12" / "ETA 10:30").
    for (const season of [0, 1] as const) {
      if (!seasonFits(season, span.zone, t.zone)) continue
      for (const s of span.start) for (const e of span.end) for (const m of t.minutes) {
        const [zs, zt] = [span.zone ?? t.zone, t.zone ?? span.zone]
        const [us, ue, um] = [toUtc(s, zs, season), toUtc(e, zs, season), toUtc(m, zt, season)]
        if (us <= ue ? um >= us && um <= ue : um >= us || um <= ue) return 'equal'
      }
    }
    return 'differ'
  }
  if (a.kind !== b.kind) return 'incomparable'
  const bounded = withinBound(a, b)
  if (bounded !== null) return bounded
  switch (a.kind) {
    case 'time': return overlapTimes(a.minutes, (b as typeof a).minutes, a, b as typeof a) ? 'equal' : 'differ'
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

type DateSlot = Extract<Slot, { kind: 'date' }>

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

/** Clock times agree when some reading of each is the same instant, both read in the same season. */
function overlapTimes(x: readonly number[], y: readonly number[], a: { readonly zone: Zone | null }, b: { readonly zone: Zone | null }): boolean {
  // A time without a zone is read in the other side's zone ("9:30 ET" / "at 9:30" agree).
  const [za, zb] = [a.zone ?? b.zone, b.zone ?? a.zone]
  for (const season of [0, 1] as const) {
    if (!seasonFits(season, za, zb)) continue
    for (const p of x) for (const q of y) if (toUtc(p, za, season) === toUtc(q, zb, season)) return true
  }
  return false
}

/**
 * "8pm EST on the 19th" is 01:00 UTC on the 20th: with one zoned clock time, the text's day is
 * also read as the UTC day it falls on, so it agrees with a day written in another zone.
 */
function withUtcDates(slots: readonly Slot[]): Slot[] {
  const times = slots.filter((s): s is Extract<Slot, { kind: 'time' }> => s.kind === 'time' && s.zone !== null)
  const days = slots.filter((s): s is Extract<Slot, { kind: 'date' }> => s.kind === 'date' && s.d !== undefined && !s.end)
  if (times.length !== 1 || days.length !== 1) return [...slots]
  const [t, day] = [times[0]!, days[0]!]
  const out = [...slots]
  for (const season of [0, 1] as const) {
    if (!seasonFits(season, t.zone)) continue
    for (const m of t.minutes) {
      const shift = Math.floor((m - t.zone!.offsets[season]) / 1440)
      if (shift === 0) continue
      const d = new Date(Date.UTC(day.y ?? 2001, (day.m ?? 1) - 1, day.d! + shift))
      const { wd: _wd, ...rest } = day
      out.push({ ...rest, ...(day.m !== undefined ? { m: d.getUTCMonth() + 1 } : {}), d: d.getUTCDate(), ...(day.y !== undefined ? { y: d.getUTCFullYear() } : {}), text: `${day.text} (UTC)` })
    }
  }
  return out
}

/** Durations hidden in spans ("1–3pm" lasts 2 hours), so they agree or clash with stated durations. */
function withSpanDurations(slots: readonly Slot[]): Slot[] {
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
  // "today" / "next week", "tomorrow" / "last month": relative dates of two units clash when the
  // days they can name do not overlap ("tomorrow" may fall in "next week" and agrees with it).
  const rel = (xs: readonly Slot[]): Array<Extract<Slot, { kind: 'reldate' }>> => xs.filter((x): x is Extract<Slot, { kind: 'reldate' }> => x.kind === 'reldate')
  const [ra, rb] = [rel(xa), rel(xb)]
  if (ra.length === 1 && rb.length === 1 && ra[0]!.unit !== rb[0]!.unit) {
    const [x, y] = [relDays(ra[0]!), relDays(rb[0]!)]
    if (x && y && (x[1] < y[0] || y[1] < x[0])) clashes.push({ kind: 'date', a: ra[0]!.text, b: rb[0]!.text, slots: [ra[0]!, rb[0]!] })
  }
  return { clashes, agreements }
}

/** Re-reads bare counts against the other side: as money, or as the other's single count. */
function adapt(mine: readonly Slot[], other: readonly Slot[]): Slot[] {
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
    if (single && single.kind === 'count' && (s.unit === '' || single.unit === '') && !decimal(s) && !decimal(single) && !code(s) && !code(single)) return { ...s, unit: single.unit || s.unit }
    return s
  })
}

/** One side a bound ("under 6 hours"), the other a value: they agree when the value keeps to it. */
function withinBound(a: Slot, b: Slot): Verdict | null {
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

/** The days from today a relative date can name, or null for units it does not know. */
function relDays(s: Extract<Slot, { kind: 'reldate' }>): [number, number] | null {
  const span = ({ day: 1, week: 7, weekend: 7, sprint: 14, month: 31, quarter: 92, year: 366 } as Record<string, number>)[s.unit]
  if (!span) return null
  if (span === 1) return [s.offset, s.offset]
  if (s.offset === 0) return [-(span - 1), span - 1]
  return s.offset > 0 ? [span * (s.offset - 1) + 1, span * (s.offset + 1) - 1] : [span * (s.offset - 1) + 1, span * (s.offset + 1) - 1]
}
