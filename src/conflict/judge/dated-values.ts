import type { Reading } from '../read/reading.js'
import type { Slot } from '../read/slot.js'

/**
 * Two values, each told at its own date: "was paid 38p a litre in April 2025" / "36p a litre in
 * spring 2024" are two states at two dates, a change over time, not a clash (session 12, anchor32).
 * A date that anchors a claim is not the claim's value: when two calendar dates (a month or a year
 * said) differ and each text states another number the other does not, the dates say when, and
 * neither the dates nor the numbers contradict. A date that is the claim's value ("started at the
 * clinic in 2021" / "in 2019") has nothing else that differs and keeps its clash; so does a pair
 * whose dates agree (then only the values differ), and one side told as lasting ("still").
 */
export function datedValues(a: Reading, b: Reading, dates: readonly [Slot, Slot]): boolean {
  const calendar = (s: Slot): boolean => s.kind === 'date' && (s.m !== undefined || s.y !== undefined)
  if (!dates.every(calendar) || STILL.test(a.norm) || STILL.test(b.norm)) return false
  if (!anchors(a, dates[0]) || !anchors(b, dates[1])) return false
  const [na, nb] = [numbers(a), numbers(b)]
  return na.some((n) => !nb.includes(n)) && nb.some((n) => !na.includes(n))
}

/**
 * The date is said as when the rest held ("paid 38p in April 2025", "in spring 2024", "as of
 * 2023"), not as what is asked: "the open day is on 5 May", "the wedding is in June" give the date as
 * the claim's value.
 */
function anchors(r: Reading, date: Slot): boolean {
  const at = r.slots.at.get(date) ?? -1
  if (at < 0) return false
  const before = r.norm.slice(Math.max(0, at - 40), at)
  return ANCHOR.test(before) && !VALUE.test(before)
}

const SEASON = String.raw`(?:(?:early|late|mid|the\s+spring\s+of|spring|summer|autumn|fall|winter)[\s-]+)?`
const ANCHOR = new RegExp(String.raw`\b(?:in|during|as\s+of|by)\s+` + SEASON + '$', 'i')
const VALUE = new RegExp(String.raw`\b(?:is|are|was|were|be|been|will\s+be)\s+(?:in|during|by)\s+` + SEASON + '$', 'i')

const STILL = /\b(?:still|now|currently)\b/i

/** The numbers a text states outside its dates ("38p", "90"), as written. */
function numbers(r: Reading): string[] {
  const dated: Array<[number, number]> = []
  for (const [s, at] of r.slots.at) if (s.kind === 'date' && at >= 0) dated.push([at, at + s.text.length])
  return r.tokens
    .filter((t) => /\d/.test(t.lower) && !dated.some(([s, e]) => t.start >= s && t.end <= e) && !/^(?:19|20)\d\d$/.test(t.lower))
    .map((t) => t.lower)
}
