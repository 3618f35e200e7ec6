import { extractValues } from './extract-values.js'
import { STOPWORDS } from '../words/stopwords.js'
import { stem } from './stem.js'
import type { Value } from './values.js'
import { resolveRelativeDates } from './relative-dates.js'
import { stayEnd, stayNights, termEnd, tripDays } from './stay-nights.js'
import { zoneOf } from './time-zones.js'
import type { Bound, Slot, Slots } from './slot.js'
import { WEEKDAYS } from '../words/weekdays.js'
import { MONTH_PATTERN, monthNumber } from '../words/months.js'

interface Found { readonly slot: Slot; readonly start: number; readonly end: number }

const NUM = String.raw`(\d+(?:[.,]\d+)?)`
const MONTH_RE = `(${MONTH_PATTERN})`
const SIZE: Record<string, readonly number[]> = {
  kb: [1e3, 1024], mb: [1e6, 1048576], gb: [1e9, 1073741824], tb: [1e12, 1099511627776],
  ki: [1024], kib: [1024], mi: [1048576], mib: [1048576], gi: [1073741824], gib: [1073741824], ti: [1099511627776], tib: [1099511627776],
}
const RATE: Record<string, number> = { kbps: 1e3, mbps: 1e6, gbps: 1e9, tbps: 1e12 }
const SPEED: Record<string, number> = { mph: 0.44704, kmh: 1 / 3.6, kph: 1 / 3.6, 'km/h': 1 / 3.6, 'm/s': 1 }
const UNIT_OF: Record<string, readonly [string, number]> = {
  min: ['duration', 60], minute: ['duration', 60], hr: ['duration', 3600], hour: ['duration', 3600], h: ['duration', 3600], day: ['duration', 86400],
  week: ['duration', 604800], month: ['duration', 2629800], year: ['duration', 31557600], second: ['duration', 1], sec: ['duration', 1],
  kg: ['mass', 1000], lb: ['mass', 453.59237], km: ['length', 1000], mile: ['length', 1609.344], m: ['length', 1], cm: ['length', 0.01], mm: ['length', 0.001],
  gb: ['size', 1e9], mb: ['size', 1e6], tb: ['size', 1e12],
}
const FREQ: Record<string, number> = { once: 1, twice: 2, thrice: 3, two: 2, three: 3, four: 4, five: 5, six: 6 }
const num = (s: string): number => Number(s.replace(/,(?=\d{3}\b)/g, '').replace(',', '.'))

/** Patterns the general value reader does not know, tried first; each claims its span. */
const SPECIAL: ReadonlyArray<{ re: RegExp; read: (m: RegExpExecArray) => Slot | null }> = [
  // "Version 2", "v2.3", "Python 3.12": a release number, compared part by part.
  { re: /\b(?:version\s+|v)(\d+(?:\.\d+)*)\b|(?<=\b[A-Z][A-Za-z]+\s)(\d+\.\d+(?:\.\d+)*)\b(?!\s*%)/g, read: (m) => ({
    kind: 'version', parts: (m[1] ?? m[2]!).split('.').map(Number), text: m[0],
  }) },
  // "free parking", "for free", "complimentary": a price of nothing, against any other price. Not
  // "gluten-free", "free at 3" (availability) or a free tier/trial (a product, whose price is another's).
  { re: /\bno\s+(?:[a-z]+\s+)?(?:fee|charge|cost)s?\b|\b(?:for\s+free|free\s+of\s+charge|at\s+no\s+(?:extra\s+)?(?:cost|charge)|no\s+charge|complimentary|costs?\s+nothing)\b|(?<![-\w])(?<!\b(?:no|not)\s+)free(?=\s+(?!(?:to|time|for|at|on|in|from|after|until|by|now|today|tonight|tomorrow|slot|trial|tier|plan|version|account|edition|afternoon|morning|evening|day|week|weekend|this|next|all|any|and|or)\b)[a-z]{3,})/gi, read: (m) => ({
    kind: 'money', amount: 0, currency: null, text: m[0],
  }) },
  // A range of days: "May 12–14", "June 3 to June 6", "12–14 May", "Mar 30 – Apr 2". Read whole, so
  // "May 12–14" / "May 12 to May 15" clash (off by one) and "May 13" falls inside it.
  { re: new RegExp(String.raw`\b${MONTH_RE}\.?\s+(\d{1,2})(?:st|nd|rd|th)?\s*(?:–|-|to|through|thru|until|till)\s*(?:${MONTH_RE}\.?\s+)?(\d{1,2})(?:st|nd|rd|th)?\b(?![:.]\d)`, 'gi'), read: (m) => {
    const [m1, d1, m2, d2] = [monthOf(m[1]!), Number(m[2]), m[3] ? monthOf(m[3]) : monthOf(m[1]!), Number(m[4])]
    return dateRange(m1, d1, m2, d2, m[0])
  } },
  { re: new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s*(?:–|-|to|through|thru|until|till)\s*(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH_RE}\b`, 'gi'), read: (m) => {
    const mo = monthOf(m[3]!)
    return dateRange(mo, Number(m[1]), mo, Number(m[2]), m[0])
  } },
  // A range of weekdays: "Mon–Sat", "Monday to Friday": the days it covers.
  { re: /\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s*(?:–|-|to|through|thru)\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?(?=\W|$)/gi, read: (m) => {
    const order: readonly string[] = WEEKDAYS
    const [s, e] = [order.indexOf(m[1]!.toLowerCase()), order.indexOf(m[2]!.toLowerCase())]
    const wds: number[] = []
    for (let d = s; ; d = (d + 1) % 7) { wds.push(d); if (d === e || wds.length === 7) break }
    return { kind: 'date', wds, text: m[0] }
  } },
  // Chat weekdays: "thurs 2pm", "bumped to fri". "sat", "sun" and "wed" are words too, so they need their capital.
  { re: /\b(mon|tue|tues|thu|thur|thurs|fri)\b\.?/g, read: (m) => ({
    kind: 'date', wd: ({ mon: 1, tue: 2, tues: 2, thu: 4, thur: 4, thurs: 4, fri: 5 } as Record<string, number>)[m[1]!]!, text: m[0],
  }) },
  // ... unless a time or a day number follows, or "on"/"this"/"next" comes before: "sat 9am", "wed 9 apr", "on sun".
  { re: /(?<=\b(?:on|this|next|every|until|till|by|from|to)\s+)(wed|sat|sun)\b\.?|\b(wed|sat|sun)\b\.?(?=\s+(?:\d|the\s+\d))/g, read: (m) => ({
    kind: 'date', wd: ({ wed: 3, sat: 6, sun: 0 } as Record<string, number>)[(m[1] ?? m[2])!]!, text: m[0],
  }) },
  // "every other Thursday", "every second week": once a fortnight (or every two of the unit).
  { re: /\bevery\s+(?:other|second|2nd)\s+(week|day|month|year|(?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b/gi, read: (m) => {
    const unit = m[1]!.toLowerCase()
    return unit.endsWith('day') && unit !== 'day'
      ? { kind: 'freq', value: 1, per: 'fortnight', text: m[0] }
      : { kind: 'freq', value: 0.5, per: unit, text: m[0] }
  } },
  // "every day", "each morning": once a day (ninth round); "every Monday" is a day's, above.
  { re: /\b(?:every|each)\s+(day|week|month|year|morning|afternoon|evening|night)\b/gi, read: (m) => {
    const unit = m[1]!.toLowerCase()
    return { kind: 'freq', value: 1, per: /ing$|ght$/.test(unit) ? 'day' : unit, text: m[0] }
  } },
  { re: /\b(hourly|nightly|daily|weekly|biweekly|bi-weekly|fortnightly|monthly|quarterly|yearly|annually)\b/gi, read: (m) => {
    const per = ({ hourly: 'hour', nightly: 'day', daily: 'day', weekly: 'week', biweekly: 'fortnight', 'bi-weekly': 'fortnight', fortnightly: 'fortnight', monthly: 'month', quarterly: 'quarter', yearly: 'year', annually: 'year' } as Record<string, string>)[m[1]!.toLowerCase()]!
    return { kind: 'freq', value: 1, per, text: m[0] }
  } },
  // After a degree sign or "degrees" the scale letter may be lower case ("4°c", "68 degrees f").
  { re: new RegExp(String.raw`(-?\d{1,3}(?:\.\d+)?)\s*(?:(?:°|º|degrees?)\s*([CFcf])|([CF]))(?![\w/+#-])`, 'g'), read: (m) => {
    const v = Number(m[1])
    return { kind: 'measure', dim: 'temperature', bases: [(m[2] ?? m[3])!.toUpperCase() === 'F' ? ((v - 32) * 5) / 9 : v], text: m[0] }
  } },
  { re: new RegExp(String.raw`${NUM}\s*(kib|mib|gib|tib|ki|mi|gi|ti|kb|mb|gb|tb)\b`, 'gi'), read: (m) => ({
    kind: 'measure', dim: 'size', bases: SIZE[m[2]!.toLowerCase()]!.map((f) => num(m[1]!) * f), text: m[0],
  }) },
  { re: new RegExp(String.raw`${NUM}\s*(kbps|mbps|gbps|tbps|[kmgt]b(?:it)?\/s)\b`, 'gi'), read: (m) => {
    const u = m[2]!.toLowerCase().replace(/b(?:it)?\/s$/, 'bps')
    return { kind: 'measure', dim: 'rate', bases: [num(m[1]!) * RATE[u]!], text: m[0] }
  } },
  { re: new RegExp(String.raw`${NUM}\s*(mph|km\/h|kmh|kph|m\/s)(?![\w/])`, 'gi'), read: (m) => ({
    kind: 'measure', dim: 'speed', bases: [num(m[1]!) * SPEED[m[2]!.toLowerCase()]!], text: m[0],
  }) },
  // A range of amounts with one unit: "10-15 min", "3 to 5 days", "20–30 kg": any value inside agrees.
  { re: new RegExp(String.raw`\b(\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(\d+(?:\.\d+)?)\s*(min(?:ute)?s?|h(?:ou)?rs?|hours?|days?|weeks?|months?|years?|kg|lbs?|km|miles?|m|cm|mm|gb|mb|tb|seconds?|secs?)\b`, 'gi'), read: (m) => {
    const [lo, hi] = [Number(m[1]), Number(m[2])]
    const unit = UNIT_OF[m[3]!.toLowerCase().replace(/s$/, '')]
    return unit && lo < hi ? { kind: 'measure', dim: unit[0], bases: [lo * unit[1], hi * unit[1]], range: true, text: m[0] } : null
  } },
  // Fuel economy, in litres per 100 km: "33 mpg" is 7.1 L/100km (US gallons).
  { re: new RegExp(String.raw`${NUM}\s*(mpg|l\s*\/\s*100\s*km|litres?\s+per\s+100\s*km|liters?\s+per\s+100\s*km)\b`, 'gi'), read: (m) => {
    const v = num(m[1]!)
    return v > 0 ? { kind: 'measure', dim: 'economy', bases: [/^mpg$/i.test(m[2]!) ? 235.215 / v : v], text: m[0] } : null
  } },
  { re: /(\d+)\s*'\s*(\d+)\s*"/g, read: (m) => ({ kind: 'measure', dim: 'length', bases: [Number(m[1]) * 0.3048 + Number(m[2]) * 0.0254], text: m[0] }) },
  // A lone inch mark: '32" screen'.
  { re: /(?<![\d'])(\d+(?:\.\d+)?)\s*"(?=\s|$|[,.;)])/g, read: (m) => ({ kind: 'measure', dim: 'length', bases: [Number(m[1]) * 0.0254], text: m[0] }) },
  { re: /\b(\d+)\s*h(?:rs?|ours?)?\s*(\d+)\s*m(?:in(?:utes?|s)?)?\b/gi, read: (m) => ({
    kind: 'measure', dim: 'duration', bases: [Number(m[1]) * 3600 + Number(m[2]) * 60], text: m[0],
  }) },
  { re: /\b(once|twice|thrice|(\d+|two|three|four|five|six)\s+times)\s+(?:a|per|every)\s+(day|week|month|quarter|year)\b/gi, read: (m) => ({
    kind: 'freq', value: m[2] ? (FREQ[m[2].toLowerCase()] ?? Number(m[2])) : FREQ[m[1]!.toLowerCase()]!, per: m[3]!.toLowerCase(), text: m[0],
  }) },
  { re: new RegExp(String.raw`\b(?:end\s+of\s+)?${MONTH_RE}\.?\s+'(\d{2})\b`, 'gi'), read: (m) => ({
    kind: 'date', m: monthOf(m[1]!), y: 2000 + Number(m[2]), text: m[0],
  }) },
  { re: /(?<![\d/])(\d{1,2})\/(\d{1,2})(?![\d/])/g, read: (m) => {
    const [mo, d] = [Number(m[1]), Number(m[2])]
    return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 ? { kind: 'date', m: mo, d, text: m[0] } : null
  } },
  // A span of clock times: "1–3pm", "9am–6pm", "between 8 and 12" (bare "4–5" is too ambiguous: a score, a count).
  { re: /\b(?:between\s+(\d{1,2})(?::(\d\d))?\s*(am|pm)?\s+and\s+(\d{1,2})(?::(\d\d))?\s*(am|pm)?|(\d{1,2})(?::(\d\d))?\s*(am|pm)?\s*(?:–|-|to)\s*(\d{1,2})(?::(\d\d))?\s*(am|pm)?)(?!\s*(?:%|(?!(?:et|pt|ct|mt|utc|gmt|[ecmp][sd]t|bst|cet)\b)[a-z]{2,}))/gi, read: (m) => {
    const g = m[1] ? m.slice(1, 7) : m.slice(7, 13)
    // A bare "9–5" is clock hours when a zone follows or "hours" comes before ("hours are 9–5 ET").
    const hours = /^\s*(?:ET|PT|CT|MT|UTC|GMT|[ECMP][SD]T|BST|CET|local)\b/.test(m.input.slice(m.index + m[0].length)) || /\bhours?\s*(?:are|is|:)?\s*$/i.test(m.input.slice(0, m.index))
    const explicit = !!(g[1] || g[2] || g[4] || g[5]) || !!m[1] || hours
    if (!explicit) return null
    const end = clock(Number(g[3]), Number(g[4] ?? 0), g[5])
    const start = clock(Number(g[0]), Number(g[1] ?? 0), g[2] ?? (g[5] && Number(g[0]) <= Number(g[3]) ? g[5] : undefined))
    return start && end ? { kind: 'span', start, end, zone: null, text: m[0] } : null
  } },
  { re: /\b(\d+(?:\.\d+)?)\s*([kmb])\s+(params?|parameters?|users?|rows?|requests?|views?|viewers?|downloads?|tokens?|records?)\b/gi, read: (m) => ({
    kind: 'count', value: Number(m[1]) * ({ k: 1e3, m: 1e6, b: 1e9 } as Record<string, number>)[m[2]!.toLowerCase()]!, unit: unitWord(m[3]!), text: m[0],
  }) },
  { re: /(?<![\d.])\b(one|two|three|four|five|six|seven|eight|nine|ten|\d+(?:\.\d+)?)[-\s](million|billion)[-\s](params?|parameters?|users?|rows?)\b/gi, read: (m) => ({
    kind: 'count', value: (WORD_NUM[m[1]!.toLowerCase()] ?? Number(m[1])) * (m[2]!.toLowerCase() === 'million' ? 1e6 : 1e9), unit: unitWord(m[3]!), text: m[0],
  }) },
]
const monthOf = monthNumber

function dateRange(m1: number, d1: number, m2: number, d2: number, text: string): Slot | null {
  if (d1 < 1 || d1 > 31 || d2 < 1 || d2 > 31 || m2 < m1 || (m1 === m2 && d2 <= d1)) return null
  return { kind: 'date', m: m1, d: d1, end: { m: m2, d: d2 }, text }
}
const WORD_NUM: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 }

function clock(h: number, min: number, mer: string | undefined): number[] | null {
  if (h > 24 || min > 59) return null
  const m = mer?.toLowerCase()
  if (m === 'am') return [(h % 12) * 60 + min]
  if (m === 'pm') return [((h % 12) + 12) * 60 + min]
  if (h === 0 || h > 12) return [(h * 60 + min) % 1440]
  return [(h % 12) * 60 + min, ((h % 12) + 12) * 60 + min]
}

/** A verb before a clock time that makes it a window's start or end. */
const START_EDGE = /\b(?:starts|begins|opens|kicks\s+off)\s+(?:at\s+)?$/i
const END_EDGE = /\b(?:ends|finishes|closes|wraps\s+up)\s+(?:at\s+)?$/i

/** Words before a count that make it a capacity: "seats 12", "room for 36", "licensed for 12". */
const CAPACITY_BEFORE = /\b(?:holds?|seats|fits|accommodates?|sleeps|capacity(?:\s+of)?|(?:room|space|seating)\s+for|(?:licensed|rated|certified|approved)\s+for)\s*:?\s*(?:up\s+to\s+)?$/i
/** A verb that carries a load, a capacity only when people follow: "takes 9 passengers", not "takes 3 tries". */
const CARRIES = /\b(?:takes|carries)\s*$/i
const PEOPLE_AFTER = /^\s*(?:passengers|people|persons|guests|riders|adults|pax)\b/i

/** Units that name the same thing ("ppl", "people", "guests"; "pcs", "units"). */
const UNIT_ALIASES: Record<string, string> = {
  people: 'person', ppl: 'person', guest: 'person', attende: 'person', pc: 'unit', pcs: 'unit', piec: 'unit', item: 'unit',
  kid: 'child', children: 'child', param: 'parameter', viewer: 'viewer', worker: 'node', char: 'charact', req: 'request', reqs: 'request',
}
export function unitWord(w: string): string {
  const s = stem(w.toLowerCase())
  return UNIT_ALIASES[s] ?? UNIT_ALIASES[w.toLowerCase()] ?? s
}

/** Reads a normalized text's slots. */
export function readSlots(text: string): Slots {
  // Identifiers hold digits that are not amounts: "#311", "A-17", "db-02", "us-east-1", "m5.2xlarge".
  // "$2.1M", "3K": scale letters in capitals read as the lower-case ones the number reader knows
  // (same length, so offsets still point into the text the rest of the reading uses).
  text = text.replace(/(\d(?:[.,]\d+)?\s?)([KM])\b/g, (_m, d: string, u: string) => d + u.toLowerCase())
  let masked = text.replace(/#\d+|\b[A-Za-z]+[-_]?\d+[\w.-]*|\b\d+[-_][A-Za-z][\w-]*/g, (s) => (/^\d+[-\s]?(?:day|hour|week|month|year|minute)|^v\d+(?:\.\d+)*$|^Q[1-4]$|^(?:k?m|ft)2\.?$|^\d+-[a-z]{3,}$/i.test(s) ? s : ' '.repeat(s.length)))
  const found: Found[] = []
  for (const ex of SPECIAL) {
    for (const m of masked.matchAll(ex.re)) {
      const slot = ex.read(m as RegExpExecArray)
      if (!slot) continue
      found.push({ slot, start: m.index, end: m.index + m[0].length })
    }
    masked = found.reduce((t, f) => t.slice(0, f.start) + ' '.repeat(f.end - f.start) + t.slice(f.end), masked)
  }
  for (const v of extractValues(masked)) {
    const slot = fromValue(v.value, v.text, masked.slice(v.end), masked.slice(Math.max(0, v.start - 24), v.start))
    if (slot) found.push({ slot, start: v.start, end: v.end })
  }
  found.sort((a, b) => a.start - b.start)
  const kept = found.filter((f) => !partOfWhole(text, f))
  // "under 6 hours", "up to 50 pages", "at least 12 characters", "10+": a bound, not a value.
  for (const f of kept) {
    if (f.slot.kind !== 'measure' && f.slot.kind !== 'count' && f.slot.kind !== 'money') continue
    const before = text.slice(Math.max(0, f.start - 14), f.start)
    const after = text.slice(f.end, f.end + 12)
    // "the returns window is 14 days", "weight limit: 7 tons": the value of a limit is a bound
    // too, so it is compared with another limit ("within 30 days") as a value.
    const LIMIT = /\b(?:window|limit|limited|cap|capped|quota|allowance|deadline|max(?:imum)?)\b/i
    const limit = new RegExp(LIMIT.source + String.raw`[^,.;]{0,24}$`, 'i').test(text.slice(Math.max(0, f.start - 40), f.start)) ||
      new RegExp(String.raw`^[^,.;]{0,16}` + LIMIT.source, 'i').test(text.slice(f.end, f.end + 30))
    // "holds 200 people", "seats 12", "sleeps 6": a capacity of people or things is a most (a
    // container's "holds 40 gallons" is its size, a value). So is room made or allowed for a
    // number ("room for 36", "licensed for 12") and a vehicle's load of people ("takes 9
    // passengers"), so two capacities of one thing compare as values (session 10, recall27).
    const capacity = f.slot.kind === 'count' && (CAPACITY_BEFORE.test(before) || (CARRIES.test(before) && PEOPLE_AFTER.test(after)))
    const bound = limit || capacity || /\b(?:under|below|less than|fewer than|up to|at most|max(?:imum)?|within|no more than)\s*$/i.test(before) ? 'max'
      : /\b(?:over|above|more than|at least|min(?:imum)?|no less than)\s*$/i.test(before) || /^\s*(?:\+|or more\b|and up\b)/i.test(after) ? 'min' : null
    if (bound) (f as { slot: Slot }).slot = { ...f.slot, bound } as Slot
  }
  // "in 5 days", "two weeks from now", "3 days later": an offset from the day of writing, not a
  // length the text claims; resolved below when the text states that day.
  for (const f of kept) {
    const sl = f.slot
    if (sl.kind !== 'measure' || sl.dim !== 'duration' || sl.bound !== undefined) continue
    const days = sl.bases[0]! / 86400
    if (!Number.isInteger(days) || days < 1) continue
    const ahead = /\bin\s+$/i.test(text.slice(Math.max(0, f.start - 4), f.start)) || /^\s+(?:from\s+(?:now|today)|later|out)\b/i.test(text.slice(f.end))
    const back = /^\s+(?:ago|before|earlier)\b/i.test(text.slice(f.end))
    if (ahead || back) (f as { slot: Slot }).slot = { kind: 'reldate', unit: 'day', offset: back ? -days : days, text: sl.text }
  }
  // "starts at 7", "closes at 18:00": the time of one edge of a window, compared with that edge of
  // a window the other text gives ("runs 6-8pm"), not with any time inside it (recall27).
  for (const f of kept) {
    if (f.slot.kind !== 'time') continue
    const before = text.slice(Math.max(0, f.start - 20), f.start)
    const edge = START_EDGE.test(before) ? 'start' : END_EDGE.test(before) ? 'end' : null
    if (edge) (f as { slot: Slot }).slot = { ...f.slot, edge }
  }
  perTime(text, kept)
  const zone = zoneOf(text)
  const zoned = kept.map((f) => (zone && (f.slot.kind === 'time' || f.slot.kind === 'span') ? { ...f, slot: { ...f.slot, zone } } : f))
  const merged = mergeDates(zoned)
  const extents = new Set(merged.filter((m) => m.slot.kind === 'measure' && /\bfor\s+$/i.test(text.slice(Math.max(0, m.start - 4), m.start))).map((m) => m.slot))
  const slots = resolveRelativeDates(merged.map((m) => m.slot), extents)
  const at = new Map<Slot, number>()
  for (const sl of slots) at.set(sl, merged.find((m) => m.slot === sl)?.start ?? -1)
  const stay = stayNights(text, slots, at) ?? tripDays(text, slots, at)
  if (stay) {
    slots.push(stay)
    at.set(stay, -1)
  }
  // Derived first, so a clash names the derived day ("+ 4 nights") before the stated one.
  for (const end of [stayEnd(slots), ...termEnd(text, slots)]) {
    if (!end) continue
    slots.unshift(end)
    at.set(end, -1)
  }
  return {
    slots,
    at,
    approximate: /~|\b(?:about|around|roughly|approx\w*|just\s+(?:under|over)|nearly|almost|under|over|circa|ish)\b/i.test(text),
  }
}

/** "spent 9.2k of the budget": an amount that is part of another is not the other's value. */
function partOfWhole(text: string, f: Found): boolean {
  // "Version 1 of the API" names a release; it is not a share of the API.
  // "20 mg of the drug" is a dose, not a share: only amounts and counts are parts of a whole.
  if (f.slot.kind === 'version' || f.slot.kind === 'measure' || /\b(?:version|release|v|part|phase|step|stage|level|season|chapter)\s*$/i.test(text.slice(0, f.start))) return false
  return /^\s*(?:so\s+far\s+)?of\s+(?:the|our|their|its|this|that|his|her)\b/i.test(text.slice(f.end)) || /\b(?:spent|used|consumed|burned)\s*$/i.test(text.slice(0, f.start))
}

function fromValue(v: Value, text: string, after: string, before: string): Slot | null {
  switch (v.type) {
    case 'time': return { kind: 'time', minutes: v.minutes, zone: null, text }
    case 'date': return { kind: 'date', ...(v.y ? { y: v.y } : {}), ...(v.m ? { m: v.m } : {}), ...(v.d ? { d: v.d } : {}), ...(v.wd !== undefined ? { wd: v.wd } : {}), ...(v.q ? { q: v.q } : {}), text }
    case 'reldate': return { kind: 'reldate', unit: v.unit, offset: v.offset, text }
    case 'money': return { kind: 'money', amount: v.amount, currency: v.currency, per: v.per, text }
    case 'percent': return { kind: 'percent', value: v.value, text }
    case 'measure': {
      if (v.per) return null
      // "a month" is 28 to 31 days, "a year" 365 or 366: people write "30 days" for either.
      const months = /\bmo(?:nth)?s?\b/i.test(text) ? v.base / 2629800 : /\b(?:year|yr)s?\b/i.test(text) ? (v.base / 31557600) * 12 : 0
      const bases = months && Number.isInteger(Math.round(months * 1e6) / 1e6)
        ? (/\b(?:year|yr)/i.test(text) ? [365, 366].map((d) => (months / 12) * d * 86400) : [28, 29, 30, 31].map((d) => months * d * 86400)).concat(v.base)
        : [v.base]
      return { kind: 'measure', dim: v.dim, bases, text }
    }
    case 'version': return { kind: 'version', parts: v.parts, text }
    case 'count': {
      // "Bistro 9", "Gate 12": a number right after a name is part of the name, not a count of it.
      const named = /\b([A-Z][a-z]+|(?!(?:USD|EUR|GBP|JPY|CAD|AUD|CHF|INR|CNY|UTC|GMT)\b)[A-Z]{2,4})\s+$/.exec(before)
      if (named && !v.ordinal) return { kind: 'count', value: v.value, unit: `#${named[1]!.toLowerCase()}`, text }
      // "invoice 5512", "order 8812", "room 311": a number of three digits and more right after a
      // noun names one of them; it is not an amount (nor money beside "$900").
      const label = /\b(invoice|order|room|ticket|build|case|flight|gate|unit|suite|apt|apartment|bus|route|line|platform|table|seat|account|job|issue|incident|item|sku|batch|run|release|pr|pull|card|policy|claim|lot|bay|dock|door|floor|box|locker|extension|ext)\s+#?$/i.exec(before)
      if (label && !v.ordinal && Number.isInteger(v.value) && v.value >= 100 && !/[,.]/.test(text)) return { kind: 'count', value: v.value, unit: `#${label[1]!.toLowerCase()}`, text }
      // "kubernetes 1.27", "still on 3.8": a dotted number without a unit is a release.
      if (!v.ordinal && !v.unit && !Number.isInteger(v.value) && /^\d+\.\d+$/.test(text)) {
        return { kind: 'version', parts: text.split('.').map(Number), text }
      }
      // "on the 15th now": an ordinal before an adverb is a day of the month, not "15th now".
      if (v.ordinal && (STOPWORDS.has(v.unit) || /^(?:now|today|instead|again|then|too|as|onward|onwards)$/.test(v.unit)) && v.value <= 31) {
        return { kind: 'date', d: v.value, text: text.replace(/\s+\w+$/, '') }
      }
      // "3 nodes", "2-space indents".
      const next = /^(?:\s*|-)([A-Za-z][A-Za-z]+)/.exec(after)?.[1]
      const unit = v.unit || (next && !STOPWORDS.has(next.toLowerCase()) && !/^(?:and|or|of|at|on|in|to|for|the|a|is|are|was|with|by|from|now|fyi|per|this|that|next|left|plus|minus|including|excluding)$/i.test(next) ? unitWord(next) : '')
      return { kind: 'count', value: v.value, unit: v.per ? `${unit}/${v.per}` : unit, text }
    }
  }
}

/** "Mon 14 Jul" is one date, read as two pieces. */
function mergeDates(found: readonly Found[]): Array<{ slot: Slot; start: number; end: number }> {
  const out: Array<{ slot: Slot; start: number; end: number }> = []
  for (const f of found) {
    const prev = out.at(-1)
    // Parts that overlap ("Monday and Wednesday") make a list of dates, not one date.
    const overlap = prev && Object.keys(f.slot).some((k) => k !== 'kind' && k !== 'text' && k in prev.slot)
    if (prev && prev.slot.kind === 'date' && f.slot.kind === 'date' && f.start - prev.end <= 6 && !overlap) {
      const merged = { ...prev.slot, ...f.slot, text: `${prev.slot.text} ${f.slot.text}` } as Slot
      out[out.length - 1] = { slot: merged, start: prev.start, end: f.end }
      continue
    }
    out.push({ slot: f.slot, start: f.start, end: f.end })
  }
  return out
}

/** Seconds in a period a rate is counted per. */
const PERIOD: Record<string, number> = {
  s: 1, sec: 1, second: 1, m: 60, min: 60, minute: 60, h: 3600, hr: 3600, hour: 3600, day: 86400, night: 86400, wk: 604800, week: 604800,
  fortnight: 1209600, mo: 2629800, month: 2629800, quarter: 7889400, yr: 31557600, year: 31557600, annum: 31557600,
}
const PERIOD_RE = String.raw`(?:\/\s*|\s+per\s+|\s+an?\s+|\s+every\s+)(s|sec|second|m|min|minute|h|hr|hour|day|night|wk|week|fortnight|mo|month|quarter|yr|year|annum)s?\b`

/**
 * Rates compare per unit of time: "600 requests/minute" is "10 req/s", "$2,100 a month" is
 * "25.2k/yr". Counts and amounts counted per a period are brought to one period (per second for
 * counts, per year for money), and a frequency word before an amount ("Monthly rent is $2,100")
 * says what the amount is per.
 */
function perTime(text: string, found: Found[]): void {
  for (const f of found) {
    const sl = f.slot
    if (sl.kind === 'count' && !sl.unit.includes('#')) {
      const [unit, per] = sl.unit.split('/') as [string, string | undefined]
      let seconds = per ? PERIOD[per] : undefined
      let extra = ''
      if (!per) {
        const m = new RegExp(String.raw`^\s*(?:[a-z]+)?${PERIOD_RE}`, 'i').exec(text.slice(f.end))
        if (m && m[0].trim().split(/\s|\//)[0]!.length > 0) {
          seconds = PERIOD[m[1]!.toLowerCase()]
          extra = m[0]
        }
      }
      if (seconds && unit !== '') {
        (f as { slot: Slot }).slot = { ...sl, value: sl.value / seconds, unit: `${unit}/s`, text: sl.text + extra }
        // "90 bowls a day": the period is what the count is per, not a length of time of its own.
        if (extra) dropWithin(found, f.end, f.end + extra.length)
      }
    } else if (sl.kind === 'money' && !sl.per) {
      const before = /\b(hourly|daily|nightly|weekly|monthly|quarterly|yearly|annual|annually)\b[^.,;!?]*$/i.exec(text.slice(0, f.start))
      const after = new RegExp('^' + PERIOD_RE, 'i').exec(text.slice(f.end))
      const per = after?.[1] ?? ({ hourly: 'hour', daily: 'day', nightly: 'night', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year', annual: 'year', annually: 'year' } as Record<string, string>)[before?.[1]?.toLowerCase() ?? '']
      if (per) {
        (f as { slot: Slot }).slot = { ...sl, per }
        if (after) dropWithin(found, f.end, f.end + after[0].length)
        // The frequency word said what the amount is per; it is not a schedule of its own.
        // ("annual" has no schedule read for it: nothing to drop, and splice(-1) would drop the last slot.)
        const schedule = before ? found.findIndex((g) => g.slot.kind === 'freq' && g.start === before.index) : -1
        if (schedule >= 0) found.splice(schedule, 1)
      }
    }
  }
}

/** Removes the durations read inside a rate's period ("a day" of "90 bowls a day"). */
function dropWithin(found: Found[], start: number, end: number): void {
  for (let i = found.length - 1; i >= 0; i--) {
    const g = found[i]!
    if (g.start >= start && g.end <= end && g.slot.kind === 'measure' && g.slot.dim === 'duration') found.splice(i, 1)
  }
}
