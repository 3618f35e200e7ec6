import { isTimeWord, type Reading } from '../read/reading.js'
import type { Slot } from '../read/slot.js'
import { isPastVerb } from '../read/claim-kind.js'
import { STOPWORDS } from '../words/stopwords.js'
import { sameStem } from '../read/same-stem.js'
import { canon } from './attachment.js'
import { compareDates } from './checks/dates.js'
import type { RawVerdict } from './verdict.js'

// A date's event (issue 27, session 13, dates36). A date clash is a contradiction only when both
// dates are of one occurrence of one event. In notes about a person most dates are of other things:
// "her blood test on 19 May was fine" / "sees Dr Okafor on 19 October" (a test done, a visit to come),
// "expects the appointment letter in May" / "the appointment is on 3 June" (a letter, an
// appointment), "needs to change his address in December" / "In January he needs to register"
// (two tasks), "staying for a week from 25 July" / "the test after July" (an extent, a bound).
// Each date is read for the event it dates, whether it bounds it, and whether it is told as done;
// a clash is kept when some pair of differing dates is left unexplained.

type DateSlot = Extract<Slot, { kind: 'date' }>
/** A head word, and the index of its token. */
type Head = { readonly stem: string; readonly word: string; readonly i: number; readonly copula?: boolean; readonly verb?: string }

/** What one date of a text dates. */
interface DatedEvent {
  readonly slot: DateSlot
  /** The thing or task the date is of; null when the text does not say. */
  readonly head: Head | null
  /** "after July", "by May": a bound the event's own date keeps to, not that date. */
  readonly bound: 'start' | 'end' | null
  /** Told as done ("saw her on 13 April", "the test on 19 May was fine") or as to come (no past verb in its clause). */
  readonly tense: 'done' | 'ahead' | null
}

// "good until", "open until", "since" tell a state's own edge, not a bound on an event's date.
const BOUND_END = /\b(?:before|by|no\s+later\s+than)\s+(?:the\s+)?(?:end\s+of\s+|early\s+|mid-?\s*|late\s+)?$/i
const BOUND_START = /\bafter\s+(?:the\s+)?(?:end\s+of\s+|early\s+|mid-?\s*|late\s+)?$/i
/** The date is what a copula says of its subject: "the exam is on 3 June", "move-in day is now Sunday 20 September". */
const COPULA = /\b(?:is|are|was|were|be|'s)\s+(?:now\s+|still\s+|also\s+)?(?:on|in|at|for)?\s*(?:the\s+)?$/i
/** A task the date is of: "needs to register", "has to change". */
const TASK = /\b(?:needs?|needed|has|have|had|plans?|planned|wants?|wanted|going|hopes?)\s+to\s+(\p{L}+)/giu
/** A change of plan: its date is a new answer, not another occurrence. */
export const UPDATE = /\b(?:moved|postponed|rescheduled|changed|pushed|delayed|brought\s+forward|put\s+back|now)\b/i
const AHEAD = /\b(?:will|shall|is|are|am|next|upcoming|due|going)\b/i
/** Particles of a phrasal verb ("flying out on 20 June" is the flight's date) and prepositions. */
const PARTICLE = /^(?:out|back|off|away|up|down|over|home|after|before|since|until|till|during|from|to|for|with|at|on|in|by)$/
const OCCURRENCE = /^(?:next|last|this|upcoming|previous|following|every|each|again)$/
const SEASON = /^(?:spring|summer|autumn|fall|winter)s?$/
const AUXILIARY = /^(?:am|is|are|was|were|be|been|i'm|we're|they're|you're|he's|she's|m|re)$/
/** Nouns that say when, not what: "move-in day" is the move-in's. */
const WHEN_NOUN = /^(?:day|date|time|slot)s?$/

/** A clause's bounds around `at`: between the nearest sentence breaks. */
function clause(r: Reading, at: number): [number, number] {
  const start = Math.max(...[...r.norm.slice(0, at).matchAll(/[.;!?:]\s/g)].map((m) => m.index + 1), 0)
  const end = /[.;!?](?:\s|$)/.exec(r.norm.slice(at))
  return [start, end ? at + end.index : r.norm.length]
}

// A capital at a sentence's start proves nothing to the tokenizer, but a head is never a name.
const plain = (t: Reading['tokens'][number], r?: Reading): boolean =>
  !STOPWORDS.has(t.lower) && !PARTICLE.test(t.lower) && !SEASON.test(t.lower) && !OCCURRENCE.test(t.lower) && !(r && /\p{Lu}/u.test(r.norm[t.start]!)) && !t.capital && !/\d/.test(t.lower) && !isTimeWord(t.lower) && !/ly$/.test(t.lower) && !WHEN_NOUN.test(t.lower)

/** A verb after its subject ("the flight leaves", "the test was moved"): the date is the subject's, read on. */
function verbLike(r: Reading, i: number): boolean {
  const t = r.tokens[i]!
  const prev = r.tokens[i - 1]
  // "I'm flying to Chicago on Thursday": a verb in progress names no thing.
  if (/ing$/.test(t.lower) && prev !== undefined && AUXILIARY.test(prev.lower)) return true
  return isPastVerb(t.lower) || UPDATE.test(t.lower) || (/[^s]s$/.test(t.lower) && prev !== undefined && !STOPWORDS.has(prev.lower) && !/[,;:]/.test(r.norm.slice(prev.end, t.start)))
}

/** The plain word nearest before `end` and after `start` that is no verb, with the verb passed on the way ("production deploys"), or null. */
function nearest(r: Reading, start: number, end: number): Head | null {
  let verb: string | undefined
  for (let i = r.tokens.length - 1; i >= 0; i--) {
    const t = r.tokens[i]!
    if (t.start < start || t.end > end || !plain(t, r)) continue
    if (verbLike(r, i)) {
      verb ??= canon(t.stem)
      continue
    }
    return { stem: canon(t.stem), word: t.lower, i, ...(verb ? { verb } : {}) }
  }
  return null
}

/** What the date at `at` dates: a copula's subject, a task's verb, else the word nearest before it. */
function headOf(r: Reading, at: number, [start, end]: [number, number]): Head | null {
  const before = r.norm.slice(start, at)
  const copula = COPULA.exec(before)
  const subject = copula && nearest(r, start, start + copula.index)
  if (subject) return { ...subject, copula: true }
  const tasks = [...r.norm.slice(start, end).matchAll(TASK)]
  const task = tasks.findLast((m) => start + m.index < at) ?? tasks[0]
  const i = task ? r.tokens.findIndex((t) => t.start === start + task.index + task[0].length - task[1]!.length) : -1
  if (i >= 0) return { stem: canon(r.tokens[i]!.stem), word: r.tokens[i]!.lower, i }
  return nearest(r, start, at)
}

function tenseOf(r: Reading, at: number, [start, end]: [number, number]): DatedEvent['tense'] {
  const text = r.norm.slice(start, end)
  // "the appointment was on 3 May": the date is the claim, not the day of something done.
  if (COPULA.test(r.norm.slice(start, at)) && /\b(?:was|were)\b/i.test(r.norm.slice(start, at))) return null
  if (UPDATE.test(text)) return null
  // "sat 6 jun" is a Saturday: words inside a date tell no tense.
  const dated = [...r.slots.at].filter(([sl, p]) => sl.kind === 'date' && p >= 0).map(([sl, p]) => [p, p + sl.text.length] as const)
  const past = r.tokens.some((t) => t.start >= start && t.end <= end && isPastVerb(t.lower) && !dated.some(([p, q]) => t.start >= p && t.end <= q))
  if (past) return AHEAD.test(text) ? null : 'done'
  return 'ahead'
}

/** The dates a text states, each with the event it dates. */
export function datedEvents(r: Reading): DatedEvent[] {
  const out: DatedEvent[] = []
  for (const [slot, at] of r.slots.at) {
    if (slot.kind !== 'date' || at < 0) continue
    const span = clause(r, at)
    const before = r.norm.slice(span[0], at)
    const bound = BOUND_END.test(before) ? 'end' : BOUND_START.test(before) ? 'start' : null
    out.push({ slot, head: headOf(r, at, span), bound, tense: tenseOf(r, at, span) })
  }
  return out
}

/** -1 when `a` is before `b`, 1 after, 0 when the dates do not say. */
function order(a: DateSlot, b: DateSlot): number {
  if (a.m === undefined || b.m === undefined) return 0
  if (a.y !== undefined && b.y !== undefined && a.y !== b.y) return a.y < b.y ? -1 : 1
  if (a.m !== b.m) return a.m < b.m ? -1 : 1
  return a.d !== undefined && b.d !== undefined && a.d !== b.d ? (a.d < b.d ? -1 : 1) : 0
}

/** Whether `y` holds a bound that the date of `x` keeps to ("after July" / "on 8 September"). */
function keepsTo(x: DatedEvent, y: DatedEvent): boolean {
  if (x.bound || !y.bound) return false
  return y.bound === 'start' ? order(y.slot, x.slot) < 0 : order(x.slot, y.slot) < 0
}

/**
 * Whether a text names the thing `h` heads elsewhere than in its own head's compound: against "the
 * appointment is on 3 June" (the appointment is what is dated), "the hand therapy appointment letter"
 * names a letter, the appointment only as what kind of letter. "The earnings go out" keeps "earnings
 * release" one event.
 */
function names(r: Reading, own: Head | null, h: Head): boolean {
  let first = own ? own.i : r.tokens.length
  while (own && h.copula && first > 0 && plain(r.tokens[first - 1]!) && !verbLike(r, first - 1) && /^\s+$/.test(r.norm.slice(r.tokens[first - 1]!.end, r.tokens[first]!.start))) first--
  return r.tokens.some((t, i) => (i < first || !own || i > own.i) && sameStem(canon(t.stem), h.stem))
}

/** Why two differing dates are of two events or two occurrences, or null when they may be one. */
function apart(x: DatedEvent, y: DatedEvent, a: Reading, b: Reading): string | null {
  if (keepsTo(x, y) || keepsTo(y, x)) return `"${(x.bound ? x : y).slot.text}" bounds it, not its own date`
  const [done, ahead] = x.tense === 'done' && y.tense === 'ahead' ? [x, y] : y.tense === 'done' && x.tense === 'ahead' ? [y, x] : [null, null]
  if (done && ahead && order(done.slot, ahead.slot) < 0) return `one done on "${done.slot.text}", another to come on "${ahead.slot.text}"`
  // Two heads, neither named by the other text: "the letter in May" / "the appointment on 3 June".
  const says = (r: Reading, w: string | undefined): boolean => w !== undefined && r.tokens.some((t) => sameStem(canon(t.stem), w))
  if (x.head && y.head && !sameStem(x.head.stem, y.head.stem) && !names(a, x.head, y.head) && !names(b, y.head, x.head) && !says(b, x.head.verb) && !says(a, y.head.verb)) {
    return `"${x.slot.text}" dates the ${x.head.word}, "${y.slot.text}" the ${y.head.word}`
  }
  return null
}

/**
 * Why a date clash is between two events or two occurrences of one, or null: every pair of the
 * texts' dates that differ must be of two things (another head, a bound against a date), or one
 * told as done before the other to come. One event told with two dates ("the move-in is on
 * Saturday 19 September" / "is now Sunday 20 September") keeps its flag.
 */
export function dateEvents(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.check !== 'value' || !/^different date\b/.test(raw.reason)) return null
  const [ea, eb] = [datedEvents(a), datedEvents(b)]
  const notes: string[] = []
  for (const x of ea) {
    for (const y of eb) {
      if (compareDates(x.slot, y.slot) !== 'differ') continue
      const why = apart(x, y, a, b)
      if (!why) return null
      notes.push(why)
    }
  }
  return notes.length ? `two events or occurrences: ${notes[0]}` : null
}
