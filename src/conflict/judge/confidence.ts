import type { Reading } from '../read/reading.js'
import { SENTENCE_BREAK, sentences, type Statement } from '../read/statement.js'
import { OWNER_READING, twoSubjects } from '../read/subject.js'
import { labelHeadAt } from '../read/labels.js'
import { sameStem } from '../read/same-stem.js'
import type { RawVerdict } from './verdict.js'
import { frameFactors } from './claim-frame.js'
import { countedApart } from './counted-head.js'
import { valuesOfTwo } from './value-of.js'
import { bothDayparts } from './both-dayparts.js'
import { NUMBER_SRC, ORDINAL_WORDS } from '../read/numbers.js'
import { AFTER_NOUN } from '../words/frame-cues.js'
import { twoEvents } from './two-events.js'
import { otherQuestion, twoOccurrences } from './modifier-roles.js'
import { usualAndOne } from './usual-and-one.js'
import { partAndWhole } from './part-and-whole.js'
import { twoObjects } from './two-objects.js'
import { dateEvents } from './date-events.js'
import { dateSeries } from './date-series.js'
import { sizeAndDistance } from './size-and-distance.js'
import { measuresOfTwo, partsOfOneSum, runningTotal, twoTimesDone } from './amount-parts.js'
import { escapeRe } from '../read/escape-re.js'
import { twoPredicates } from './one-predicate.js'
import { oneSidedScope } from './one-sided-scope.js'
import { verblessReply } from './verbless-reply.js'
import { forecastAndOutcome } from './forecast-and-outcome.js'

/**
 * How sure a fired check is, before anything about the pair lowers it. Values, negations,
 * antonyms and stances compare one word or value with its counterpart; a name or a modifier
 * against another is an answer only when both stand where an attribute's value stands, which the
 * rules can tell less well (see `nameAsValue`).
 *
 * Calibrated on dev data (issue 27, twelfth round): every check whose true dev flags stand on one
 * slot of one subject (another name, identifier, place, member of a class, "only", a negating
 * prefix, another modifier in a short pair) starts at 0.85, so a flag with no weak reading sits
 * above the threshold (0.8, threshold.ts) and one weak reading (any factor but the mildest of
 * length) takes it under; what tells a false flag from a true one is then the factors, not the check. docs/conflicts.md,
 * "Confidence", has the dev table this was chosen on.
 */
const BASE: Readonly<Record<string, number>> = {
  'value': 0.9,
  'negation': 0.85,
  'antonym': 0.85,
  'stance': 0.85,
  'order': 0.85,
  'diet': 0.85,
  'weekday-rule': 0.85,
  'possession': 0.85,
  'job': 0.85,
  'exclusive': 0.85,
  'substitution': 0.85,
  'prefix': 0.85,
  'identifier': 0.85,
  'place': 0.85,
  // Another modifier of a shared noun ("beach trips" / "camping trip", "support group" / "pride
  // parade"): one noun often has many members, so this alone is a weak sign.
  'complement': 0.45,
}

/** At most this many content words on each side make a short pair. */
const SHORT = 6
// "Kate works the day shift" / "the night shift": in a short pair another modifier is the answer.
const BASE_SHORT_COMPLEMENT = 0.85

/** Content words in the longer text past which each further word lowers the confidence. */
const LONG = 10

/** What lowers a fired check's confidence, and by how much. */
export const FACTORS = {
  /** A name against a name where either does not stand as a value (it is a subject or an object of something else). */
  nameNotValue: 0.4,
  /** Each text names a subject of its own and they share words only in what they say of them (subject.ts). */
  twoSubjects: 0.4,
  /** The clashing number labels an item on one side or both ("order 3320", "MySQL 8"): labels.ts. */
  label: 0.3,
  /** No shared key entity stands in the sentence of what differs, on one side at least. */
  unanchored: 0.5,
  /** A value clash where one value is the word "one". */
  pronounOne: 0.5,
  /** Ordinals before two different nouns. */
  ordinalOfTwo: 0.4,
  /** Per content word past LONG in the longer text: a long text says many things, and a clash found in it is more often between two of them. */
  perWord: 0.05,
  /** The least the length takes away. */
  longest: 0.5,
  /** A side of more than two claim sentences: chat, where two things said apart meet by chance. */
  manySentences: 0.8,
  /** A negation inside what someone urges, believes or intends ("encourages him not to give up"). */
  embedded: 0.45,
  /** Every claim of one side is a plan ("going to", "planning to"). */
  plan: 0.65,
  /** Every claim of one side is an opinion of, or advice to, someone ("believes", "encourages"). */
  opinion: 0.5,
  /** A place that is an activity or a pronoun ("involved in organizing", "in someone's life"). */
  notAPlace: 0.5,
  /** Every claim of one side is hypothetical ("might", "if", "would"). */
  hypothetical: 0.45,
  /** Two speakers, one of whom speaks of themselves. */
  otherSpeaker: 0.5,
  /** Two names one letter apart ("Patterson" / "Pattersen", "Christopher" / "Christpher"): one name, spelled two ways. */
  spelling: 0.4,
  /**
   * Another modifier of one noun that names no kind of it: a count ("two students" / "one student"),
   * "a second" one (another, not another kind), an adverb ("possibly moving"), or a head that is no
   * noun ("Berlin last" of "last weekend", "Kofi moved"). Twelfth round.
   */
  notAKind: 0.5,
  /** Two clashing counts of two things: a compound measure before two nouns, a part against its group (counted-head.ts). */
  countedApart: 0.4,
  /** Two clashing values of two things: what each counts, prices, labels or is the time of day of (value-of.ts, rule 29). */
  valuesOfTwo: 0.45,
  /** One text tells both times of day of the clash, one of them the other text's (both-dayparts.ts, rule 29). */
  bothDayparts: 0.45,
  /** A negation met by its word in another part of speech ("the PhD program" / "never programmed"). Twelfth round. */
  otherSense: 0.5,
  /** A negation that reaches another object: a clause of when or if, another phrase after the noun, a word of a name, a bound (negation-object.ts, rule 31). */
  otherObject: 0.5,
  /**
   * Store-level (store/hub-subject.ts, session 10): both texts open with a name that opens a large
   * share of the store's facts, and what differs is not one attribute of it said twice.
   */
  hubSubject: 0.5,
  /**
   * Store-level (store/hub-only.ts, rule 32): the two texts share no key but the store's hub, and
   * nothing says their values are of one thing. Takes a 0.9 value clash below the threshold.
   */
  hubOnly: 0.5,
  /** Two events that differ in the object, place or companion of the action, with no one occasion named (two-events.ts, session 10). */
  twoEvents: 0.6,
  /** Two modifiers of one noun that answer two questions: a colour beside a purpose, a body part beside a condition (modifier-roles.ts, events27). */
  otherQuestion: 0.5,
  /**
   * What differs is said of two things: two occurrences named apart ("left" / "right", "morning" /
   * "evening": modifier-roles.ts), the usual one and one time it was done ("the drive is 35 min" /
   * "drove 9 hours": usual-and-one.ts), a part and its whole (part-and-whole.ts). events27.
   */
  twoOccurrences: 0.5,
  /** One action done to two things, each text naming its own object ("water the fern" / "water the cactus"): two-objects.ts, cross28. */
  twoObjects: 0.6,
  /** Two dates of two events, or of a past and a coming occurrence of one, or a bound against a date (date-events.ts, dates36). */
  dateEvents: 0.5,
  /** One date against a text that gives the thing several dated occurrences (date-series.ts, notes39, session 14). */
  dateSeries: 0.5,
  /** Two amounts or measures of two parts or instances of one thing: a deposit and the remainder, two runs, two things measured (amount-parts.ts, rule 33). */
  amountParts: 0.5,
  /** Two modifiers of one noun said after two predicates share nothing: two questions (one-predicate.ts, pairs39). */
  twoPredicates: 0.5,
  /** One text names a recurring occasion ("on Fridays", "after Sunday lunch") the other does not: a rule and its exception (one-sided-scope.ts, pairs39). */
  oneSidedScope: 0.5,
  /** What differs stands in a reply without a verb ("Twelve weeks, £300."): what it measures is in an unstored question (verbless-reply.ts, rule 38, turns40, session 14). */
  verblessReply: 0.5,
  /** A clash of when between what will happen and what did ("I'll ring tomorrow" / "rang last week"): forecast-and-outcome.ts, rule 39, turns40, session 14. */
  forecastAndOutcome: 0.5,
  /** A length that tells a size against one that tells a distance ("a 28-foot yacht" / "sailed six miles"; size-and-distance.ts, notes40). */
  sizeAndDistance: 0.5,
} as const

/**
 * The confidence of a fired verdict, with a note for the person reading the reason when something
 * lowered it. Called only when a check fired; vetoes (not a claim, two items, two speakers each
 * about themselves) are decided before, in the detector.
 */
export function weigh(raw: RawVerdict, a: Reading, b: Reading, sa?: Statement, sb?: Statement): { value: number; note: string } {
  let value = BASE[raw.check ?? 'value'] ?? 0.7
  // Another modifier of one noun is an answer when little else is said ("Ivo is on the data team"
  // / "ivo moved to the security team").
  if (raw.check === 'complement' && Math.max(a.content.size, b.content.size) <= SHORT) value = BASE_SHORT_COMPLEMENT
  const notes: string[] = []
  // A reading that tells two things or two times lowers the flag by its factor and says why.
  const lower = (note: string | null, factor: number): string | null => {
    if (note) {
      value *= factor
      notes.push(note)
    }
    return note
  }
  const sig = raw.signal
  if (sig?.names && raw.check === 'substitution' && sig.reason.startsWith('different name')) {
    if (!nameAsValue(a, sig.names[0].start) || !nameAsValue(b, sig.names[1].start)) {
      value *= FACTORS.nameNotValue
      notes.push('the names may be who the texts are about, not the answer they give')
    }
    if (spellingVariants(sig.names[0].text, sig.names[1].text)) {
      value *= FACTORS.spelling
      notes.push('the names are one letter apart: perhaps one name misspelled')
    }
  }
  const nums = /^different (?:[\w-]+ )?number(?: of [\w-]+)?: "([^"]+)" vs "([^"]+)"/.exec(raw.reason)
  if (sig && raw.check === 'value' && nums) {
    // Where a value stands when its reader did not say: its last occurrence as a whole word.
    const at = (r: Reading, k: 0 | 1): number => {
      const known = sig.at?.[k] ?? -1
      if (known >= 0) return known
      const hits = [...r.norm.matchAll(new RegExp(`(?<![\\w.])${escapeRe(nums[k + 1]!)}(?![\\w.])`, 'g'))]
      return hits.at(-1)?.index ?? -1
    }
    const [ha, hb] = [labelHeadAt(a.norm, at(a, 0)), labelHeadAt(b.norm, at(b, 1))]
    // Found by its text alone, a number is a label only where both sides have one ("MySQL 8" /
    // "order 3320"); "biscuit turns 5" against "Biscuit is 3" has one amount after a verb.
    const located = (sig.at?.[0] ?? -1) >= 0 && (sig.at?.[1] ?? -1) >= 0
    if ((located ? ha || hb : ha && hb) && ha !== hb) {
      value *= FACTORS.label
      notes.push(`a number that names an item ("${ha ?? 'value'}" / "${hb ?? 'value'}"), not a value`)
    }
  }
  const spans = clashSpans(raw, a, b)
  lower(verblessReply(raw.shared, a, b, spans), FACTORS.verblessReply)
  lower(forecastAndOutcome(raw.reason, a, b, spans), FACTORS.forecastAndOutcome)
  if (spans && !(anchored(a, spans[0], raw.shared, spans) && anchored(b, spans[1], raw.shared, spans))) {
    value *= FACTORS.unanchored
    notes.push('nothing the texts share stands beside what differs')
  }
  // "one" is as often a pronoun ("kids who need one", "nice one") as a number.
  if (raw.check === 'value' && /: "(?:one|ones)" vs |vs "(?:one|ones)"/i.test(raw.reason)) {
    value *= FACTORS.pronounOne
    notes.push('"one" may be a pronoun')
  }
  // Ordinals of two things ("the first step" / "last Friday") are not two answers.
  if (/^different ordinal: /.test(raw.reason) && spans) {
    const next = (r: Reading, sp: Span): string | undefined => r.tokens.find((t) => t.start > (sp.at ?? 0))?.stem
    const [na, nb] = [next(a, spans[0]), next(b, spans[1])]
    if (na && nb && !sameStem(na, nb)) {
      value *= FACTORS.ordinalOfTwo
      notes.push('the ordinals count different things')
    }
  }
  const words = Math.max(a.content.size, b.content.size)
  if (words > LONG) {
    value *= Math.max(FACTORS.longest, 1 - FACTORS.perWord * (words - LONG))
    notes.push(`long texts (${words} content words)`)
  }
  if (raw.check === 'place' && sig?.names?.some((n) => /ing$|^(?:some|any|every|no)(?:one|body|thing|where)$/.test(n.text))) {
    value *= FACTORS.notAPlace
    notes.push('an activity or a pronoun, not a place')
  }
  if ([sa, sb].some((st) => st && sentences(st.text).length > 2)) {
    value *= FACTORS.manySentences
    notes.push('said among many other things')
  }
  const apart = lower(countedApart(raw, a, b), FACTORS.countedApart)
  const twoHeads = apart ? null : lower(valuesOfTwo(raw, a, b), FACTORS.valuesOfTwo)
  if (!twoHeads) lower(bothDayparts(raw, a, b), FACTORS.bothDayparts)
  const why = raw.check === 'complement' ? noKind(raw.reason, a, b) : null
  if (why) {
    value *= FACTORS.notAKind
    notes.push(why)
  }
  const question = raw.check === 'complement' ? otherQuestion(raw.reason) : null
  const occurrences = question ? null : twoOccurrences(a, b, raw.reason) ?? usualAndOne(raw, a, b) ?? partAndWhole(raw, a, b)
  if (!question) lower(twoPredicates(raw, a, b), FACTORS.twoPredicates)
  for (const [note, factor] of [[question, FACTORS.otherQuestion], [occurrences, FACTORS.twoOccurrences]] as const) {
    if (!note) continue
    value *= factor
    notes.push(note)
  }
  const events = twoEvents(raw, a, b)
  if (events) {
    value *= FACTORS.twoEvents
    notes.push(events)
  }
  const objects = events ? null : twoObjects(raw, a, b)
  if (objects) {
    value *= FACTORS.twoObjects
    notes.push(objects)
  }
  lower(dateEvents(raw, a, b), FACTORS.dateEvents)
  lower(dateSeries(raw, a, b), FACTORS.dateSeries)
  lower(oneSidedScope(raw, a, b), FACTORS.oneSidedScope)
  lower(sizeAndDistance(raw, a, b), FACTORS.sizeAndDistance)
  // Rule 33: one reading per function, so that each can be switched off alone.
  lower(partsOfOneSum(raw, a, b) ?? runningTotal(raw, a, b) ?? twoTimesDone(raw, a, b) ?? measuresOfTwo(raw, a, b), FACTORS.amountParts)
  if (sig?.otherSense) {
    value *= FACTORS.otherSense
    notes.push('the word is a noun on one side and a verb on the other')
  }
  if (sig?.otherObject) {
    value *= FACTORS.otherObject
    notes.push('the negation reaches another object than the other side states')
  }
  if ((raw.kind === 'negation' || raw.kind === 'antonym') && [a, b].some((r) => EMBEDDED.test(r.norm))) {
    value *= FACTORS.embedded
    notes.push('the negation is in what someone urges or intends, not in what is')
  }
  const subjects = twoSubjects(a, b, raw.shared, [sa?.speaker ?? null, sb?.speaker ?? null])
  // "Two things of one owner" already says what "two things measured of one person" says.
  const frame = frameFactors(raw, a, b, sa, sb).filter((f) => !(subjects?.startsWith(OWNER_READING) && f.note.startsWith('two things measured')))
  // One cue counts once: the frame's "two dates of one person" already says the owner is all two
  // things of one owner share.
  if (subjects && !(subjects.startsWith(OWNER_READING) && frame.some((f) => f.note.startsWith('the texts share only who')))) {
    value *= FACTORS.twoSubjects
    notes.push(`maybe ${subjects}`)
  }
  for (const s of [sa, sb]) {
    if (s?.hedged === 'plan') {
      value *= FACTORS.plan
      notes.push('one side is a plan')
    } else if (s?.hedged === 'opinion') {
      value *= FACTORS.opinion
      notes.push("one side is someone's opinion or advice")
    } else if (s?.hedged === 'hypothetical') {
      value *= FACTORS.hypothetical
      notes.push('one side is hypothetical')
    }
  }
  if (sa?.speaker && sb?.speaker && sa.speaker !== sb.speaker && (sa.firstPerson || sb.firstPerson)) {
    value *= FACTORS.otherSpeaker
    notes.push(`said by ${sa.speaker} and by ${sb.speaker}`)
  }
  // Whether the two texts are about one thing beside what differs (claim-frame.ts).
  for (const f of frame) {
    value *= f.factor
    notes.push(f.note)
  }
  return { value: Math.round(value * 1000) / 1000, note: notes.join('; ') }
}

const COUNT = new RegExp(`^${NUMBER_SRC}$`, 'i')
// Adverbs by their endings ("possibly", "recently"), not adjectives in -ly ("weekly", "only", "early").
const ADVERB = /\w(?:al|ib|ab|ous|iv|ent|ant|ful|less)ly$/

/**
 * Why two modifiers of one noun (complement.ts: "day shift" / "night shift") name no two kinds of
 * it, or null: a count ("two students" / "one student", "three designers" / "UX designer"),
 * "a second" one ("hired a second pharmacist": another of them, not another kind), an adverb
 * ("possibly moving"), or a shared head that is no noun (a verb form, "last" of "last weekend").
 */
function noKind(reason: string, a: Reading, b: Reading): string | null {
  const q = /"([^"]+)" vs "([^"]+)"/.exec(reason)
  if (!q) return null
  const sides = [q[1]!, q[2]!].map((p) => p.toLowerCase().split(/\s+/))
  const mods = sides.flatMap((ws) => ws.slice(0, -1))
  if (mods.some((w) => COUNT.test(w))) return 'a count of the thing, not a kind of it'
  const heads = sides.map((ws) => ws.at(-1)!)
  const another = (ws: readonly string[]): boolean => {
    const said = new RegExp(`\\b(?:a|an|another)\\s+${ws.map(escapeRe).join('\\s+')}\\b`, 'i')
    return ws.slice(0, -1).some((w) => w in ORDINAL_WORDS) && [a, b].some((r) => said.test(r.norm))
  }
  if (sides.some(another)) return 'another one of the thing, not another kind'
  if (mods.some((w) => ADVERB.test(w)) || heads.some((h) => AFTER_NOUN.test(h) || /^\w{2,}[^e]ed$/.test(h))) return 'the words that differ modify no noun'
  return null
}

// A negation inside a reported wish, urging or intent: "encourages him not to give up", "is
// determined not to let anything stop him", "told her to never quit".
const EMBEDDED = /\b(?:encourag\w*|urg\w*|remind\w*|advis\w*|ask\w*|tell\w*|told|want\w*|determined|decided|promis\w*|tr(?:y|ies|ied)|hop\w*|wish\w*|believ\w*|let|make\w*|help\w*)\s+(?:\w+\s+){0,3}?(?:not|never|n't)\s+(?:to\s+)?\w+|\b(?:not|never)\s+to\s+\w+|\bnot\s+let\b/i

// Words after which a name is not the answer of an attribute but one of a list, or whom something
// is for: "such as Melanie", "like Jon", "Caroline and Melanie", "a fun way for Melanie".
const NOT_VALUE_BEFORE = /\b(?:such\s+as|like|and|or|for|with\s+(?:her|his|their|my)\s+\w+)\s*$/i
// "Gustavo is the on-call engineer": a name said to be the one holding a role.
const ROLE_AFTER = /^\s+(?:is|was|will\s+be|has\s+been)\s+(?:now\s+)?(?:the|our|their|his|her|my)\b/i

/**
 * Whether a name stands where an attribute's value stands ("reports to Kevin", "uses React",
 * "drives a Volvo", "manager is Omar"), not where the one a clause is about stands ("Melanie
 * enjoys ...", "Caroline's art", "a fun way for Melanie").
 */
export function nameAsValue(r: Reading, start: number): boolean {
  const before = r.norm.slice(Math.max(0, start - 40), start)
  const clause = before.split(/[.;!?,]\s*/).pop() ?? ''
  const name = r.entities.find((e) => e.start === start)
  const after = r.norm.slice(start + (name?.text.length ?? 0))
  if (ROLE_AFTER.test(after)) return true
  // The owner of something, or the first words of a clause: who the clause is about.
  if (/^['’]s\b/.test(after) || clause.trim() === '') return false
  return !NOT_VALUE_BEFORE.test(clause)
}

// Where a sentence ends: the statement reader's breaks (read/statement.ts), so a span is one of its sentences.
const SENTENCE_END = new RegExp(SENTENCE_BREAK.source, 'g')

interface Span { readonly start: number; readonly end: number; readonly stems: readonly string[]; readonly at?: number }

/** The sentence around a position of a reading, and the stems of the words that differ there. */
function sentenceAt(r: Reading, at: number, phrase: string): Span {
  let start = 0
  let end = r.norm.length
  for (const m of r.norm.matchAll(SENTENCE_END)) {
    const cut = m.index + m[0].length
    if (cut <= at) start = cut
    else {
      end = m.index
      break
    }
  }
  const words = phrase.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
  const stems = r.tokens.filter((t) => t.start >= at && t.start < at + phrase.length + 2 && words.includes(t.lower)).map((t) => t.stem)
  return { start, end, at, stems: stems.length ? stems : r.tokens.filter((t) => words.includes(t.lower)).map((t) => t.stem) }
}

/**
 * Where what differs stands on each side: the clashing values' or names' positions, or else the
 * last occurrence of the quoted words of the reason (negations, antonyms, stances).
 */
function clashSpans(raw: RawVerdict, a: Reading, b: Reading): [Span, Span] | null {
  const sig = raw.signal
  const q = /"([^"]+)" vs "([^"]+)"/.exec(raw.reason)
  if (!q) return null
  const find = (r: Reading, phrase: string, known?: number): number => {
    if (known !== undefined && known >= 0) return known
    const words = phrase.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean)
    const last = words[words.length - 1]
    const t = last === undefined ? undefined : [...r.tokens].reverse().find((x) => x.lower === last || sameStem(x.stem, last))
    return t ? t.start : -1
  }
  const pa = find(a, q[1]!, sig?.at?.[0] ?? sig?.names?.[0].start)
  const pb = find(b, q[2]!, sig?.at?.[1] ?? sig?.names?.[1].start)
  if (pa < 0 || pb < 0) return null
  return [sentenceAt(a, pa, q[1]!), sentenceAt(b, pb, q[2]!)]
}

/**
 * Whether a key entity both texts share, other than the words that differ, stands in the sentence.
 * A text of one sentence is anchored by its subject (subject.ts judges that); this asks where a
 * text of several sentences says what differs ("Long time no talk. Lots has been going on since
 * then!" shares "since" with the other text, but not in the sentence that negates "talk").
 */
function anchored(r: Reading, span: Span, shared: readonly string[], spans: readonly [Span, Span]): boolean {
  if (span.start === 0 && span.end >= r.norm.trimEnd().length) return true
  const differing = [...spans[0].stems, ...spans[1].stems]
  const keys = shared.filter((k) => !differing.some((d) => sameStem(d, k)))
  return r.tokens.some((t) => t.start >= span.start && t.start < span.end && keys.some((k) => sameStem(t.stem, k)))
}

/**
 * Two names one edit apart inside the word (a letter changed, added, dropped, or two swapped),
 * both of six letters or more and with the same first and last letter: the typos of chat and of
 * transcripts ("Pattersen", "Christpher"), not two names ("Maria" / "Marie", "Carla" / "Carly" differ
 * at the end; "Dana" / "Dina" are short). External dev data (MultiNLI, ProSeCCo) flagged these as
 * different names.
 */
export function spellingVariants(x: string, y: string): boolean {
  const [a, b] = [x.toLowerCase(), y.toLowerCase()]
  if (a === b || Math.min(a.length, b.length) < 6 || Math.abs(a.length - b.length) > 1) return false
  if (a[0] !== b[0] || a.at(-1) !== b.at(-1)) return false
  let i = 0
  while (a[i] === b[i]) i++
  const [ra, rb] = [a.slice(i), b.slice(i)]
  // One changed, one added or dropped, or two neighbours swapped.
  return ra.slice(1) === rb.slice(1) || ra.slice(1) === rb || ra === rb.slice(1) || (ra[0] === rb[1] && ra[1] === rb[0] && ra.slice(2) === rb.slice(2))
}
