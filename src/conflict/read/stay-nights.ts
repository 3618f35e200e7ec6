import type { Slot } from './slot.js'

/**
 * A stay stated by its ends ("check in Thursday, check out Saturday") is a number of nights, so it
 * can agree or clash with "3 nights". Weekdays wrap around the week; calendar days within a month.
 */
export function stayNights(text: string, slots: readonly Slot[], at: ReadonlyMap<Slot, number>): Slot | null {
  const inAt = /\bcheck(?:ing|s|ed)?[-\s]?in(?:to)?\b/i.exec(text)?.index
  if (inAt === undefined) return null
  // "checking in on the 10th and out on the 13th": the second "out" borrows the first verb.
  const outAt = /\bcheck(?:ing|s|ed)?[-\s]?out\b/i.exec(text)?.index ?? afterAt(/\b(?:and|then)\s+out\b/, text, inAt)
  return nightsBetween(inAt, outAt, slots, at)
}

/**
 * A trip told by its ends ("fly out the 2nd, back the 5th") lasts its days counted inclusively, as
 * "May 2–5" does, so it can agree or clash with "a 4-day trip".
 */
export function tripDays(text: string, slots: readonly Slot[], at: ReadonlyMap<Slot, number>): Slot | null {
  const out = /\b(?:fly(?:ing)?\s+out|flies\s+out|leav(?:e|es|ing)|depart(?:s|ing)?|head(?:s|ing)?\s+out)\b/i.exec(text)?.index
  if (out === undefined) return null
  const back = afterAt(/\b(?:back|return(?:s|ing)?|home)\b/i, text, out)
  const nights = nightsBetween(out, back, slots, at)
  if (!nights || nights.kind !== 'count') return null
  return { kind: 'measure', dim: 'duration', bases: [(nights.value + 1) * 86400], text: nights.text.replace(/\(\d+ nights\)/, `(${nights.value + 1} days)`) }
}

function afterAt(re: RegExp, text: string, from: number): number | undefined {
  const m = re.exec(text.slice(from))
  return m ? from + m.index : undefined
}

function nightsBetween(inAt: number, outAt: number | undefined, slots: readonly Slot[], at: ReadonlyMap<Slot, number>): Slot | null {
  if (outAt === undefined) return null
  const dates = slots.filter((s): s is Extract<Slot, { kind: 'date' }> => s.kind === 'date')
  const after = (pos: number): Extract<Slot, { kind: 'date' }> | undefined =>
    dates.filter((d) => (at.get(d) ?? -1) > pos).sort((x, y) => (at.get(x) ?? 0) - (at.get(y) ?? 0))[0]
  const [from, to] = [after(inAt), after(outAt)]
  if (!from || !to || from === to) return null
  let nights: number | null = null
  if (from.d !== undefined && to.d !== undefined && (from.m === to.m || from.m === undefined || to.m === undefined)) nights = to.d - from.d
  else if (from.wd !== undefined && to.wd !== undefined) nights = (to.wd - from.wd + 7) % 7 || 7
  if (nights === null || nights <= 0) return null
  return { kind: 'count', value: nights, unit: 'night', text: `${from.text} to ${to.text} (${nights} nights)` }
}

/**
 * The check-out day of a stay told by its start and its nights ("4 nights from Mon 6 Apr",
 * "3 nights, check-in Fri 5 Jun"): so it agrees or clashes with a stated check-out day.
 */
export function stayEnd(slots: readonly Slot[]): Slot | null {
  const nights = slots.filter((s): s is Extract<Slot, { kind: 'count' }> => s.kind === 'count' && s.unit === 'night' && !s.bound)
  const days = slots.filter((s): s is Extract<Slot, { kind: 'date' }> => s.kind === 'date' && s.m !== undefined && s.d !== undefined && !s.end)
  if (nights.length !== 1 || days.length !== 1 || !Number.isInteger(nights[0]!.value)) return null
  const [n, from] = [nights[0]!.value, days[0]!]
  const y = from.y ?? 2001
  const day = new Date(Date.UTC(y, from.m! - 1, from.d! + n))
  return {
    kind: 'date', ...(from.y ? { y } : {}), m: day.getUTCMonth() + 1, d: day.getUTCDate(), ...(from.wd !== undefined ? { wd: (from.wd + n) % 7 } : {}),
    text: `${from.text} + ${n} nights (check-out ${day.toISOString().slice(from.y ? 0 : 5, 10)})`,
  }
}

/**
 * The end of a term told by its start and length ("12 months from Sept 1", "2 years from purchase
 * (Mar 2024)"): the day it ends, and the day before (people count both), so it agrees or clashes
 * with a stated end.
 */
export function termEnd(text: string, slots: readonly Slot[]): Slot[] {
  if (!/\b(?:from|starting|beginning|after)\b/i.test(text)) return []
  const lengths = slots.filter((s): s is Extract<Slot, { kind: 'measure' }> => s.kind === 'measure' && s.dim === 'duration' && !s.range && !s.bound)
  const starts = slots.filter((s): s is Extract<Slot, { kind: 'date' }> => s.kind === 'date' && s.m !== undefined && !s.end && !s.wds)
  if (lengths.length !== 1 || starts.length !== 1) return []
  const [len, from] = [lengths[0]!, starts[0]!]
  const told = /(\d+)\s*(month|year|yr)s?\b/i.exec(len.text)
  const months = told ? Number(told[1]) * (/^mo/i.test(told[2]!) ? 1 : 12) : NaN
  const out: Slot[] = []
  if (Number.isInteger(months) && months > 0) {
    const end = new Date(Date.UTC(from.y ?? 2001, from.m! - 1 + months, from.d ?? 1))
    const y = from.y !== undefined ? { y: end.getUTCFullYear() } : {}
    if (from.d === undefined) return [{ kind: 'date', ...y, m: end.getUTCMonth() + 1, text: `${from.text} + ${len.text}` }]
    for (const back of [0, 1]) {
      const d = new Date(end.getTime() - back * 86400000)
      out.push({ kind: 'date', ...(from.y !== undefined ? { y: d.getUTCFullYear() } : {}), m: d.getUTCMonth() + 1, d: d.getUTCDate(), text: `${from.text} + ${len.text}` })
    }
  }
  return out
}
