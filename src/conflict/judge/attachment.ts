import { SYNONYMS } from '../words/synonyms.js'
import { STOPWORDS } from '../words/stopwords.js'
import { stem } from '../read/stem.js'
import { ANTONYMS } from '../words/poles.js'
import { CLASS_OF } from '../words/classes.js'
import { NEGATORS } from '../words/negation.js'
import { RETRACTORS } from '../words/retractions.js'
import { isTimeWord, type Reading } from '../read/reading.js'
import { hasStem, sameStem } from '../read/same-stem.js'
import { compare, family } from './checks/slot-compare.js'
import type { Slot } from '../read/slot.js'
import { WEEKDAYS } from '../words/weekdays.js'
import { DETERMINERS } from '../words/determiners.js'

/** A few nouns for one thing that the general synonym list does not fold. */
const EXTRA: Record<string, string> = {
  [stem('booking')]: 'reserv', [stem('table')]: 'reserv', [stem('reservation')]: 'reserv',
  [stem('expires')]: 'expir', [stem('valid')]: 'expir', [stem('good')]: 'expir', [stem('ends')]: 'expir', [stem('lapses')]: 'expir',
  [stem('reports')]: 'manag', [stem('manager')]: 'manag', [stem('boss')]: 'manag',
  // Beginning at a place of work: "joined in 2019", "started here in 2021", "was hired in 2020".
  [stem('joined')]: 'start', [stem('started')]: 'start', [stem('hired')]: 'start', [stem('began')]: 'start', [stem('onboarded')]: 'start',
  // Ways of addressing someone: "reply in Swedish" and "write in English" answer one question.
  ...Object.fromEntries('reply replies respond write writes email message contact talk speak speaks address answer communicate correspond'.split(' ').map((w) => [stem(w), 'commun'])),
}
/** Update verbs and particles attach a new answer to the same attribute ("moves to 10:30", "staying at 9:15", "went out"). */
const LIGHT = new Set(['move', 'moved', 'moves', 'stay', 'staying', 'stays', 'change', 'changed', 'push', 'pushed', 'shift', 'shifted', 'switch', 'switched', 'now', 'become', 'became', 'remain', 'remains', 'still', 'out', 'up', 'off', 'down', 'back', 'set', 'reading', 'sitting'])
export const UPDATE = /^(?:re(?:assign|schedul|locat|book|nam|rout|allocat|plac)ed|moved?|moves|pushed|bumped|postponed|shifted|switched|changed|now)$/
/** The word a stem stands for as an attribute: "joined" and "started" are one, as synonyms are. */
export const canon = (s: string): string => EXTRA[s] ?? SYNONYMS.get(s) ?? s

/**
 * The word a value or name is attached to: the last content word before it in its clause
 * ("departs 8:05" -> depart; "boarding ... starts 7:25" -> start). Names and identifiers are left
 * out: they say which thing, not which attribute.
 */
export function attachedWords(r: Reading, at: number): string[] {
  if (at < 0) return []
  const out: string[] = []
  for (let i = r.tokens.length - 1; i >= 0 && out.length < 1; i--) {
    const t = r.tokens[i]!
    if (t.end > at) continue
    // A parenthesis is skipped, not a boundary: "paid invoice 7781 in full ($4,200) on 3/28".
    if (/[.;!?,:–]/.test(r.norm.slice(t.end, at).replace(/\([^()]*\)/g, ''))) break
    // "moved to the 21st", "rescheduled to next week", "reassigned to Marco": an update verb gives
    // the subject's new answer, whatever noun stands before it ("Flu clinic moved to the 21st").
    if (UPDATE.test(t.lower)) return []
    // Preference verbs attach the answer as update verbs do ("prefers a window seat" / "wants the aisle").
    const preference = ANTONYMS.get(t.stem)?.some((p) => p.group === 'preference') === true
    if (STOPWORDS.has(t.lower) || LIGHT.has(t.lower) || /^(?:(?:every|any|some|no)(?:thing|one|body|where)|one|ones)$/.test(t.lower) || preference || CLASS_OF.has(t.lower) || t.capital || (t.identifier && !/^\p{L}+(?:-\p{L}+)+$/u.test(t.lower)) || isTimeWord(t.lower) || /^\d/.test(t.lower)) continue
    out.push(t.stem)
    // "approved the bike lanes in May" / "construction of the bike lanes starts in September": an
    // object noun stood between the value and its verb; a past-tense verb before it in the clause
    // says which event the value dates, so two verbs the other text never uses are two events
    // (eighth round). Added beside the noun, never in its place: it only tells events apart.
    if (!/ed$/.test(t.lower)) {
      for (let k = i - 1; k >= 0; k--) {
        const v = r.tokens[k]!
        if (/[.;!?,:–]/.test(r.norm.slice(v.end, t.start))) break
        if (UPDATE.test(v.lower)) break
        if (/^\p{Ll}{3,}ed$/u.test(v.lower) && !STOPWORDS.has(v.lower) && !LIGHT.has(v.lower) && r.content.has(v.stem)) {
          out.push(v.stem)
          break
        }
      }
    }
  }
  const modified = modifiedNoun(r, at)
  if (modified && !out.includes(modified)) out.push(modified)
  return out
}

/**
 * A value between a determiner and a noun modifies that noun: "booked the 8:15 train", "the 6:50
 * departure", "my 3pm call" give the time to the train, the departure, the call, as well as to the
 * verb before them (issue 27, sixth round): "Colm booked the 6:50 departure" / "book the squash
 * court Thursday 6pm" are two bookings. The noun is the first word after the value, when only a
 * space stands between and it is a content word that is neither a time word nor a number. It is
 * added to what the value is attached to, never put in place of it, so it can only tell two
 * attributes apart, never join two the verb kept apart.
 */
function modifiedNoun(r: Reading, at: number): string | null {
  const slot = [...r.slots.at].find(([, p]) => p === at)?.[0]
  if (!slot) return null
  const i = r.tokens.findIndex((t) => t.start >= at)
  const det = r.tokens[i - 1]
  if (i <= 0 || !det || !DETERMINERS.has(det.lower) || !/^\s+$/.test(r.norm.slice(det.end, at))) return null
  const end = at + slot.text.length
  const next = r.tokens.find((t) => t.start >= end)
  if (!next || !/^\s+$/.test(r.norm.slice(end, next.start))) return null
  if (STOPWORDS.has(next.lower) || isTimeWord(next.lower) || /^\d/.test(next.lower) || next.capital || !r.content.has(next.stem)) return null
  return next.stem
}

/**
 * Two values (or names) belong to different attributes when each is attached to a word the other
 * text never uses: "departs 7:45" / "arrives 11:20", "opens at 9" / "closes at 6", "lives in
 * Seattle" / "works in Bellevue". Then they are two facts, not one fact stated twice.
 */
export function differentAttributes(a: Reading, atA: number, b: Reading, atB: number): boolean {
  const own = (x: Reading, at: number, y: Reading): string[] => {
    const yc = new Set([...y.content].map(canon))
    // Whole words, not the parts of a hyphenated one: "checkout" is not "check" of "check-in".
    const words = [...y.tokens.map((t) => t.stem), ...[...y.content].filter((c) => !y.tokens.some((t) => t.identifier && t.stem.startsWith(c)))]
    return attachedWords(x, at).filter((s) => !hasStem(words, s) && !yc.has(canon(s)))
  }
  return own(a, atA, b).length > 0 && own(b, atB, a).length > 0
}

/** Words after a verb that say how or when, not what: "works fine", "broken again". */
const ADVERBS = /^(?:again|now|still|fine|ok|okay|well|today|tonight|anymore|yet|too|already|lately|recently|currently|though|either|properly|perfectly)$/
const PREPOSITIONS = new Set(['on', 'in', 'at', 'for', 'from', 'with', 'by', 'since', 'until', 'till', 'during', 'after', 'before', 'via', 'per', 'as', 'because', 'due'])

/** The first content word after a position in its clause: what a verb is about ("accepts credit cards" -> credit). */
function objectWord(r: Reading, at: number, skill = false): string | null {
  let first = true
  for (const t of r.tokens) {
    if (t.start < at) continue
    if (/[.;!?,:()–]/.test(r.norm.slice(at, t.start))) return null
    // "a beginner at poker", "an expert in Rust": a skill's activity follows "at" or "in" (eighth round).
    if (skill && first && /^(?:at|in)$/.test(t.lower)) {
      first = false
      continue
    }
    first = false
    // "public on GitHub", "private since May": a preposition opens a phrase of its own; what an
    // adjective is said of comes before it, not after.
    if (PREPOSITIONS.has(t.lower)) return null
    // "private last week": words of a date say when, not what.
    if ([...r.slots.at].some(([sl, p]) => p >= 0 && t.start >= p && t.start < p + sl.text.length)) continue
    if (STOPWORDS.has(t.lower) || isTimeWord(t.lower) || /^\d/.test(t.lower) || ADVERBS.test(t.lower)) continue
    return t.stem
  }
  return null
}

/** Opposite verbs about two objects that neither text shares: "accepts credit cards" / "does not accept checks". */
export function differentObjects(a: Reading, endA: number, b: Reading, endB: number, skill = false): boolean {
  const [x, y] = [objectWord(a, endA, skill), objectWord(b, endB, skill)]
  if (x === null || y === null) return false
  // "a great swimmer" / "a beginner at swimming": the doer and the activity are one object.
  if (skill && Math.min(x.length, y.length) >= 4 && (x.startsWith(y) || y.startsWith(x))) return false
  return !hasStem(b.content, x) && !hasStem(a.content, y)
}

/** A shared head noun with a different word right before it on each side. */
interface ModifierPair {
  /** For a person: `"backend tests" vs "frontend tests"`. */
  readonly text: string
  /** The head noun's stem and the two modifiers as written. */
  readonly head: string
  readonly ma: string
  readonly mb: string
  /**
   * The noun phrase comes after a subject both texts name ("Omar prefers the aisle seat" / "omar
   * wants a window seat"): the modifier is the answer about that subject, not which subject.
   */
  readonly complement: boolean
}

/** Frequency words that modify a noun as a value does ("weekly report" / "monthly report"). */
const FREQUENCY_WORDS = /^(?:hourly|nightly|daily|weekly|biweekly|fortnightly|monthly|bimonthly|quarterly|yearly|annual|annually|semiannual)$/

function modifierPairs(a: Reading, b: Reading): ModifierPair[] {
  const before = (r: Reading, i: number): Reading['tokens'][number] | null => {
    const p = r.tokens[i - 1]
    if (!p || !/^\s+$/.test(r.norm.slice(p.end, r.tokens[i]!.start))) return null
    if (STOPWORDS.has(p.lower) || /^\d/.test(p.lower) || NEGATORS.has(p.lower)) return null
    // A verb before the noun ("knows kubernetes", "blocks Zoom") says what is done to it, not which one.
    // After a determiner it is a noun ("the payments team"), whatever its ending.
    const determined = DETERMINERS.has(r.tokens[i - 2]?.lower ?? '')
    // "can read music" (a verb after a modal or "to"), "0.5 TB volume" (a unit after a number).
    if (/^(?:can|could|will|would|should|must|may|might|to|does|did|do|cannot)$|^\d/.test(r.tokens[i - 2]?.lower ?? '')) return null
    // "usually orders": an adverb says how often, not which one.
    if (/^(?:usually|normally|typically|generally|mostly|really|actually|probably|definitely|basically|rarely|often|sometimes|always|never|mainly)$/.test(p.lower)) return null
    if ((!determined && (/(?:ed|ing)$/.test(p.lower) || (/[^s]s$/.test(p.lower) && p.lower.length > 3))) || ANTONYMS.has(p.stem) || RETRACTORS.has(p.stem)) return null
    return p
  }
  const near = (x: string, y: string): boolean => sameStem(x, y) || (Math.min(x.length, y.length) >= 3 && (x.startsWith(y) || y.startsWith(x)))
  const out: ModifierPair[] = []
  for (let i = 0; i < a.tokens.length; i++) {
    const t = a.tokens[i]!
    // An everyday head ("team") is enough when the subject is named before it; "two subjects" needs a key.
    // "New York time" / "London time": places before "time" name zones, compared as clock times.
    if (STOPWORDS.has(t.lower) || !a.content.has(t.stem) || t.lower === 'time') continue
    const j = b.tokens.findIndex((u) => sameStem(u.stem, t.stem))
    if (j < 0) continue
    const [pa, pb] = [before(a, i), before(b, j)]
    if (!pa || !pb || near(pa.stem, pb.stem)) continue
    if ([...b.content].some((c) => near(c, pa.stem)) || [...a.content].some((c) => near(c, pb.stem))) continue
    // Two members of one closed class of answers ("aisle seat" / "window seat"), or two frequencies
    // ("weekly emails" / "monthly emails"), answer one question: the substitution and value checks' business.
    const cls = CLASS_OF.get(pa.lower)
    if ((cls && cls === CLASS_OF.get(pb.lower) && !SUBJECT_CLASSES.has(cls)) || (FREQUENCY_WORDS.test(pa.lower) && FREQUENCY_WORDS.test(pb.lower))) continue
    const subject = (r: Reading, upto: number, other: Reading): boolean =>
      r.tokens.slice(0, upto).some((u) => r.keys.has(u.stem) && !sameStem(u.stem, t.stem) && other.tokens.slice(0, other === b ? j - 1 : i - 1).some((v) => sameStem(v.stem, u.stem)))
    const complement = subject(a, i - 1, b)
    if (!complement && !a.keys.has(t.stem)) continue
    out.push({
      text: `"${pa.lower} ${t.lower}" vs "${pb.lower} ${b.tokens[j]!.lower}"`,
      head: t.stem, ma: pa.lower, mb: pb.lower,
      complement,
    })
  }
  return out
}

/**
 * Classes whose members tell one subject from another rather than answer a question: "the
 * staging server" and "the production server" are two servers, "the basic plan" and "the pro
 * plan" two plans.
 */
export const SUBJECT_CLASSES: ReadonlySet<string> = new Set(['color', 'ordinal', 'daypart', 'age', 'family', 'label', 'environment', 'tier', 'component', 'platform', 'meal', 'country'])

/**
 * A shared head noun with a different word right before it on each side: "backend tests" /
 * "frontend tests", "login endpoint" / "health endpoint", "weekday rate" / "weekend rate". Two
 * members of one kind, so a difference in what is said of them is no contradiction.
 */
export function differentModifiers(a: Reading, b: Reading): string | null {
  return modifierPairs(a, b).find((p) => !p.complement)?.text ?? null
}

/**
 * The same noun after the same subject with another modifier: "Tomas is on the platform team" /
 * "tomas moved to the payments team", "the client wants weekly status emails" / "client asked for
 * a monthly status email". The modifier answers what is said of the subject.
 */
export function complementModifier(a: Reading, b: Reading): ModifierPair | null {
  const pairs = modifierPairs(a, b)
  return pairs.length > 0 && pairs.every((p) => p.complement) ? pairs[0]! : null
}

const WEEKDAY: readonly string[] = WEEKDAYS
const DAY = String.raw`(sun|mon|tue|wed|thu|fri|sat)[a-z]*\.?`

/** The weekdays a word after a position qualifies: "weekends", "weekdays", "Mon–Fri", "Monday to Friday", "Sundays". */
export function qualifiedDays(r: Reading, end: number): ReadonlySet<number> | null {
  return daysIn(/^[^.;!?,:()]*/.exec(r.norm.slice(end))![0])
}

function daysIn(text: string): ReadonlySet<number> | null {
  const rest = text.toLowerCase()
  const range = new RegExp(String.raw`\b${DAY}\s*(?:–|-|to|through|thru)\s*${DAY}`).exec(rest)
  if (range) {
    const [s, e] = [WEEKDAY.indexOf(range[1]!), WEEKDAY.indexOf(range[2]!)]
    const out = new Set<number>()
    for (let d = s; ; d = (d + 1) % 7) { out.add(d); if (d === e || out.size === 7) break }
    return out
  }
  if (/\bweekends?\b/.test(rest)) return new Set([0, 6])
  if (/\bweekdays?\b/.test(rest)) return new Set([1, 2, 3, 4, 5])
  const one = new RegExp(String.raw`\b${DAY}`).exec(rest)
  return one && /^(?:sun|mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?)(?:day|days|s)?\.?$/.test(one[0]) ? new Set([WEEKDAY.indexOf(one[1]!)]) : null
}

/**
 * The weekdays a clause opens with, before a value: "On Saturdays the library closes at 5 pm",
 * "every Monday the bus leaves at 7" (eighth round). Only days said after "on", "every", "over"
 * or "during", so a day that is the thing itself ("Monday's meeting is at 3") keeps being
 * compared as a date.
 */
export function leadingDays(r: Reading, at: number): ReadonlySet<number> | null {
  const m = /\b(?:on|every|over|during)\s+([^.;!?,]*)$/i.exec(r.norm.slice(0, at))
  return m ? daysIn(m[1]!) : null
}

/** The first value after a position in its clause ("opens at 9" -> 9am, "closed Sundays" -> Sunday). */
function following(r: Reading, end: number): Slot | null {
  let best: { at: number; slot: Slot } | null = null
  for (const [slot, at] of r.slots.at) {
    if (at < end || /[.;!?,:()–]/.test(r.norm.slice(end, at))) continue
    if (!best || at < best.at) best = { at, slot }
  }
  return best?.slot ?? null
}

/**
 * Opposite words qualified by different values: "opens at 9am" / "closes at 6pm", "open on
 * Mondays" / "closed on Tuesdays", "opens at 9" / "closed Sundays" are two facts each. Qualified
 * by the same value ("open on Sundays" / "closed Sundays") they contradict.
 */
export function differentQualifiers(a: Reading, endA: number, b: Reading, endB: number): boolean {
  // "open Monday to Friday" / "closed weekends": days that do not overlap are two facts.
  const [da, db] = [qualifiedDays(a, endA), qualifiedDays(b, endB)]
  if (da && db) return ![...da].some((d) => db.has(d))
  // "locked at night" / "unlocked during the day": two parts of the day, two facts.
  const part = (r: Reading, end: number): string | null => /^[^.;!?,:()]*?\b(morning|afternoon|evening|night|overnight|day|daytime|nighttime)\b/i.exec(r.norm.slice(end))?.[1]!.toLowerCase().replace(/^(?:overnight|nighttime)$/, 'night').replace(/^daytime$/, 'day') ?? null
  const [pa, pb] = [part(a, endA), part(b, endB)]
  if (pa && pb && pa !== pb) return true
  const [x, y] = [following(a, endA), following(b, endB)]
  if (!x || !y) return false
  // A weekday and "this week" may name the same days: they do not make two facts.
  const days = new Set([family(x), family(y)])
  if (days.has('date') && [...days].some((f) => f.startsWith('reldate:week'))) return false
  return family(x) !== family(y) || compare(x, y, a.slots.approximate || b.slots.approximate) !== 'equal'
}
