import type { Slot } from './slot.js'

/**
 * "tomorrow", "a week from today", "in 3 days" mean a date only against the day they were written.
 * When a text states that day itself ("(Tue 6 May) ships tomorrow", "noted Mon 3 Mar: starts a
 * week from today"), the relative date is resolved into a calendar date and the stated day, which
 * only dates the note, is dropped; otherwise relative dates stay relative and compare as such.
 */
export function resolveRelativeDates(slots: readonly Slot[], extents: ReadonlySet<Slot> = new Set()): Slot[] {
  const anchors = slots.filter((s): s is Extract<Slot, { kind: 'date' }> => s.kind === 'date' && s.m !== undefined && s.d !== undefined)
  const rel = slots.filter((s): s is Extract<Slot, { kind: 'reldate' }> => s.kind === 'reldate' && s.unit === 'day')
  // "staying for a week from 25 July": a week the stay lasts (an extent), not one ahead of the date (dates36).
  const weekAhead = slots.filter((s) => s.kind === 'measure' && s.dim === 'duration' && /\bweek\b/i.test(s.text) && !extents.has(s))
  if (anchors.length !== 1 || (rel.length === 0 && weekAhead.length === 0)) return [...slots]
  const anchor = anchors[0]!
  const y = anchor.y ?? yearFor(anchor.m!, anchor.d!, anchor.wd)
  let offset = 0
  for (const r of rel) offset += r.offset
  // "a week from today": the week is an offset, not a duration the text claims.
  if (weekAhead.length) offset += 7
  const day = new Date(Date.UTC(y, anchor.m! - 1, anchor.d! + offset))
  const resolved: Slot = {
    kind: 'date', y: day.getUTCFullYear(), m: day.getUTCMonth() + 1, d: day.getUTCDate(), wd: day.getUTCDay(),
    text: `${rel.map((r) => r.text).concat(weekAhead.map((w) => w.text)).join(' ')} (= ${day.toISOString().slice(0, 10)})`,
  }
  return [...slots.filter((s) => s !== anchor && !rel.includes(s as never) && !weekAhead.includes(s)), resolved]
}

/** The year near now in which day `d` of month `m` falls on weekday `wd` (or this decade's middle). */
function yearFor(m: number, d: number, wd: number | undefined): number {
  const base = new Date().getUTCFullYear()
  if (wd === undefined) return base
  for (let k = 0; k < 12; k++) {
    for (const y of [base - k, base + k]) if (new Date(Date.UTC(y, m - 1, d)).getUTCDay() === wd) return y
  }
  return base
}
