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
