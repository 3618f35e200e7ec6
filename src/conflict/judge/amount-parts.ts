import type { Reading } from '../read/reading.js'
import { isPastVerb } from '../read/claim-kind.js'
import { sameStem } from '../read/same-stem.js'
import { stem } from '../read/stem.js'
import { ONE_OCCASION, USUAL } from '../words/markers.js'
import { RATE_AFTER, RATE_IN, RUNNING_TOTAL, SUM_ROLES } from '../words/amount-roles.js'
import { MEASURE_VERBS } from '../words/event-verbs.js'
import { locate } from './value-of.js'
import type { RawVerdict } from './verdict.js'

/**
 * Amounts and measures of two parts or instances of one thing (issue 27, session 13, rule 33).
 * In notes about one user, "paid a £2,000 deposit" / "paid the remaining £5,900" / "costs £7,900"
 * are three amounts of one sum, and "ran a 5-mile tempo run" / "after a 14-mile run" two runs of
 * many: neither pair says one thing twice. Three readings, one function each, so each can be
 * switched off alone: the role an amount plays in its sum, the occurrence a measure is of, and the
 * thing a measure is said of by a copula. "The engine cost £7,900" / "£5,900", "the rent is £900 a
 * month" / "£950 a month" and "the long run is twelve miles" / "ten miles" keep their flags.
 */

const MONEY_CLASH = /^different money: "([^"]+)" vs "([^"]+)"/
const MEASURE_CLASH = /^different (?:length|distance|duration): "([^"]+)" vs "([^"]+)"/

/** Where the two clashing values stand, and their texts, or null. */
function places(raw: RawVerdict, a: Reading, b: Reading, re: RegExp): [[number, string], [number, string]] | null {
  const m = re.exec(raw.reason)
  if (!m) return null
  const [pa, pb] = [locate(a, m[1]!, raw.signal?.at?.[0] ?? -1), locate(b, m[2]!, raw.signal?.at?.[1] ?? -1)]
  return pa < 0 || pb < 0 ? null : [[pa, m[1]!], [pb, m[2]!]]
}

/** The clause around a value: its words before and after, up to a mark that ends a clause (not a digit's comma). */
function clause(r: Reading, at: number, text: string): [string, string] {
  const before = r.norm.slice(Math.max(0, at - 48), at)
  const cut = before.replace(/(?<=\d)[.,](?=\d)/g, '0').search(/[.;!?,:(][^.;!?,:(]*$/)
  const after = r.norm.slice(at + text.length, at + text.length + 40)
  return [cut >= 0 ? before.slice(cut + 1) : before, after.replace(/[.;!?(].*$/s, '')]
}

/** The role of the amount `text` at `at` in its sum ("deposit", "remainder", "rate" ...), or null for a plain amount. */
export function sumRole(r: Reading, at: number, text: string): string | null {
  const [before, after] = clause(r, at, text)
  for (const { role, before: b, after: f } of SUM_ROLES) if (b?.test(before) || f?.test(after)) return role
  return RATE_IN.test(text) || RATE_AFTER.test(after) ? 'rate' : null
}

const amountOf = (text: string): number => Number(/\d[\d,]*(?:\.\d+)?/.exec(text)?.[0].replace(/,/g, '') ?? NaN)

/**
 * Two amounts that play two roles in one sum: a deposit and the remainder, a half and a refund, a
 * yearly rate and what is saved. A part against a plain amount is one when the part is the smaller
 * ("for £7,900" / "paid the remaining £5,900"; a remainder above the price stays flagged). A rate
 * against a plain amount, or one role twice ("£900 a month" / "£950 a month"), keeps the clash.
 */
export function partsOfOneSum(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const at = places(raw, a, b, MONEY_CLASH)
  if (!at) return null
  const [[pa, ta], [pb, tb]] = at
  const [ra, rb] = [sumRole(a, pa, ta), sumRole(b, pb, tb)]
  if (ra === rb) return null
  const plain = (r: string | null): boolean => r === null || r === 'total'
  if (plain(ra) && plain(rb)) return null
  if (ra === 'rate' || rb === 'rate') {
    if (plain(ra) || plain(rb)) return null
  } else if (plain(ra) || plain(rb)) {
    // A part is less than the whole it is part of.
    const [part, whole] = plain(ra) ? [amountOf(tb), amountOf(ta)] : [amountOf(ta), amountOf(tb)]
    if (!(part < whole)) return null
  }
  return `"${ta}" (${ra ?? 'whole'}) and "${tb}" (${rb ?? 'whole'}): two parts of one sum`
}

/**
 * Two moments of a total that grows as items are added: "the running total is €62,300" / "that
 * brings the total to €82,600". One side says the total runs, the other says a total too; two
 * totals said plainly ("the total is €300" / "the total is €340") keep the clash.
 */
export function runningTotal(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const at = places(raw, a, b, MONEY_CLASH)
  if (!at) return null
  const [[pa, ta], [pb, tb]] = at
  const [ca, cb] = [clause(a, pa, ta)[0], clause(b, pb, tb)[0]]
  const runs = (c: string): boolean => RUNNING_TOTAL.test(c)
  const total = (c: string): boolean => /\btotal\b/i.test(c)
  return (runs(ca) && total(cb)) || (runs(cb) && total(ca)) ? `"${ta}" and "${tb}": a running total at two moments` : null
}

// A measure compounded with its unit: "14-mile", "11-kilometre", "3-hour".
const COMPOUND = /^\S+-\p{L}+$/u
// Words that may stand between a verb and the measure it governs: "ran about 10 miles".
const HEDGE = String.raw`(?:about|around|nearly|almost|over|just|only|roughly|another)`
// What lasts or adds up, against one time something was done: "this week", "the usual", "has done 480 miles".
const CURRENT = /\b(?:this|these)\s+(?:week|weeks|month|days)\b|\b(?:usual|current(?:ly)?|so far|to date)\b/i
const CUMULATIVE = /\b(?:have|has|had)\s+(?:done|covered|logged|clocked)\s+(?:about\s+|over\s+|nearly\s+)?$/i

/** Whether the measure at `at` tells one time an activity was done: "a 14-mile run", "ran 10 miles", "rode 35 kilometres". */
export function oneTimeDone(r: Reading, at: number, text: string): boolean {
  const [before] = clause(r, at, text)
  // "a 14-mile run", "ran a 30-mile fell race"; not "Lapwing is a 57-foot trad" (a description).
  if (COMPOUND.test(text) && /\b(?:a|an|another)\s+(?:[\p{L}-]+\s+)?$/iu.test(before) && !/\b(?:is|was|are|were|be|been)\s+(?:a|an)\s+(?:[\p{L}-]+\s+)?$/iu.test(before)) return true
  const verb = new RegExp(String.raw`\b(\p{Ll}+)\s+(?:${HEDGE}\s+)?$`, 'u').exec(before)?.[1]
  // "took 3 hours", "cost £40": a verb that measures says how much one known thing was, not one time of many.
  return !!verb && !/^(?:was|were|had|did|been)$/.test(verb) && !MEASURE_VERBS.has(verb) && isPastVerb(verb)
}

/**
 * Two measures of two times an activity was done, or of one time against the usual or the
 * running total: "after a 14-mile run" / "ran sixteen miles", "the long run is twelve miles this
 * week" / "a 14-mile run", "a 5-mile tempo run" / "the shoes have done 480 miles". Two times told
 * of one occasion ("ran 5 km this morning" / "ran 10 km this morning") keep the clash.
 */
export function twoTimesDone(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const at = places(raw, a, b, MEASURE_CLASH)
  if (!at) return null
  const [[pa, ta], [pb, tb]] = at
  const [oa, ob] = [oneTimeDone(a, pa, ta), oneTimeDone(b, pb, tb)]
  if (oa && ob) {
    const occasion = (r: Reading): string | undefined => ONE_OCCASION.exec(r.norm)?.[0].toLowerCase() ?? r.slots.slots.find((s) => s.kind === 'date')?.text.toLowerCase()
    const [xa, xb] = [occasion(a), occasion(b)]
    return xa !== undefined && xa === xb ? null : `"${ta}" and "${tb}" are two times it was done`
  }
  if (oa === ob) return null
  const [other, po, to] = oa ? [b, pb, tb] : [a, pa, ta]
  const lasting = USUAL.test(other.norm) || CURRENT.test(other.norm) || CUMULATIVE.test(clause(other, po, to)[0])
  return lasting ? `"${oa ? ta : tb}" is one time it was done, "${to}" the usual or the running total` : null
}

// "Lapwing is 62 feet long", "the user's long run is twelve miles": the noun a copula says the measure
// of; a phrase after it is its modifier ("the train from the airport is": the train's).
const COPULA_SUBJECT = /([\p{L}-]+)(?:['’]s)?(?:\s+(?:from|to|of|in|at|on|for|with|near|over|across|along|around|between)\s+(?:the\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?)?\s+(?:is|was|are|were)\s+(?:now\s+)?(?:(?:about|around|just|only|roughly|nearly|over)\s+)?(?:(?:a|an|the)\s+)?$/u

/**
 * Two measures said by a copula of two things: "the long run is twelve miles" / "Lapwing is 62
 * feet long". The subject is the noun right before "is"; one subject ("Lapwing is a 57-foot trad" /
 * "Lapwing is 62 feet long") keeps the clash.
 */
export function measuresOfTwo(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const at = places(raw, a, b, MEASURE_CLASH)
  if (!at) return null
  const subject = (r: Reading, p: number, t: string): string | null => COPULA_SUBJECT.exec(clause(r, p, t)[0])?.[1]?.toLowerCase() ?? null
  const [sa, sb] = [subject(a, ...at[0]), subject(b, ...at[1])]
  if (!sa || !sb || sameStem(stem(sa), stem(sb))) return null
  return `measures of two things ("${sa}" / "${sb}")`
}
