import { canon, differentAttributes, leadingDays, qualifiedDays } from '../attachment.js'
import type { Slot } from '../../read/slot.js'
import { isTimeWord, type Reading } from '../../read/reading.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'
import { compareSlots } from './slot-compare.js'
import { ONE_OCCASION, PAST_VERB, RETURN_LEG, USUAL } from '../../words/markers.js'
import { MEASURE_VERBS, PAST_EVENT_EXTRA } from '../../words/event-verbs.js'
import { IRREGULAR_PAST } from '../../read/subject.js'
import { STOPWORDS } from '../../words/stopwords.js'
import { hasStem } from '../../read/same-stem.js'
import { stem } from '../../read/stem.js'
import { AMOUNT_ROLE, ROLE_OF } from '../../words/amount-roles.js'
import { labelsTheSubject } from '../subject-label.js'
import { daysMeet } from '../zoned-days.js'
import { datedValues } from '../dated-values.js'

// The value check: the slots of both texts (read/slots.ts) compared family by family
// (slot-compare.ts), and a clash that no reading reconciles turned into a signal.

/** A weekday or a part of the week named anywhere in a text. */
const ANY_DAY = /\b(?:(?:sun|mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?)(?:day)?s?|week(?:end|day)s?)\b/i

const EVENTFUL: ReadonlySet<string> = new Set(['time', 'span', 'date', 'reldate'])

/** Values of one kind that no reading reconciles: 3pm vs 4pm, 30°C vs 68°F, 1 GB vs 500 MB. */
export function valueSignal(a: Reading, b: Reading): Signal | null {
  // "used to work at Stripe" / "at Shopify now": a past value and a present one are both true.
  if (differentTimes(a, b)) return null
  // Times and dates belong to events ("departs" / "arrives", "expires" / "was signed"); amounts,
  // sizes and frequencies are read as one attribute whatever verb carries them ("runs twice a
  // month" / "is processed once a month").
  // Label numbers ("PR 221", "Gate 12") say which thing, as times say which event: both are
  // compared only when said of one attribute ("reviewed PR 221" / "approved PR 223" are two PRs).
  const labelled = (sl: (typeof a.slots.slots)[number]): boolean => EVENTFUL.has(sl.kind) || (sl.kind === 'count' && sl.unit.startsWith('#'))
  // "the train to Paris leaves at 7:40" / "the train back from Paris leaves at 19:10": two legs.
  const legs = RETURN_LEG.test(a.norm) !== RETURN_LEG.test(b.norm)
  // "the crossing takes about 90 minutes" / "took almost two hours today": one day's amount in the
  // past against the usual one in the present (ninth round). Times and dates still clash: they
  // say when that day's event was.
  const occasion = oneOccasion(a, b)
  const clashes = compareSlots(a.slots, b.slots).clashes.filter((c) => {
    const [atA, atB] = [a.slots.at.get(c.slots[0]) ?? -1, b.slots.at.get(c.slots[1]) ?? -1]
    // "room 204 has no wifi" / "the review is in the big room on 5": the subject's label says which room.
    if (c.slots[0].kind === 'count' && (labelsTheSubject(a, placeOf(a, c.slots[0], atA), c.slots[0].text) || labelsTheSubject(b, placeOf(b, c.slots[1], atB), c.slots[1].text))) return false
    if (labelled(c.slots[0]) && (legs || (windowEdge(c.slots) ? otherThanWindow(a, b) : differentAttributes(a, atA, b, atB)))) return false
    if (occasion && !EVENTFUL.has(c.slots[0].kind)) return false
    if (c.slots[0].kind === 'money' && actionAgainstPrice(a, placeOf(a, c.slots[0], atA), c.slots[0].text, b, placeOf(b, c.slots[1], atB), c.slots[1].text)) return false
    if ((c.slots[0].kind === 'money' || c.slots[0].kind === 'count') && twoRoles(a, placeOf(a, c.slots[0], atA), c.slots[0].text, b, placeOf(b, c.slots[1], atB), c.slots[1].text)) return false
    if ((!EVENTFUL.has(c.slots[0].kind) || c.slots[0].kind === 'date') && twoEvents(a, placeOf(a, c.slots[0], atA), b, placeOf(b, c.slots[1], atB))) return false
    // "opens at 7 on weekdays" / "opens at 9 on weekends": values for days that do not meet.
    // The days may also open the clause: "On Saturdays the library closes at 5 pm" (eighth round).
    const [da, db] = [atA >= 0 ? qualifiedDays(a, atA) ?? leadingDays(a, atA) : null, atB >= 0 ? qualifiedDays(b, atB) ?? leadingDays(b, atB) : null]
    // "after noon", "before 9am": a bound on a time, not the time of the thing.
    const bounded = (r: Reading, at: number): boolean => at >= 0 && /\b(?:after|past|before|until|till|by)\s*$/i.test(r.norm.slice(Math.max(0, at - 8), at))
    if (c.slots[0].kind === 'time' && (bounded(a, atA) || bounded(b, atB))) return false
    // "next cleaning booked for Oct" / "last one was April": two occurrences, not one date twice.
    const [oa, ob] = [occurrence(a, atA), occurrence(b, atB)]
    if (oa && ob && oa !== ob) return false
    if (c.slots[0].kind === 'date') return !twoStarts(a, placeOf(a, c.slots[0], atA), b, placeOf(b, c.slots[1], atB))
    // "free on Sundays" / "admission is $18": a value said of some days only is their exception to
    // the value said of every day, not another answer (ninth round). Not when the other text names
    // a day elsewhere ("10am PT Thursday" / "thursday 11am ET").
    if ((da === null) !== (db === null) && !ANY_DAY.test((da ? b : a).norm)) return false
    return !(da && db && !daysMeet(da, db, c.slots))
  })
  // "closed on Sundays" / "hours: Mon–Sat": days said to be off are not the days of the thing;
  // open and closed days are the antonym check's, which compares them as days.
  const off = (r: Reading, sl: (typeof clashes)[number]['slots'][number]): boolean => {
    const at = r.slots.at.get(sl) ?? -1
    return sl.kind === 'date' && at >= 0 && /\b(?:closed|shut|not|no|never|except|off|without)\b[^.;!?,]*$/i.test(r.norm.slice(Math.max(0, at - 30), at))
  }
  const c = clashes.find((x) => !off(a, x.slots[0]) && !off(b, x.slots[1]))
  if (!c) return null
  // Two values each told at its own date: a change over time (judge/dated-values.ts).
  if (clashes.some((x) => x.slots[0].kind === 'date' && datedValues(a, b, x.slots))) return null
  // "Version 1 of the API" / "Version 2": a version that differs says which release, like a name.
  const version = clashes.some((x) => x.slots[0].kind === 'version')
  const period = version || clashes.some((x) => x.slots.some((s) => s.kind === 'reldate' || (s.kind === 'date' && s.d === undefined && s.m === undefined)))
  const at: [number, number] = [a.slots.at.get(c.slots[0]) ?? -1, b.slots.at.get(c.slots[1]) ?? -1]
  return { kind: 'value', reason: `different ${valueKindName(c.kind, c.slots[0].kind)}: "${c.a}" vs "${c.b}"`, kinds: clashes.length, period, modifier: version, at }
}

/** A window against a time said to be one of its edges ("runs 6-8pm" / "starts at 7"). */
function windowEdge(slots: readonly [Slot, Slot]): boolean {
  return (slots[0].kind === 'span') !== (slots[1].kind === 'span') && slots.some((s) => s.kind === 'time' && s.edge !== undefined)
}

/** Stems of the verbs that say a window or its edges: one attribute, the window's. */
const WINDOW_WORDS = new Set(['run', 'open', 'start', 'begin', 'end', 'finish', 'close', 'held', 'hour', 'kick', 'wrap'].map(stem))

/**
 * A window and an edge are one attribute only when neither text says a word the other lacks but
 * those verbs: "the gym is open 6am-10pm" / "the gym's pool opens at 8" keep two things (recall27).
 */
function otherThanWindow(a: Reading, b: Reading): boolean {
  const own = (x: Reading, y: Reading): boolean =>
    [...x.content].some((w) => !WINDOW_WORDS.has(w) && !isTimeWord(w) && !/^\d/.test(w) && !hasStem(y.tokens.map((t) => t.stem), w))
  return own(a, b) || own(b, a)
}

/** One side tells one day's occasion in the past ("took four hours yesterday", "on 18 March"), the other what is usual now. */
export function oneOccasion(a: Reading, b: Reading): boolean {
  const once = (x: Reading, y: Reading): boolean =>
    ONE_OCCASION.test(x.norm) && PAST_VERB.test(x.norm) && !/\b(?:is|are|am|will)\b/i.test(x.norm) && !y.simplePast && !ONE_OCCASION.test(y.norm)
  // "rated her pain a 6 on 18 March" / "usually about 5": one dated day against what is usual (next34).
  const dated = (x: Reading, y: Reading): boolean =>
    PAST_VERB.test(x.norm) && !USUAL.test(x.norm) && x.slots.slots.some((s) => s.kind === 'date' && s.d !== undefined) && USUAL.test(y.norm) && !y.slots.slots.some((s) => s.kind === 'date')
  return once(a, b) || once(b, a) || dated(a, b) || dated(b, a)
}

/**
 * The past verb that tells the event a value belongs to: the nearest one before it in its clause
 * ("hurt her knee at mile ten" -> hurt). Null when the clause tells no event in the past, or when
 * an update verb stands between ("moved to 10:30" gives an answer, not an event).
 */
function eventVerb(r: Reading, at: number): Reading['tokens'][number] | null {
  // "fell to 4 percent", "went up to 12": a level reached, an answer to how much now.
  if (at < 0 || /\bto\s*$/i.test(r.norm.slice(0, at))) return null
  for (let i = r.tokens.length - 1; i >= 0; i--) {
    const t = r.tokens[i]!
    if (t.end > at) continue
    if (/[.;!?,:–]/.test(r.norm.slice(t.end, at))) return null
    if (/^(?:is|are|am|will|would|has|have|can|does|do)$/.test(t.lower) || UPDATE_VERB.test(t.lower)) return null
    if (STOPWORDS.has(t.lower) || t.capital) continue
    if (isPast(t.lower)) return t
    // A phrasal verb is read as one word ("sold out" -> "soldout"): its verb is the past.
    const phrasal = /^(\p{Ll}{3,}?)(?:out|up|off|down|over|back)$/u.exec(t.lower)
    if (phrasal && isPast(phrasal[1]!)) return t
  }
  return null
}

const isPast = (w: string): boolean => /^\p{Ll}{3,}ed$/u.test(w) || IRREGULAR_PAST.test(w) || PAST_EVENT_EXTRA.has(w)

/** Verbs that give a new level or answer, not an occurrence: "moved to 10:30", "fell to 4 percent". */
const UPDATE_VERB = /^(?:re(?:assign|schedul|locat|book|nam|rout|allocat|plac)ed|moved|pushed|bumped|postponed|shifted|switched|changed|cut|raised|lowered|reduced|increased|decreased|dropped|rose|grew|sank|shrank|climbed|jumped|declined|reached)$/

/** Where a value stands; a count re-read against the other side (quantities.ts `adapt`) is a copy, found by its text. */
function placeOf(r: Reading, slot: { readonly text: string }, at: number): number {
  if (at >= 0) return at
  for (const [s, p] of r.slots.at) if (s.text === slot.text) return p
  return -1
}

/**
 * Two events told in the past, each amount after its own verb: "hurt her knee at mile ten" /
 * "felt exhausted at mile twelve", "sold the store for 455,000" / "offered him 100,000" (eleventh
 * round). A diary tells many occurrences; an amount told of one is not another answer to the
 * amount of another, nor its date another date of the same event ("wrote 3 chapters in March" /
 * "deleted 2 chapters in April"). Not when a verb measures ("paid $40" / "it cost $45": one price), nor when
 * either verb is in the other text ("ran the 10K in 58 minutes" / "ran the 10K in 65 minutes").
 */
function twoEvents(a: Reading, atA: number, b: Reading, atB: number): boolean {
  const [va, vb] = [eventVerb(a, atA), eventVerb(b, atB)]
  if (!va || !vb || MEASURE_VERBS.has(va.lower) || MEASURE_VERBS.has(vb.lower)) return false
  // "joined the clinic in 2019" / "started at the clinic in 2021": synonyms tell one event.
  if (canon(va.stem) === canon(vb.stem)) return false
  const words = (r: Reading): string[] => r.tokens.map((t) => t.stem)
  return !hasStem(words(b), va.stem) && !hasStem(words(a), vb.stem)
}

/**
 * One side tells what doing something cost once, in the past ("the generator broke down in October
 * and cost 2,300 dollars to repair": a past verb that measures, the amount, "to" and a verb), the
 * other what a thing costs now ("a used truck costs around 60,000 dollars"): the price of one
 * action, not another price of the thing (twelfth round). Two past costs still clash ("the repair
 * cost 2,000" / "cost 2,300 to repair"), as does a change of age or level ("turned 36" / "is 34").
 */
function actionAgainstPrice(a: Reading, atA: number, textA: string, b: Reading, atB: number, textB: string): boolean {
  const action = (r: Reading, at: number, text: string): boolean => {
    if (at < 0) return false
    const before = r.norm.slice(Math.max(0, at - 40), at)
    return /\b(?:cost|paid|spent|took)\s+(?:about\s+|around\s+|over\s+|nearly\s+|almost\s+)?\S*$/i.test(before) && /^\s*(?:dollars?|euros?|pounds?)?\s*to\s+\p{Ll}+/iu.test(r.norm.slice(at + text.length))
  }
  const price = (r: Reading, at: number): boolean => at >= 0 && /\b(?:costs|is|are|sells\s+for|goes\s+for)\b[^.;!?,]*$/i.test(r.norm.slice(Math.max(0, at - 40), at))
  return (action(a, atA, textA) && price(b, atB)) || (action(b, atB, textB) && price(a, atA))
}

const START = /^(?:start|starts|starting|started|begin|begins|beginning|began|launch|launches|launching|launched)$/

/** The words of what a start verb before a value starts: its object, else the noun before it. */
function started(r: Reading, at: number): string[] | null {
  if (at < 0) return null
  // The clause before the value; a comma inside a number ("58,000") ends none.
  const before = r.tokens.filter((t) => t.end <= at && !/[.;!?,:–]/.test(r.norm.slice(t.end, at).replace(/(?<=\d)[.,](?=\d)/g, '')))
  const v = before.findLastIndex((t) => START.test(t.lower))
  if (v < 0) return null
  const plain = (t: Reading['tokens'][number]): boolean => !STOPWORDS.has(t.lower) && !t.capital && !isTimeWord(t.lower) && !/^\d/.test(t.lower) && r.content.has(t.stem)
  // "starting a seed library in April": the object, up to a preposition or the value.
  const object: string[] = []
  for (const t of before.slice(v + 1)) {
    if (/^(?:in|on|at|from|by|for|with|next|this|last)$/.test(t.lower)) break
    if (plain(t)) object.push(t.stem)
  }
  if (object.length > 0) return object
  // "Gwen's PhD starts in September", "a job at 58,000 dollars a year starting in May".
  // A capitalised noun counts ("PhD"), a possessor does not ("Gwen's").
  for (let i = v - 1; i >= 0; i--) {
    const t = before[i]!
    if (/^['’]s\b/.test(r.norm.slice(t.end))) continue
    if ((plain(t) || (t.capital && i > 0)) && !UNIT_WORD.test(t.lower)) return [t.stem]
  }
  return null
}

const UNIT_WORD = /^(?:dollars?|euros?|pounds?|percent|hours?|minutes?|days?|weeks?|months?|years?)$/

/**
 * Two things that start on two dates: "Gwen's PhD starts in September" / "a research job starting
 * in May", "is starting a seed library in April" / "will open on Sundays starting in July"
 * (eleventh round). The date of a start belongs to what starts; when each text's thing has a word
 * the other text lacks, they are two starts. "The course starts on 5 May" / "the course starts on 12 May" and
 * "starts her new job in May" / "her new job starts in June" still clash.
 */
function twoStarts(a: Reading, atA: number, b: Reading, atB: number): boolean {
  const [x, y] = [started(a, atA), started(b, atB)]
  if (!x || !y) return false
  const words = (r: Reading): string[] => r.tokens.map((t) => t.stem)
  return x.some((w) => !hasStem(words(b), w)) && y.some((w) => !hasStem(words(a), w))
}

/** A value kind a person reads: "number" for a bare count, "number of seats", "relative date". */
function valueKindName(kind: string, slot: string): string {
  if (slot === 'reldate') return 'relative date'
  if (slot === 'freq') return 'frequency'
  if (slot === 'count') return kind === '' ? 'number' : kind.startsWith('#') ? `${kind.slice(1)} number` : `number of ${kind}`
  return kind || slot
}

/** Which occurrence the clause of a value speaks of: the last one, or the next one. */
function occurrence(r: Reading, at: number): 'last' | 'next' | null {
  if (at < 0) return null
  const m = /\b(last|previous|prior|next|upcoming|following)\b(?![^.;!?]*\b(?:last|previous|prior|next|upcoming|following)\b)[^.;!?]*$/i.exec(r.norm.slice(0, at))
  return m ? (/^(?:last|previous|prior)$/i.test(m[1]!) ? 'last' : 'next') : null
}

/**
 * Two amounts of two things: one says what it pays for, the other where it comes from ("offered
 * 420,000 for the business" / "offered 100,000 from the store sale"), and neither names the other's
 * thing. One role on both sides ("$400 for the bike" / "$600 for the bike") is one price.
 */
function twoRoles(a: Reading, atA: number, textA: string, b: Reading, atB: number, textB: string): boolean {
  if (atA < 0 || atB < 0) return false
  const ra = AMOUNT_ROLE.exec(a.norm.slice(atA + textA.length))
  const rb = AMOUNT_ROLE.exec(b.norm.slice(atB + textB.length))
  if (!ra || !rb || ROLE_OF[ra[1]!.toLowerCase()] === ROLE_OF[rb[1]!.toLowerCase()]) return false
  const unnamed = (phrase: string, other: Reading): boolean =>
    phrase.split(/\s+/).filter((w) => !STOPWORDS.has(w.toLowerCase())).every((w) => !hasStem(other.content, stem(w.toLowerCase())))
  return unnamed(ra[2]!, b) && unnamed(rb[2]!, a)
}
