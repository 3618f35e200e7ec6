import { NUMBER_SRC, parseNumber } from './numbers.js'
import type { FoundValue, Value } from './values.js'
import { WEEKDAYS } from '../words/weekdays.js'
import { CAPITALIZED_MONTH_PATTERN, monthNumber } from '../words/months.js'

/**
 * Finds typed values in a text. Extractors run from the most specific pattern to the least
 * ("March 5, 2025" before "March", "$5 a month" before "5"), and a span claimed by one is not read
 * again, so every character belongs to at most one value.
 */
export function extractValues(text: string): FoundValue[] {
  const taken: Array<[number, number]> = []
  const out: FoundValue[] = []
  const free = (s: number, e: number): boolean => taken.every(([a, b]) => e <= a || s >= b)
  // A scale is no value of the thing it measures: claimed first, read as nothing.
  for (const m of text.matchAll(SCALE)) taken.push([m.index + m[0].length - (m[1] ?? m[2])!.length, m.index + m[0].length])
  for (const ex of EXTRACTORS) {
    ex.re.lastIndex = 0
    for (let m = ex.re.exec(text); m; m = ex.re.exec(text)) {
      if (m[0].length === 0) {
        ex.re.lastIndex++
        continue
      }
      const start = m.index
      let end = start + m[0].length
      if (!free(start, end)) continue
      const read = ex.read(m, text.slice(end))
      if (!read) continue
      end += read.extra ?? 0
      if (!free(start, end)) continue
      taken.push([start, end])
      out.push({ value: read.value, text: text.slice(start, end).trim(), start, end })
    }
  }
  return out.sort((a, b) => a.start - b.start)
}

interface Read {
  readonly value: Value
  /** Characters after the match that belong to the value too (a rate suffix, a unit word). */
  readonly extra?: number
}

interface Extractor {
  readonly re: RegExp
  read(m: RegExpExecArray, rest: string): Read | null
}

const N = NUMBER_SRC
/**
 * The bounds of a rating scale: "rates it from zero to ten", "on a scale of 1 to 5", "a 6 out of
 * ten" (next34). The bounds say how the thing is measured, not what it measures; a plain "from 3
 * to 5" (a change, a range) is not a scale. Group 1 is the span the scale claims.
 */
const SCALE = new RegExp(`\\b(?:(?:rat|scor|grad)(?:es|ed|ing)\\b[^.;]{0,40}?\\b|scale\\s+)((?:from|of)\\s+(?:${N})\\s+to\\s+(?:${N}))\\b|\\b(out\\s+of\\s+(?:10|ten|5|five|100|a\\s+hundred))\\b`, 'gi')
// Month names must be capitalized: "may" is a verb, "March" is a month.
const MONTH = CAPITALIZED_MONTH_PATTERN
// Beside a day number a month needs no capital: chat writes "june 3", "12 sept".
const MONTH_BY_DAY = MONTH.replace(/\b([A-Z])/g, (_m, c: string) => `[${c}${c.toLowerCase()}]`)
const month = monthNumber
const ORD = '(?:st|nd|rd|th)'
const PART_OF_DAY = '(?:\\s+in\\s+the\\s+(morning|afternoon|evening)|\\s+at\\s+night)?'
const TZ = '(?:\\s*(?:UTC|GMT|CET|CEST|BST|IST|JST|[ECMP][SD]T)\\b)?'
const RATE = /^\s*(?:\/\s*|per\s+|an?\s+|every\s+)(hour|hr|day|night|week|month|mo|year|yr|annum|request|call|user|seat|gallon|litre|liter|kg|unit|person|head|item|piece|minute|min|second|sec)s?\b/i

/** A word of paying right before an amount: "costs 12 pounds", "paid about 40 pounds", "rent of 950 pounds". */
const PAYING_BEFORE = /\b(?:costs?|costing|paid|pays?|paying|charged?|charges|earns?|earned|earning|spent|spends?|owes?|owed|worth|priced|price|fee|rent|wage|salary|for)\s+(?:of\s+)?(?:about\s+|around\s+|only\s+|just\s+|over\s+|under\s+)?$/i

const CURRENCY: Readonly<Record<string, string>> = {
  $: 'USD', usd: 'USD', dollar: 'USD', dollars: 'USD', bucks: 'USD', '€': 'EUR', eur: 'EUR', euro: 'EUR', euros: 'EUR',
  '£': 'GBP', gbp: 'GBP', '¥': 'JPY', yen: 'JPY', jpy: 'JPY', cent: 'USD', cents: 'USD',
}

const DURATION: Readonly<Record<string, number>> = {
  ms: 0.001, millisecond: 0.001, s: 1, sec: 1, second: 1, min: 60, minute: 60, h: 3600, hr: 3600, hour: 3600,
  day: 86400, week: 604800, wk: 604800, fortnight: 1209600, month: 2629800, mo: 2629800, year: 31557600, yr: 31557600,
  decade: 315576000,
}
const SIZE: Readonly<Record<string, number>> = {
  b: 1, byte: 1, kb: 1e3, kib: 1024, kilobyte: 1e3, mb: 1e6, mib: 1048576, megabyte: 1e6, gb: 1e9, gib: 1073741824,
  gigabyte: 1e9, tb: 1e12, tib: 1099511627776, terabyte: 1e12, pb: 1e15, petabyte: 1e15,
}
const LENGTH: Readonly<Record<string, number>> = {
  mm: 0.001, millimeter: 0.001, millimetre: 0.001, cm: 0.01, centimeter: 0.01, centimetre: 0.01, m: 1, meter: 1, metre: 1,
  km: 1000, kilometer: 1000, kilometre: 1000, mi: 1609.344, mile: 1609.344, ft: 0.3048, foot: 0.3048, feet: 0.3048,
  inch: 0.0254, inches: 0.0254,
}
const MASS: Readonly<Record<string, number>> = {
  mg: 0.001, milligram: 0.001, g: 1, gram: 1, kg: 1000, kilo: 1000, kilogram: 1000, lb: 453.59237, lbs: 453.59237,
  pound: 453.59237, oz: 28.349523125, ounce: 28.349523125, ton: 1e6, tonne: 1e6,
}
// Volumes in litres (US gallons, quarts, pints: the ones people quote), pressures in pascals,
// power in watts, energy in watt-hours.
const VOLUME: Readonly<Record<string, number>> = {
  ml: 0.001, millilitre: 0.001, milliliter: 0.001, l: 1, litre: 1, liter: 1, gal: 3.785411784, gallon: 3.785411784,
  qt: 0.946352946, quart: 0.946352946, pint: 0.473176473, 'fl oz': 0.0295735,
}
const PRESSURE: Readonly<Record<string, number>> = { pa: 1, hpa: 100, kpa: 1000, mbar: 100, bar: 1e5, psi: 6894.757, atm: 101325 }
const POWER: Readonly<Record<string, number>> = { watt: 1, kw: 1000, kilowatt: 1000, mw: 1e6, megawatt: 1e6, hp: 745.7, horsepower: 745.7 }
const ENERGY: Readonly<Record<string, number>> = { wh: 1, kwh: 1000, mwh: 1e6 }
const AREA: Readonly<Record<string, number>> = {
  'm²': 1, m2: 1, sqm: 1, 'sq m': 1, 'square meter': 1, 'square metre': 1, 'sq ft': 0.09290304, sqft: 0.09290304, 'square feet': 0.09290304, 'square foot': 0.09290304,
  'ft²': 0.09290304, acre: 4046.8564224, hectare: 10000, ha: 10000, 'km²': 1e6,
}
const UNIT_TABLES = [['duration', DURATION], ['size', SIZE], ['length', LENGTH], ['mass', MASS], ['volume', VOLUME], ['pressure', PRESSURE], ['power', POWER], ['energy', ENERGY], ['area', AREA]] as const
const UNIT_WORDS = UNIT_TABLES.map(([, t]) => t).flatMap((t) => Object.keys(t))
  .sort((a, b) => b.length - a.length)
  .map((u) => ((u.length > 2 || /^(?:hr|yr|wk|mo)$/.test(u)) && !u.endsWith('s') && u !== 'feet' ? `${u}s?` : u))
  .join('|')

function unitOf(word: string): { dim: (typeof UNIT_TABLES)[number][0]; factor: number } | null {
  const w = word.toLowerCase()
  // "hrs", "yrs", "wks", "mos": abbreviations' plurals are three letters.
  const singular = (w.length > 3 || /^(?:hrs|yrs|wks|mos)$/.test(w)) && w.endsWith('s') && w !== 'lbs' && w !== 'inches' ? w.slice(0, -1) : w
  for (const [dim, table] of UNIT_TABLES) {
    const f = (table as Record<string, number>)[w] ?? (table as Record<string, number>)[singular]
    if (f !== undefined) return { dim, factor: f }
  }
  return null
}

function rate(rest: string): { per: string | null; extra: number } {
  const m = RATE.exec(rest)
  if (!m) return { per: null, extra: 0 }
  let per = m[1]!.toLowerCase()
  per = ({ hr: 'hour', mo: 'month', yr: 'year', annum: 'year', min: 'minute', sec: 'second', liter: 'litre' } as Record<string, string>)[per] ?? per
  return { per, extra: m[0].length }
}

/** Hours given as digits or words, then am/pm resolution into minute candidates. */
function clock(hour: number, minute: number, meridiem: string | undefined, part: string | undefined, night = false): Value | null {
  if (!Number.isInteger(hour) || hour < 0 || hour > 24 || minute < 0 || minute > 59) return null
  const mer = meridiem?.toLowerCase().replace(/\./g, '')
  if (mer === 'am' || part === 'morning') return { type: 'time', minutes: [((hour % 12) * 60 + minute) % 1440] }
  if (mer === 'pm' || part === 'afternoon' || part === 'evening' || night) {
    const h = night && hour < 6 ? hour % 12 : (hour % 12) + 12
    return { type: 'time', minutes: [(h * 60 + minute) % 1440] }
  }
  if (hour === 0 || hour > 12) return { type: 'time', minutes: [(hour * 60 + minute) % 1440] }
  // "9:30" or "at 9" alone: morning or evening.
  return { type: 'time', minutes: [(hour % 12) * 60 + minute, ((hour % 12) + 12) * 60 + minute] }
}

const ordinalDay = (s: string): number => parseInt(s, 10)

const EXTRACTORS: readonly Extractor[] = [
  // ---- dates ----
  {
    re: /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g,
    read: (m) => ({ value: { type: 'date', y: +m[1]!, m: +m[2]!, d: +m[3]! } }),
  },
  {
    re: /\b(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\b/g,
    read: (m) => {
      let [mo, d] = [+m[1]!, +m[2]!]
      if (mo > 12) [mo, d] = [d, mo]
      const y = m[3]!.length === 2 ? 2000 + +m[3]! : +m[3]!
      return { value: { type: 'date', y, m: mo, d } }
    },
  },
  {
    re: new RegExp(`\\b(?:the\\s+)?(\\d{1,2})${ORD}?\\s+of\\s+(${MONTH_BY_DAY})(?:,?\\s+(\\d{4})\\b)?`, 'g'),
    read: (m) => ({ value: { type: 'date', m: month(m[2]!), d: +m[1]!, ...(m[3] ? { y: +m[3] } : {}) } }),
  },
  {
    re: new RegExp(`\\b(${MONTH_BY_DAY})\\s+(\\d{1,2})${ORD}?\\b(?![:.]\\d|\\s*%)(?:,?\\s+(\\d{4})\\b)?`, 'g'),
    read: (m) => ({ value: { type: 'date', m: month(m[1]!), d: +m[2]!, ...(m[3] ? { y: +m[3] } : {}) } }),
  },
  {
    re: new RegExp(`\\b(\\d{1,2})${ORD}?\\s+(${MONTH_BY_DAY})(?:,?\\s+(\\d{4})\\b)?`, 'g'),
    read: (m) => ({ value: { type: 'date', m: month(m[2]!), d: +m[1]!, ...(m[3] ? { y: +m[3] } : {}) } }),
  },
  {
    re: new RegExp(`\\b(${MONTH})\\s+(?:of\\s+)?(\\d{4})\\b`, 'g'),
    read: (m) => ({ value: { type: 'date', m: month(m[1]!), y: +m[2]! } }),
  },
  {
    re: /\b(?:on\s+)?(mon|tues|tue|wednes|wed|thurs|thu|fri|satur|sat|sun)(?:day)?s?\b/gi,
    read: (m) => {
      if (!/day/i.test(m[0]) && m[1]!.length <= 3 && m[1]![0] !== m[1]![0]!.toUpperCase()) return null
      // "SAT math", "the SAT": a short form in capitals is an abbreviation unless it reads as a
      // day ("on SAT", "SAT 14 Jul", "SAT 10-2").
      if (!/day/i.test(m[0]) && m[1] === m[1]!.toUpperCase() && !/^on\s/i.test(m[0]) && !/^\s*,?\s*\d/.test(m.input!.slice(m.index! + m[0].length))) return null
      return { value: { type: 'date', wd: (WEEKDAYS as readonly string[]).indexOf(m[1]!.slice(0, 3).toLowerCase()) } }
    },
  },
  {
    re: /\b(January|February|March|April|May|June|July|August|September|October|November|December)\b/g,
    read: (m) => ({ value: { type: 'date', m: month(m[1]!) } }),
  },
  {
    re: /\bQ([1-4])\b/g,
    read: (m) => ({ value: { type: 'date', q: +m[1]! } }),
  },
  {
    re: /\b(this|next|last|previous|coming)\s+(week|weekend|month|year|quarter|sprint)\b/gi,
    read: (m) => {
      const w = m[1]!.toLowerCase()
      return { value: { type: 'reldate', unit: m[2]!.toLowerCase(), offset: w === 'this' ? 0 : w === 'last' || w === 'previous' ? -1 : 1 } }
    },
  },
  {
    re: /\b(?:the\s+day\s+(after|before)\s+)?(today|tonight|tomorrow|yesterday)(?:['’]s)?\b/gi,
    read: (m) => {
      const w = m[2]!.toLowerCase()
      // "the day after tomorrow" is two days on, "the day before yesterday" two days back.
      const shift = m[1] ? (m[1].toLowerCase() === 'after' ? 1 : -1) : 0
      return { value: { type: 'reldate', unit: 'day', offset: (w === 'tomorrow' ? 1 : w === 'yesterday' ? -1 : 0) + shift } }
    },
  },
  // ---- times ----
  {
    // "9:30am", "9.30am" (British), "5 p.m.".
    re: new RegExp(`(?<![\\w.:])(\\d{1,2})(?:[:.](\\d{2}))?\\s*([ap]\\.?m\\.?)(?![a-z])${TZ}`, 'gi'),
    read: (m) => nonNull(clock(+m[1]!, +(m[2] ?? 0), m[3], undefined)),
  },
  {
    re: /\b(noon|midday|midnight)\b/gi,
    read: (m) => ({ value: { type: 'time', minutes: [m[1]!.toLowerCase() === 'midnight' ? 0 : 720] } }),
  },
  {
    re: new RegExp(`\\b(half|quarter)\\s+(past|after|to|before)\\s+(${N})(?:\\s+o['’]clock)?${PART_OF_DAY}`, 'gi'),
    read: (m) => {
      const h = parseNumber(m[3]!)
      const mins = m[1]!.toLowerCase() === 'half' ? 30 : 15
      const before = /to|before/i.test(m[2]!)
      return nonNull(clock(before ? h - 1 : h, before ? 60 - mins : mins, undefined, m[4]?.toLowerCase(), /night/i.test(m[0])))
    },
  },
  {
    re: new RegExp(`\\b(${N})\\s+o['’]clock${PART_OF_DAY}`, 'gi'),
    read: (m) => nonNull(clock(parseNumber(m[1]!), 0, undefined, m[2]?.toLowerCase(), /night/i.test(m[0]))),
  },
  {
    re: new RegExp(`(?<![\\d.:/])(\\d{1,2}):(\\d{2})(?![\\d:])${PART_OF_DAY}${TZ}`, 'g'),
    read: (m) => nonNull(clock(+m[1]!, +m[2]!, undefined, m[3]?.toLowerCase(), /night/i.test(m[0]))),
  },
  {
    // "at 9", "at 10 in the morning": a bare hour after a time preposition, not followed by a unit.
    re: new RegExp(`\\b(?:at|by|until|till|from)\\s+(\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)${PART_OF_DAY}(?=\\s*$|\\s*[.,;!?]|\\s+(?:on|every|each|today|tomorrow|tonight|sharp|and|or|for|with|but|local|UTC|GMT|[A-Z]{3})\\b)`, 'gi'),
    read: (m) => nonNull(clock(parseNumber(m[1]!), 0, undefined, m[2]?.toLowerCase(), /night/i.test(m[0]))),
  },
  // ---- money ----
  {
    re: new RegExp(`([$€£¥])\\s?(${N})`, 'g'),
    read: (m, rest) => {
      const amount = parseNumber(m[2]!)
      if (Number.isNaN(amount)) return null
      const r = rate(rest)
      return { value: { type: 'money', amount, currency: CURRENCY[m[1]!]!, per: r.per }, extra: r.extra }
    },
  },
  {
    re: new RegExp(`(${N})\\s*(dollars?|bucks|usd|euros?|eur|gbp|yen|jpy|cents?)\\b(?:\\s+and\\s+(${N})\\s+cents?\\b)?`, 'gi'),
    read: (m, rest) => {
      let amount = parseNumber(m[1]!)
      if (Number.isNaN(amount)) return null
      const unit = m[2]!.toLowerCase()
      if (unit.startsWith('cent')) amount /= 100
      if (m[3]) amount += parseNumber(m[3]) / 100
      const r = rate(rest)
      return { value: { type: 'money', amount, currency: CURRENCY[unit] ?? null, per: r.per }, extra: r.extra }
    },
  },
  {
    // "costs 4.50 pounds a loaf", "1.50 pounds more an hour": pounds are money when priced to the
    // penny or after a word of paying; otherwise the mass rule below reads a weight (store29).
    re: new RegExp(`(${N})\\s*(pounds?|quid)\\b`, 'gi'),
    read: (m, rest) => {
      const amount = parseNumber(m[1]!)
      const before = m.input!.slice(Math.max(0, m.index! - 24), m.index!)
      if (Number.isNaN(amount) || !(/^\d+\.\d\d$/.test(m[1]!) || /quid/i.test(m[2]!) || PAYING_BEFORE.test(before))) return null
      const r = rate(rest)
      return { value: { type: 'money', amount, currency: 'GBP', per: r.per }, extra: r.extra }
    },
  },
  {
    // "is free", "for free", "free of charge": a price of zero (not "free parking").
    re: /\b(?:(?:is|are|be|was|were|for)\s+free\b(?=\s*$|\s*[.,;!?]|\s+(?:for|of|to|on|in|with|if|when|until)\b)|free\s+of\s+charge\b)/gi,
    read: () => ({ value: { type: 'money', amount: 0, currency: null, per: null } }),
  },
  // ---- percentages ----
  {
    re: /\bhalf\s+(?:a\s+)?(?:percent|per\s+cent)\b/gi,
    read: () => ({ value: { type: 'percent', value: 0.5 } }),
  },
  {
    re: new RegExp(`(${N})\\s*(?:%|percent\\b|per\\s+cent\\b)`, 'gi'),
    read: (m) => {
      const v = parseNumber(m[1]!)
      return Number.isNaN(v) ? null : { value: { type: 'percent', value: v } }
    },
  },
  // ---- versions ----
  {
    re: /\b(?:v|version\s+)?(\d+)\.(\d+)\.(\d+)\b/gi,
    read: (m) => ({ value: { type: 'version', parts: [+m[1]!, +m[2]!, +m[3]!] } }),
  },
  {
    re: /\b(?:v|version\s+)(\d+(?:\.\d+)*)\b/gi,
    read: (m) => ({ value: { type: 'version', parts: m[1]!.split('.').map(Number) } }),
  },
  {
    re: /(?<=\b[A-Z][A-Za-z]*\s)(\d+\.\d+)\b(?!\s*(?:%|[a-zA-Z]))/g,
    read: (m) => ({ value: { type: 'version', parts: m[1]!.split('.').map(Number) } }),
  },
  // ---- physical quantities ----
  {
    re: /\b(?:an?\s+)?hour\s+and\s+a\s+half\b|\bhalf\s+an?\s+hour\b|\b(?:a\s+)?quarter\s+of\s+an?\s+hour\b/gi,
    read: (m) => ({ value: { type: 'measure', dim: 'duration', base: /and a half/i.test(m[0]) ? 5400 : /half/i.test(m[0]) ? 1800 : 900, per: null } }),
  },
  {
    // "four and a half hours' drive": the half belongs to the amount, so the unit still follows it (store29).
    re: new RegExp(`(${N})(\\s+and\\s+a\\s+half)?[-\\s]?(?:business\\s+|working\\s+|calendar\\s+)?(${UNIT_WORDS})(?![A-Za-z0-9])`, 'gi'),
    read: (m, rest) => {
      const n = parseNumber(m[1]!) + (m[2] ? 0.5 : 0)
      const unit = unitOf(m[3]!)
      if (Number.isNaN(n) || !unit) return null
      const r = rate(rest)
      return { value: { type: 'measure', dim: unit.dim, base: n * unit.factor, per: r.per }, extra: r.extra }
    },
  },
  // ---- ordinals: a day of the month, or a position ("4th floor") ----
  {
    re: new RegExp(`\\b(?:the\\s+)?(\\d{1,2})${ORD}\\b(?:\\s+of\\s+(?:each|every|the)\\s+month\\b)?`, 'gi'),
    read: (m, rest) => {
      const unit = /^\s+([a-z]+)/i.exec(rest)
      if (!/of\s+(?:each|every|the)\s+month/i.test(m[0]) && unit && !/^(of|and|or|to|in|on|at|for)$/i.test(unit[1]!)) {
        return { value: { type: 'count', value: ordinalDay(m[1]!), unit: singular(unit[1]!), ordinal: true, per: null }, extra: unit[0].length }
      }
      return { value: { type: 'date', d: ordinalDay(m[1]!) } }
    },
  },
  // ---- years ----
  {
    // "in 2019", "the 2023 budget" (a year before a noun after a determiner), not "2000 users".
    re: /\b(?:(?:the\s+)?year\s+)?((?:19|20)\d{2})\b(?![,.]\d)(?!\s*%)(?:(?!\s*[a-z])|(?<=\b(?:the|our|my|their|his|her|its|this|last|next)\s+\d{4}))/gi,
    read: (m) => ({ value: { type: 'date', y: +m[1]! } }),
  },
  {
    // "half a day" is a work morning or afternoon as often as 12 hours: left unread, not read as a day.
    re: /(?<!\d\s*)(?<!\bhalf[\s-]+)\b(?:an?|one)\s+(hour|minute|day|week|month|year|decade|fortnight)\b/gi,
    read: (m, rest) => {
      const unit = unitOf(m[1]!)
      const r = rate(rest)
      return unit ? { value: { type: 'measure', dim: unit.dim, base: unit.factor, per: r.per }, extra: r.extra } : null
    },
  },
  // ---- anything else numeric: a count of the next word ("3 nodes") ----
  {
    re: new RegExp(`(${N})(?![\\w$€£¥%])`, 'gi'),
    read: (m, rest) => {
      const value = parseNumber(m[1]!)
      if (Number.isNaN(value)) return null
      const r = rate(rest)
      if (r.extra) return { value: { type: 'count', value, unit: '', ordinal: false, per: r.per }, extra: r.extra }
      // The unit is filled in by the tokenizer (next content word, else the previous one).
      return { value: { type: 'count', value, unit: '', ordinal: false, per: null } }
    },
  },
]

function nonNull(v: Value | null): Read | null {
  return v ? { value: v } : null
}

function singular(word: string): string {
  const w = word.toLowerCase()
  return w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w
}
