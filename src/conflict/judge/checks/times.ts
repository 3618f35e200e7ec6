import type { Slot } from '../../read/slot.js'
import { seasonFits, toUtc, type Zone } from '../../read/time-zones.js'
import type { Verdict } from './value-verdict.js'

// Clock times and windows of time: one instant read in every zone and season its text allows.

/** Compares two clock times, two windows, or a time with a window ("between 8 and 12" / "ETA 10:30"). */
export function compareTimes(a: Slot, b: Slot): Verdict {
  if (a.kind === 'span' && b.kind === 'span') return overlapTimes(a.start, b.start, a, b) ? 'equal' : 'differ'
  if (a.kind === 'span' || b.kind === 'span') {
    const [span, t] = (a.kind === 'span' ? [a, b] : [b, a]) as [Extract<Slot, { kind: 'span' }>, Slot]
    if (t.kind !== 'time') return 'incomparable'
    // "starts at 7" against "runs 6-8pm": the window's start, not a time inside it.
    if (t.edge) return overlapTimes(t.edge === 'start' ? span.start : span.end, t.minutes, span, t) ? 'equal' : 'differ'
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
  // Both clock times.
  const [x, y] = [a as Extract<Slot, { kind: 'time' }>, b as Extract<Slot, { kind: 'time' }>]
  return overlapTimes(x.minutes, y.minutes, x, y) ? 'equal' : 'differ'
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
export function withUtcDates(slots: readonly Slot[]): Slot[] {
  const times = slots.filter((s): s is Extract<Slot, { kind: 'time' }> => s.kind === 'time' && s.zone !== null)
  // A weekday alone shifts as a date does ("9am Wednesday, Auckland time" is Tuesday in UTC).
  const days = slots.filter((s): s is Extract<Slot, { kind: 'date' }> => s.kind === 'date' && (s.d !== undefined || (s.wd !== undefined && s.m === undefined)) && !s.end)
  if (times.length !== 1 || days.length !== 1) return [...slots]
  const [t, day] = [times[0]!, days[0]!]
  const out = [...slots]
  for (const season of [0, 1] as const) {
    if (!seasonFits(season, t.zone)) continue
    for (const m of t.minutes) {
      const shift = Math.floor((m - t.zone!.offsets[season]) / 1440)
      if (shift === 0) continue
      if (day.d === undefined) {
        out.push({ kind: 'date', wd: (day.wd! + shift + 7) % 7, text: `${day.text} (UTC)` })
        continue
      }
      const d = new Date(Date.UTC(day.y ?? 2001, (day.m ?? 1) - 1, day.d! + shift))
      const { wd: _wd, ...rest } = day
      out.push({ ...rest, ...(day.m !== undefined ? { m: d.getUTCMonth() + 1 } : {}), d: d.getUTCDate(), ...(day.y !== undefined ? { y: d.getUTCFullYear() } : {}), text: `${day.text} (UTC)` })
    }
  }
  return out
}
