import type { Reading } from '../read/reading.js'
import { STOPWORDS } from '../words/stopwords.js'
import { stem } from '../read/stem.js'
import { labelHeadAt } from '../read/labels.js'
import { hasStem, sameStem } from '../read/same-stem.js'
import { IRREGULAR_PAST, subjectStems } from '../read/subject.js'
import { normalizeText, tokenize } from '../read/text-tokens.js'
import { isTimeWord, valueSpans } from '../read/reading.js'
import type { Statement } from '../read/statement.js'
import { PAST_MARKERS, PRESENT_MARKERS } from '../words/markers.js'
import { AFTER_NOUN, AHEAD, CHANGE_BY, DATE_QUALIFIER, DELTA, EAGER, FORBIDS, MODAL, INDEFINITE, OVER_BEFORE } from '../words/frame-cues.js'
import { SAID_OF_PEOPLE } from '../words/antonyms.js'
import type { RawVerdict } from './verdict.js'
import { otherObjects } from './verb-object.js'

import { CLASS_OF } from '../words/classes.js'
import { SYNONYMS } from '../words/synonyms.js'
import { alternatives, DETERMINER_WORDS, POSSESSIVES, QUANTIFIED_DETERMINERS } from '../words/determiners.js'
import { escapeRe } from '../read/escape-re.js'

/**
 * The claim frame of a flagged pair: whether the two texts are about one thing (the anchor) and
 * differ in what they say of it, or only share a word (issue 27, third round).
 *
 * A contradiction is two claims with one subject and one attribute whose values cannot both hold.
 * The checks find the values that differ; this asks what else the two texts share, and where it
 * stands. In a store each fact meets its nearest neighbours, most of them on another subject that
 * happens to share one word: "Korean BBQ place has a 2-hour wait" / "Can't wait to see you",
 * "room 311 booked" / "workshop in Room 5", "Brightline kickoff moved to the 10th" / "kickoff w/
 * Northwind on the 3rd". A pair set, where both texts of a pair are written about one thing,
 * hides these. Seven readings of the frame, each a general shape, never a word list:
 *
 * 1. **Nothing shared but what differs.** The anchor is what the texts share once the words that
 *    differ are set aside. When nothing is left and what they share is a common word, they are
 *    two uses of one word ("dropped iOS 15 support" / "the support group"), not two claims about
 *    one thing. A shared name or identifier is a thing of its own ("Okoye declined our offer" /
 *    "we hired Okoye"), and so is a word both open their claim with ("The refund was approved" /
 *    "The refund was denied"): those are kept.
 * 2. **A name each, and nothing named shared.** Each text names something (a name or an
 *    identifier, outside its values and outside what differs) that the other does not, and
 *    the anchor is only common words: two named things of one kind ("AWS bill" / "Sato Design
 *    invoice", "forty B-9 units" / "zero units of A-17").
 * 3. **The label is what differs.** A number that follows the anchor noun on both sides names
 *    which one ("room 311" / "Room 5"): two items, not two values of one, when the anchor is that
 *    noun alone.
 * 4. **The anchor is a unit.** On one side the only shared word is part of a value ("47 min",
 *    "7-day"): it measures something there, and is what the other text is about.
 * 5. **Another kind of one thing.** A negation or an opposite of a noun that has another modifier
 *    on each side ("wants a window seat" / "doesn't want a middle seat", "never share the admin
 *    password" / "share the guest wifi password"): two members of one kind, both can hold.
 * 6. **Two times.** One side tells what was, in the simple past or as over ("was serviced in
 *    March", "lived in Austin before that", "was vegetarian for ten years"), the other what is now
 *    or comes next ("next service is due in September", "eats fish now"): both can hold.
 * 7. **A change is no total.** "hired 2 more engineers" against "has 8 engineers".
 * 8. **Eagerness is no negation.** "Can't wait 'til my studio starts" negates nothing; it is the
 *    only negation of its side when nothing else there is negated.
 * 9. **A value is of the clause it stands in.** "Colm booked the 6:50 departure again, likes
 *    getting in by lunch" gives a time to the departure, not to lunch: a clashing value whose
 *    clause (between commas, semicolons, brackets, sentence ends) holds nothing of the anchor is
 *    said of something else.
 * 10. **One root, two words.** The stem match lets "allergic" meet "allergies"; it also lets
 *    "print" meet "printer", "contract" meet "contractor", "design" meet "designer", "office"
 *    meet "official". When every shared word is met only by a longer word of its root (two letters
 *    or more beyond it), the texts name two things.
 * 11. **"A" thing is one of a kind.** Two dates of "a pride parade" date two parades.
 * 12. **A rule is of what qualifies it** (tenth round). "never deploy on Fridays" rules out a
 *    deploy on a Friday, not "deploy went out at 14:00"; "never book me on Delta" is not against
 *    "Colm booked the 6:50 departure". A rule qualified by words the other side does not name
 *    says nothing against it. (A weekday the other side names is the weekday rule's.)
 * 13. **One name, two things after it** (tenth round). "GraphQL gateway is on Apollo Server v4" /
 *    "bumped Apollo Client to 3.9": the shared word stands before another capitalized noun on each
 *    side, which the other text never names (lower-case heads are as often two words for one thing).
 * 14. **Whose thing, what is acted on** (tenth round). A class member after a possessive is the
 *    owner's thing ("push his business forward" names no tier against "the marketing team"); an
 *    opposite verb with an object is said of that object ("opening up their minds" is not the
 *    library opening against "The library closes at 8 pm").
 */

/** How much each reading lowers a fired check's confidence (multiplied, with a note). */
export const FRAME_FACTORS = {
  /** Nothing shared but the words that differ, and those are common words. */
  noAnchor: 0.5,
  /** Each side names a thing the other does not, and nothing named is shared. */
  twoNamed: 0.5,
  /** The differing number labels the one anchor noun on both sides. */
  labelIsClash: 0.3,
  /** The only shared word is part of a value on one side. */
  unitAnchor: 0.4,
  /** What is negated or opposed is the shared noun with another modifier on each side. */
  otherKind: 0.5,
  /** One side tells what was, the other what is or will be. */
  twoTimes: 0.5,
  /** A clashing amount is a change ("2 more") on one side, not a total. */
  delta: 0.4,
  /** The only negation of a side is an idiom of eagerness ("can't wait"). */
  eager: 0.4,
  /** A clashing value stands in a clause that says nothing of what the texts share. */
  valueElsewhere: 0.5,
  /** An opposite stands in a clause that says nothing of what the texts share (fifth round). */
  poleElsewhere: 0.5,
  /** A state of a thing opposed where the texts share only the speaker (fifth round). */
  personNotThing: 0.5,
  /** What the texts share are two words of one root ("print" / "printer"), not one word. */
  oneRoot: 0.5,
  /** A time or date clash where the texts share only the person both open with, no event (sixth round). */
  personNotEvent: 0.5,
  /** A clashing number is one side of a score or a vote ("passed 7–2"), not an amount (sixth round). */
  tally: 0.4,
  /** A time or date clash where each side tells of "a" thing of one kind: two of them (seventh round). */
  twoOfAKind: 0.5,
  /** A rule ("never deploy on Fridays") against doing the thing where the other side names nothing the rule is qualified by (tenth round). */
  ruleQualifier: 0.5,
  /** Every shared word stands, on each side, before another capitalized noun ("Apollo Server" / "Apollo Client"; tenth round). */
  twoHeads: 0.5,
  /** A class member after a possessive ("his business", "our team") names the owner's thing, not a member (tenth round). */
  ownersThing: 0.5,
  /** An opposite verb with an object of its own the other side does not name ("opening up their minds" / "the library closes"; tenth round). */
  poleOfObject: 0.5,
  /** A verb negated on one side and stated on the other, each of its own object ("doesn't agree with the means" / "agrees with the aims"; verb-object.ts, issue 27 external data). */
  verbOfTwoObjects: 0.5,
  /** A rule that forbids ("must not feed the ducks") against the thing done, told in the past ("fed the ducks"): the rule was broken (issue 27 external data). */
  ruleBroken: 0.5,

  /** An amount clash where the texts share only who (a name, "I", a relative) and each says something of its own: two things measured (eleventh round). */
  personNotMeasure: 0.5,
  /** One side is about a named person, the other about "I", who never names them (eleventh round). */
  nameAgainstI: 0.5,
  /** Each name is given to a noun of its own ("a collie named Pepper" / "his wife is named Maureen"; eleventh round). */
  namesOfTwo: 0.5,
} as const

/** One reading of the frame that applied. */
export interface FrameFactor {
  readonly factor: number
  readonly note: string
}

const QUOTED = /"([^"]+)" vs "([^"]+)"/
const POLARITY = new Set(['not', 'no', 'never', 'without', 'dislike'])

/** Stems of the words of a reason's quoted phrases, read as the texts' tokens are: what differs. */
function clashStems(raw: RawVerdict): string[] {
  const q = QUOTED.exec(raw.reason)
  if (!q) return []
  return [q[1]!, q[2]!].flatMap((p) => tokenize(normalizeText(p)).filter((t) => !POLARITY.has(t.lower)).flatMap((t) => [t.stem, stem(t.lower)]))
}

/**
 * Whether a shared key is a name or an identifier (not a common word): capitalized where a capital
 * says something, an identifier, the name a text opens with, or a word both texts write with a
 * capital even where a sentence starts ("We hired ... (Okoye)" / "Okoye declined our offer").
 */
function named(k: string, a: Reading, b: Reading): boolean {
  if (/\d/.test(k)) return true
  const capitalized = (r: Reading): boolean => r.tokens.some((t) => sameStem(t.stem, k) && /^\p{Lu}/u.test(r.norm.slice(t.start, t.end)))
  if (capitalized(a) && capitalized(b)) return true
  return [a, b].some((r) => r.tokens.some((t) => sameStem(t.stem, k) && (t.capital || t.identifier)) || r.leadingName.some((n) => sameStem(n, k)))
}

// A short noun phrase before an auxiliary that opens the text: "The heating is turned on".
const OPENING = new RegExp(String.raw`^\s*(?:(?:${alternatives(DETERMINER_WORDS)})\s+)?((?:[\p{L}\p{N}][\p{L}\p{N}'’_-]*\s+){0,2}[\p{L}\p{N}][\p{L}\p{N}_-]*)(?:['’]s)?\s+(?:is|are|was|were|has|have|had|got|gets|will|won't|can|can't|isn't|wasn't|aren't)\b`, 'iu')

/**
 * Whether a shared stem is met in the two texts only by stems of which one extends the other by
 * two letters or more ("print" / "printer"), never by the same stem or a written-closed compound.
 */
function onlyByRoot(k: string, a: Reading, b: Reading): boolean {
  if (a.compounds.has(k) || b.compounds.has(k)) return false
  const [sa, sb] = [a.tokens.filter((t) => sameStem(t.stem, k)).map((t) => t.stem), b.tokens.filter((t) => sameStem(t.stem, k)).map((t) => t.stem)]
  if (sa.length === 0 || sb.length === 0) return false
  return sa.every((x) => sb.every((y) => x !== y && Math.abs(x.length - y.length) >= 2))
}

// Where a clause ends: a comma, semicolon, bracket, sentence end or spaced dash (not a colon:
// "Dinner at Osteria: table for 6" is one claim).
const CLAUSE_END = /[,;()!?]|\.(?:\s|$)|\s[-–—]\s/g

// A clause that names its own subject: a pronoun, a determiner or a capitalized word first.
// (No i flag: with it \p{Lu} would match a lower-case letter too.)
const OWN_SUBJECT = /^\s*(?:(?:[Ii]|[Ww]e|[Yy]ou|[Hh]e|[Ss]he|[Tt]hey|[Ii]t|[Tt]here|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Tt]he|[Aa]n?|[Mm]y|[Oo]ur|[Yy]our|[Hh]is|[Hh]er|[Tt]heir|[Ii]ts)\b|\p{Lu})/u

/** The stems of what a text opens its claim with: the subject reader's, or a short noun phrase before an auxiliary. */
function openingSubject(r: Reading): ReadonlySet<string> | null {
  // A lower-case first word before a determiner is a verb: "request a room", "squash the commits".
  const [t0, t1] = r.tokens
  if (t0 && t1 && !/^\p{Lu}/u.test(r.norm.slice(t0.start, t0.end)) && QUANTIFIED_DETERMINERS.has(t1.lower)) return null
  const own = subjectStems(r)
  if (own) return own
  const m = OPENING.exec(r.norm)
  return m ? new Set(m[1]!.toLowerCase().split(/\s+/).map(stem)) : null
}

const inside = (spans: ReadonlyArray<[number, number]>, start: number): boolean => spans.some(([s, e]) => start >= s && start < e)

/**
 * The names and identifiers a text says that the other does not, outside values and what differs.
 * A capitalized first word counts when it stands right before the shared noun ("Brightline
 * kickoff", "Berlin office"): it says which one.
 */
function ownNames(r: Reading, other: Reading, clash: readonly string[], anchor: readonly string[], otherSpeaker: string | null = null): string[] {
  const spoken = (otherSpeaker ?? '').toLowerCase().split(/\s+/)
  const values = valueSpans(r)
  const out: string[] = []
  for (const [i, t] of r.tokens.entries()) {
    const next = r.tokens[i + 1]
    // Written lower case, it counts when the subject reader reads it and the noun as one subject
    // ("brightline kickoff: the 10th", "acme offsite is on the 14th"; sixth round).
    const modifiesAnchor = i === 0 && (/^\p{Lu}\p{Ll}/u.test(r.norm.slice(t.start, t.end)) || inSubject(r, t, next)) && !STOPWORDS.has(t.lower) && !NOT_NOUN.test(t.lower) && !!next && /^\s+$/.test(r.norm.slice(t.end, next.start)) && anchor.some((k) => sameStem(k, next.stem))
    // An identifier names a thing when it has a digit or an inner capital ("B-9", "db-02"), not a hyphenated word ("check-in").
    const id = t.identifier && /\p{L}/u.test(t.lower) && /\d|[a-z][A-Z]|_/.test(r.norm.slice(t.start, t.end))
    if (!(t.capital || modifiesAnchor || id) || inside(values, t.start) || isTimeWord(t.lower) || spoken.includes(t.lower)) continue
    if (clash.some((c) => sameStem(c, t.stem)) || other.tokens.some((u) => sameStem(u.stem, t.stem)) || hasStem(other.compounds, t.lower)) continue
    out.push(t.lower)
  }
  return out
}

/**
 * The readings of the frame that apply to a fired verdict, each with its factor and a note for
 * the reason. Empty when the two texts share a thing beside what differs, or nothing is known.
 */
export function frameFactors(raw: RawVerdict, a: Reading, b: Reading, sa?: Statement, sb?: Statement): FrameFactor[] {
  const out: FrameFactor[] = []
  const clash = clashStems(raw)
  const shared = raw.shared
  const anchor = shared.filter((k) => !clash.some((c) => sameStem(c, k)))
  // One speaker saying "I" twice is one subject ("Caroline: I love hiking" / "Caroline: I hate
  // hiking"), and so is one short word both say that is no key ("Mo hates olives" / "mo ordered").
  const sameSpeaker = !!sa?.speaker && sa.speaker === sb?.speaker && sa.firstPerson && sb.firstPerson
  const sharedWords = [...a.content].filter((w) => hasStem(b.content, w) && !clash.some((c) => sameStem(c, w)))
  const anyNamed = shared.some((k) => named(k, a, b))
  // A word both texts open their claim with is what both are about, whatever differs of it ("The
  // refund was approved" / "The refund was denied").
  const [za, zb] = [openingSubject(a), openingSubject(b)]
  const subjectOfBoth = shared.some((k) => za && zb && hasStem(za, k) && hasStem(zb, k))
  // "I never eat breakfast" / "I have eggs for breakfast every morning": never against how often
  // is a habit denied; what differs is the thing both speak of (ninth round).
  // Both must open with one holder ("I" / "I", not "Tom" / "I").
  const habit = raw.check === 'negation' && a.tokens[0]?.lower === b.tokens[0]?.lower &&
    [[a, b], [b, a]].some(([x, y]) => /\bnever\b/i.test(x!.norm) && y!.slots.slots.some((sl) => sl.kind === 'freq'))
  if (anchor.length === 0 && sharedWords.length === 0 && shared.length > 0 && !anyNamed && !subjectOfBoth && !sameSpeaker && !habit) {
    out.push({ factor: FRAME_FACTORS.noAnchor, note: `the texts share only the word that differs ("${shared[0]}")` })
  }
  if (!anchor.some((k) => named(k, a, b))) {
    const [na, nb] = [ownNames(a, b, clash, anchor, sb?.speaker), ownNames(b, a, clash, anchor, sa?.speaker)]
    if (na.length && nb.length) out.push({ factor: FRAME_FACTORS.twoNamed, note: `each names its own thing ("${na[0]}" / "${nb[0]}")` })
  }
  if (raw.check === 'value' && anchor.length === 1) {
    const nums = /^different [^:]*?number[^:]*: "([^"]+)" vs "([^"]+)"/.exec(raw.reason)
    if (nums) {
      const head = (r: Reading, value: string, known: number | undefined): string | null => {
        const at = known !== undefined && known >= 0 ? known : r.norm.search(new RegExp(`(?<![\\w.])${escapeRe(value)}(?![\\w.])`))
        return labelHeadAt(r.norm, at)
      }
      const [ha, hb] = [head(a, nums[1]!, raw.signal?.at?.[0]), head(b, nums[2]!, raw.signal?.at?.[1])]
      if (ha && hb && sameStem(stem(ha), stem(hb)) && sameStem(stem(ha), anchor[0]!)) {
        out.push({ factor: FRAME_FACTORS.labelIsClash, note: `the numbers say which ${ha}, two items` })
      }
    }
  }
  if (anchor.length === 1 && !named(anchor[0]!, a, b)) {
    const k = anchor[0]!
    const onlyInValue = (r: Reading): boolean => {
      const hits = r.tokens.filter((t) => sameStem(t.stem, k))
      const values = valueSpans(r)
      return hits.length > 0 && hits.every((t) => inside(values, t.start))
    }
    if (onlyInValue(a) !== onlyInValue(b)) out.push({ factor: FRAME_FACTORS.unitAnchor, note: `"${k}" is part of a value on one side only` })
  }
  if (raw.kind === 'negation' || raw.kind === 'antonym' || raw.kind === 'preference') {
    // What differs, and the shared words negated on one side only ("never share the admin password").
    const negatedOnce = anchor.filter((w) => hasStem(a.negated.keys(), w) !== hasStem(b.negated.keys(), w))
    const kinds = otherKinds(a, b, [...clash, ...negatedOnce])
    if (kinds) out.push({ factor: FRAME_FACTORS.otherKind, note: `another kind on each side ("${kinds[0]}" / "${kinds[1]}")` })
  }
  // Told as past: a past marker, or the simple past with a past auxiliary ("was serviced"); an
  // -ed word alone is as often a participle ("scheduled for Monday").
  // A marker that puts a statement before another ("before that", "used to") needs nothing of the
  // other side; the simple past needs the other side to say now or next.
  // A past marker reaches its clause only ("knows Kubernetes, ran clusters at his last job").
  const clashAt = (r: Reading): number[] => r.tokens.filter((t) => clash.some((c) => sameStem(c, t.stem))).map((t) => t.start)
  const over = (r: Reading): boolean => OVER_BEFORE.test(r.norm) || (PAST_MARKERS.test(r.norm) && clashAt(r).length > 0 && clashAt(r).every((p) => r.pastAt(p)))
  const met = anchor.length > 0 ? anchor : shared
  if (met.length > 0 && met.every((k) => onlyByRoot(k, a, b))) {
    out.push({ factor: FRAME_FACTORS.oneRoot, note: 'the shared words are two words of one root' })
  }
  const past = (r: Reading): boolean => (r.simplePast && /\b(?:was|were|had|did)\b/i.test(r.norm)) || over(r)
  const now = (r: Reading): boolean => PRESENT_MARKERS.test(r.norm) || AHEAD.test(r.norm)
  const before = (x: Reading, y: Reading): boolean => past(x) && !past(y) && (over(x) || now(y))
  if (before(a, b) || before(b, a)) {
    out.push({ factor: FRAME_FACTORS.twoTimes, note: 'one side tells what was, the other what is or comes next' })
  }
  if (raw.kind === 'negation') {
    const onlyEager = (r: Reading): boolean => EAGER.test(r.norm) && (r.norm.match(/\b(?:not|no|never|cannot|n't)\b/gi)?.length ?? 0) === 1
    if (onlyEager(a) || onlyEager(b)) out.push({ factor: FRAME_FACTORS.eager, note: 'the only negation is "can\'t wait" or the like' })
  }
  if (raw.check === 'value' && anchor.length > 0) {
    const q = QUOTED.exec(raw.reason)
    const where = (r: Reading, text: string | undefined, known: number | undefined): number => {
      if (known !== undefined && known >= 0) return known
      return text ? r.norm.toLowerCase().indexOf(text.toLowerCase()) : -1
    }
    if (q && (clauseWithout(a, where(a, q[1], raw.signal?.at?.[0]), anchor, false) || clauseWithout(b, where(b, q[2], raw.signal?.at?.[1]), anchor, false))) {
      out.push({ factor: FRAME_FACTORS.valueElsewhere, note: 'the value is said in a clause about something else' })
    }
  }
  // An opposite is of the clause it stands in too: "such a great support system" against "I
  // struggled with mental health, and support I got was really helpful" opposes two things.
  if (raw.check === 'antonym' && anchor.length > 0) {
    const q = QUOTED.exec(raw.reason)
    if (q && (clauseWithout(a, poleAt(a, q[1]!), anchor, true) || clauseWithout(b, poleAt(b, q[2]!), anchor, true))) {
      out.push({ factor: FRAME_FACTORS.poleElsewhere, note: 'the opposite is said in a clause about something else' })
    }
  }
  // A state of a thing ("finished", "broken", "paid") opposed where the texts share only the one
  // who speaks ("I"): "here's something I just finished" / "I haven't done pottery yet" say it of
  // two things.
  const group = /^opposite ([^:]+):/.exec(raw.reason)?.[1]
  if (raw.kind === 'antonym' && group && !SAID_OF_PEOPLE.has(group) && !group.includes('/') && anchor.length > 0 && anchor.every((k) => FIRST_PERSON_KEY.test(k))) {
    out.push({ factor: FRAME_FACTORS.personNotThing, note: `the texts share only who speaks, not the ${group === 'progress' ? 'task' : 'thing'}` })
  }
  if (raw.check === 'value' && /^different (?:[\w-]+ )?number/.test(raw.reason) && (DELTA.test(a.norm) || DELTA.test(b.norm))) {
    out.push({ factor: FRAME_FACTORS.delta, note: 'one amount is a change, not a total' })
  }
  // "went up by $5" against "charges $45 a month": a rise is no level, of
  // money, a count or a measure alike (external dev data, MultiNLI). Said on both sides, two rises
  // still compare ("rose by 5%" / "rose by 8%").
  else if (raw.check === 'value' && !EVENT_VALUE.test(raw.reason) && CHANGE_BY.test(a.norm) !== CHANGE_BY.test(b.norm)) {
    out.push({ factor: FRAME_FACTORS.delta, note: 'one amount is a change, not a total' })
  }
  // A time or a date is of an event: "Priya started at the clinic in 2021" / "Priya moved to Leeds
  // in 2018" share Priya, not a start or a move. When all the texts share beside what differs is
  // the name both open with, the two values date two events of one person.
  if (raw.check === 'value' && EVENT_VALUE.test(raw.reason) && anchor.length > 0) {
    // The name a text opens with, alone or as an owner ("Leo's farewell drinks").
    const opens = (r: Reading, k: string): boolean => {
      const t0 = r.tokens[0]
      const owner = !!t0 && sameStem(t0.stem, k) && /^\p{Lu}\p{Ll}+$/u.test(r.norm.slice(t0.start, t0.end)) && /^['’]s\b/.test(r.norm.slice(t0.end))
      // Or the owner of what the text opens with (events27): "Construction of Bram's new
      // greenhouse starts in June" dates Bram's greenhouse, as "Bram's greenhouse" would.
      const owns = r.tokens.some((t) => t.capital && sameStem(t.stem, k) && /^['’]s\b/.test(r.norm.slice(t.end)))
      return owner || owns || r.leadingName.some((n) => sameStem(n, k))
    }
    // The speaker's own "I" is a person too ("I painted that lake sunrise last year" / "Next month
    // I'm having an art show").
    const who = (k: string): boolean => (opens(a, k) && opens(b, k)) || FIRST_PERSON_KEY.test(k)
    // "in early March" / "in early June": where in its month a date falls is part of the value.
    const whom = anchor.filter((k) => !DATE_QUALIFIER.test(k))
    if (whom.length > 0 && whom.every(who) && sharedWords.every((w) => whom.some((k) => sameStem(k, w)) || DATE_QUALIFIER.test(w))) {
      out.push({ factor: FRAME_FACTORS.personNotEvent, note: `the texts share only who ("${whom[0]}"), not the event` })
    }
  }
  // An amount is of what it measures: "Kenji has saved 22,000 dollars" / "Kenji is getting a loan
  // for 30,000 dollars", "Marisol ran the 10K in 58 minutes" / "Marisol finished the half marathon
  // in one hour fifty-four". When all the texts share beside what differs is who (a name both
  // write capitalized, "I", a relative) and each side says something the other does not, the
  // amounts measure two things of one person (eleventh round). "Tom is 34" / "Tom turned 36" says
  // nothing of its own on one side; "earns" / "makes" are one thing (words/synonyms.ts).
  // Amounts of what people do (money, time, counts, how often); a weight or a size is a thing's.
  if (raw.check === 'value' && PERSON_AMOUNT.test(raw.reason) && anchor.length > 0) {
    // A capital at a text's start proves a name where the subject reader reads one there, or
    // where no determiner follows ("Water the fern" is a verb; "Gwen is", "Marisol ran" are names).
    const capitalAt = (r: Reading, t: Reading['tokens'][number], i: number): boolean =>
      /^\p{Lu}/u.test(r.norm.slice(t.start, t.end)) && (i > 0 || !QUANTIFIED_DETERMINERS.has(r.tokens[1]?.lower ?? 'the'))
    const capitalBoth = (k: string): boolean => [a, b].every((r) => r.leadingName.some((n) => sameStem(n, k)) || r.tokens.some((t, i) => sameStem(t.stem, k) && !STOPWORDS.has(t.lower) && capitalAt(r, t, i)))
    // A name before a noun names a thing's place or maker ("the Reno warehouse"), not who.
    const beforeNoun = (k: string): boolean => [a, b].some((r) => r.entities.some((e) => e.modifies && e.stem.split(' ').some((x) => sameStem(x, k))))
    const who = (k: string): boolean => FIRST_PERSON_KEY.test(k) || CLASS_OF.get(k) === 'family' || (capitalBoth(k) && !beforeNoun(k))
    if (anchor.every(who) && sharedWords.every((w) => anchor.some((k) => sameStem(k, w)) || DATE_QUALIFIER.test(w))) {
      const [oa, ob] = [ownWords(a, b, clash), ownWords(b, a, clash)]
      const synonyms = oa.some((x) => ob.some((y) => SYNONYMS.get(x) !== undefined && SYNONYMS.get(x) === SYNONYMS.get(y)))
      if (oa.length && ob.length && !synonyms) out.push({ factor: FRAME_FACTORS.personNotMeasure, note: `two things measured of "${anchor[0]}" ("${oa[0]}" / "${ob[0]}")` })
    }
  }
  // "Caroline went to a pride parade in June" / "... a pride parade in August": "a" brings in one
  // of a kind, so two dates of "a" parade date two parades (seventh round). Every shared noun must
  // head a phrase "a", "an", "another", "any" or "some" opens, or modify the noun after it, on
  // both sides ("the pride parade" is one).
  if (raw.check === 'value' && EVENT_VALUE.test(raw.reason) && anchor.length > 0) {
    // Nouns only: a shared verb ("adopted") tells what was done, not which thing.
    const noun = (r: Reading, k: string): boolean => r.tokens.some((t) => sameStem(t.stem, k) && nounWord(t))
    const uses = anchor.filter((k) => !named(k, a, b) && !FIRST_PERSON_KEY.test(k) && noun(a, k) && noun(b, k)).map((k) => [k, ofAKind(a, k), ofAKind(b, k)] as const)
    const one = uses.find(([, x, y]) => x === 1 && y === 1)
    if (one && uses.every(([, x, y]) => x && y)) out.push({ factor: FRAME_FACTORS.twoOfAKind, note: `each side tells of "a ${one[0]}", two of them` })
  }
  // A score or a vote ("passed 7–2", "won 3-1") is two counts of two sides, not an amount of the
  // other text's thing ("budget = 25k"); two tallies still compare.
  if (raw.check === 'value' && /^different number:/.test(raw.reason)) {
    const q = QUOTED.exec(raw.reason)
    const tallyAt = (r: Reading, value: string | undefined, known: number | undefined): boolean => {
      const at = known !== undefined && known >= 0 ? known : value ? r.norm.indexOf(value) : -1
      if (at < 0) return false
      const m = TALLY.exec(r.norm.slice(at))
      return !!m && Number(m[1]) >= Number(m[2])
    }
    // A plain count on the other side may be one side of the same vote ("only 4 in favor"); an
    // amount with a unit or a multiplier ("25k") is not.
    const [ta, tb] = [tallyAt(a, q?.[1], raw.signal?.at?.[0]), tallyAt(b, q?.[2], raw.signal?.at?.[1])]
    if (q && ta !== tb && !/^\d+$/.test(ta ? q[2]! : q[1]!)) {
      out.push({ factor: FRAME_FACTORS.tally, note: 'one number is a score or a vote, not an amount' })
    }
  }
  // "Visitors must not feed the ducks" / "A visitor fed the ducks on Sunday": a rule and an
  // event that broke it both hold. Only against a plain past report (no modal, no negation of its
  // own): "children may play near the canal" against the rule is two rules.
  if (raw.check === 'negation') {
    const told = (r: Reading): boolean => r.simplePast || r.tokens.some((t) => IRREGULAR_PAST.test(t.lower))
    const broken = (rule: Reading, event: Reading): boolean => FORBIDS.test(rule.norm) && !MODAL.test(event.norm) && told(event) && event.negated.size === 0
    if (broken(a, b) || broken(b, a)) out.push({ factor: FRAME_FACTORS.ruleBroken, note: 'a rule against the thing done: the rule was broken, not contradicted' })
  }
  if (raw.check === 'negation') {
    const q = ruleQualifier(a, b) ?? ruleQualifier(b, a)
    if (q) out.push({ factor: FRAME_FACTORS.ruleQualifier, note: `the rule is of "${q}", which the other side does not name` })
  }
  if (anchor.length > 0) {
    const heads = anchor.map((k) => twoHeads(a, b, k))
    if (heads.every((h) => h)) out.push({ factor: FRAME_FACTORS.twoHeads, note: `two things: "${heads[0]![0]}" / "${heads[0]![1]}"` })
  }
  if (raw.check === 'substitution') {
    const q = /^different (?!name\b)[^:]+: "([^"]+)" vs "([^"]+)"/.exec(raw.reason)
    if (q && (afterPossessive(a, q[1]!) || afterPossessive(b, q[2]!))) out.push({ factor: FRAME_FACTORS.ownersThing, note: 'a possessive names whose thing, not a member of the class' })
  }
  // "Tom never drinks coffee" / "I drink coffee": a named person and the writer are two people
  // unless the text says otherwise: the speaker is that person ("Tom: I drink coffee"), or the
  // first-person side names them ("We hired the backend candidate (Okoye)" / "Okoye declined").
  for (const [x, y, sy] of [[a, b, sb], [b, a, sa]] as const) {
    const name = x.leadingName[0]
    const opensWithI = /^(?:i|we)$/.test(y.tokens[0]?.lower ?? '')
    if (name && opensWithI && !y.tokens.some((t) => sameStem(t.stem, name)) && !(sy?.speaker && sameStem(stem(sy.speaker.split(/\s+/)[0]!.toLowerCase()), name))) {
      out.push({ factor: FRAME_FACTORS.nameAgainstI, note: `"${name}" on one side, "I" on the other: two people` })
      break
    }
  }
  if (raw.check === 'substitution' && raw.signal?.names) {
    const [x, y] = raw.signal.names
    const nouns = namesOfTwo(a, x.start, b, y.start)
    if (nouns) out.push({ factor: FRAME_FACTORS.namesOfTwo, note: `the names of two: a ${nouns[0]} and a ${nouns[1]}` })
  }
  if (raw.check === 'antonym') {
    const q = QUOTED.exec(raw.reason)
    const object = q && (objectOf(a, q[1]!, b, anchor) ?? objectOf(b, q[2]!, a, anchor))
    if (object) out.push({ factor: FRAME_FACTORS.poleOfObject, note: `the opposite is said of "${object}"` })
  }
  if (raw.check === 'negation' || raw.check === 'antonym') {
    const q = QUOTED.exec(raw.reason)
    const objects = q && otherObjects([q[1]!, q[2]!], a, b)
    if (objects) out.push({ factor: FRAME_FACTORS.verbOfTwoObjects, note: `said of two things ("${objects[0]}" / "${objects[1]}")` })
  }
  return out
}

/** The stems of a text's content words outside its values that the other text does not have, and not of what differs. */
function ownWords(r: Reading, other: Reading, clash: readonly string[]): string[] {
  const values = valueSpans(r)
  return r.tokens
    .filter((t) => hasStem(r.content, t.stem) && !inside(values, t.start) && !isTimeWord(t.lower) && !STOPWORDS.has(t.lower) && !/\d/.test(t.lower))
    .filter((t) => !hasStem(other.content, t.stem) && !clash.some((c) => sameStem(c, t.stem)))
    .map((t) => t.stem)
}

// A name given to the noun before it: "a collie named Pepper", "his wife is called Maureen".
const NAMED_AFTER = /(\p{L}+)\s+(?:(?:is|was|are|were)\s+)?(?:named|called)\s+$/iu

/**
 * The two nouns when each name is given to a noun of its own ("had a collie named Pepper" / "his
 * wife was named Maureen", "a husky named Buran" / "a pharmacist named Farah") and neither text
 * names the other's noun: the names of two things, not two names of one. Null otherwise.
 */
function namesOfTwo(a: Reading, atA: number, b: Reading, atB: number): [string, string] | null {
  const [ma, mb] = [NAMED_AFTER.exec(a.norm.slice(0, atA)), NAMED_AFTER.exec(b.norm.slice(0, atB))]
  if (!ma || !mb) return null
  const [na, nb] = [ma[1]!.toLowerCase(), mb[1]!.toLowerCase()]
  const names = (r: Reading, noun: string): boolean => r.tokens.some((t) => sameStem(t.stem, stem(noun)))
  return !sameStem(stem(na), stem(nb)) && !names(a, nb) && !names(b, na) ? [na, nb] : null
}

/**
 * Whether the first word of a phrase stands right after a possessive pronoun ("his business"),
 * not as what someone is ("Tom is my brother": a relative is said with a possessive).
 */
function afterPossessive(r: Reading, phrase: string): boolean {
  const first = phrase.toLowerCase().split(/[^\p{L}\p{N}]+/u).find(Boolean)
  const i = r.tokens.findIndex((t) => t.lower === first)
  const p = r.tokens[i - 1]
  if (i <= 0 || !p || !POSSESSIVES.has(p.lower) || !/^\s+$/.test(r.norm.slice(p.end, r.tokens[i]!.start))) return false
  return !/^(?:is|are|was|were|s|be|been|become|became)$/.test(r.tokens[i - 2]?.lower ?? '')
}

/**
 * The object an opposite verb acts on, when the other side does not name it: the pole word (an
 * -ing or a verb form), a particle perhaps, a determiner or possessive, then a noun ("opening up |
 * their | minds"). Null when the pole stands alone or acts on what the other side names.
 */
function objectOf(r: Reading, phrase: string, other: Reading, anchor: readonly string[]): string | null {
  const at = poleAt(r, phrase)
  let i = r.tokens.findIndex((t) => t.start === at)
  if (i < 0 || !/(?:ing|ed|s)$|^(?:open|close|shut)$/.test(r.tokens[i]!.lower)) return null
  if (/^(?:up|out|down|off)$/.test(r.tokens[i + 1]?.lower ?? '')) i++
  const [d, n] = [r.tokens[i + 1], r.tokens[i + 2]]
  // After a determiner a word in -s is a plural noun ("their minds"), not a verb.
  if (!d || !n || !(POSSESSIVES.has(d.lower) || QUANTIFIED_DETERMINERS.has(d.lower)) || !(headWord(n) || /^[a-z]{3,}s$/.test(n.lower))) return null
  if (anchor.some((k) => sameStem(k, n.stem)) || hasStem(other.content, n.stem)) return null
  return `${d.lower} ${n.lower}`
}

// A rule: a text that opens by ruling out a verb ("never deploy ...", "do not cc ...").
const RULE = /^\s*(?:please\s+)?(?:never|do\s+not|don't)\s+([a-z]+)\b/i

/**
 * The words a rule is qualified by, when the other side names none of them: the content words and
 * weekdays after its verb, in its first clause ("never deploy | on fridays", "never book | me on
 * Delta"). Null when the text is no rule, its verb is not what the other side says, the rule has no
 * qualifier, or the other side names one.
 */
function ruleQualifier(rule: Reading, other: Reading): string | null {
  const m = RULE.exec(rule.norm)
  if (!m) return null
  const verbAt = m.index + m[0].length - m[1]!.length
  const verb = rule.tokens.find((t) => t.start === verbAt)
  if (!verb || !other.tokens.some((t) => sameStem(t.stem, verb.stem))) return null
  const end = rule.norm.slice(verb.end).search(/[,;.!?(–]/)
  const stop = end < 0 ? rule.norm.length : verb.end + end
  const words = rule.tokens.filter((t) => t.start > verb.start && t.start < stop && !FUNCTION_WORDS.test(t.lower) && (rule.content.has(t.stem) || isTimeWord(t.lower)))
  if (!words.length || words.some((w) => other.tokens.some((t) => sameStem(t.stem, w.stem)))) return null
  return words.map((w) => w.lower).join(' ')
}

/** A word that can head a noun phrase after another noun: a content word that reads as no verb (a capital may: "Server"). */
function headWord(t: Reading['tokens'][number]): boolean {
  return !FUNCTION_WORDS.test(t.lower) && !t.identifier && !/\d/.test(t.lower) && !STOPWORDS.has(t.lower) && !NOT_NOUN.test(t.lower) && !isTimeWord(t.lower) &&
    !/ly$/.test(t.lower) && (t.capital || !/^[a-z]{3,}(?:ed|es|ing)$|^[a-z]*[^s]s$/.test(t.lower))
}

/**
 * The two nouns a shared word stands before, one on each side, when every use of it on both
 * sides is right before a head word, the two heads differ and neither text names the other's
 * head ("Apollo Server" / "Apollo Client", "Apple account" / "apple pie"). Null otherwise.
 */
function twoHeads(a: Reading, b: Reading, k: string): [string, string] | null {
  const head = (r: Reading): Reading['tokens'][number] | null => {
    const uses = r.tokens.flatMap((t, i) => (sameStem(t.stem, k) ? [i] : []))
    let h: Reading['tokens'][number] | null = null
    for (const i of uses) {
      const n = r.tokens[i + 1]
      if (!n || !/^\s+$/.test(r.norm.slice(r.tokens[i]!.end, n.start)) || !headWord(n) || (h && !sameStem(h.stem, n.stem))) return null
      h = n
    }
    return h
  }
  const [ha, hb] = [head(a), head(b)]
  // Both heads capitalized: two names of one family ("Apollo Server" / "Apollo Client"). Common
  // nouns after a shared word are as often two words for one thing ("Kyoto checkout" / "Kyoto
  // hotel", "build server" / "build box", "Q3 revenue" / "q3 rev"): blind batches 1-2 lost 5
  // contradictions when lower-case heads counted.
  if (!ha?.capital || !hb?.capital) return null
  if (sameStem(ha.stem, hb.stem) || hasStem(b.content, ha.stem) || hasStem(a.content, hb.stem)) return null
  if (b.tokens.some((t) => t.lower === ha.lower) || a.tokens.some((t) => t.lower === hb.lower)) return null
  return [`${surfaceOf(a, k)} ${ha.lower}`, `${surfaceOf(b, k)} ${hb.lower}`]
}

const surfaceOf = (r: Reading, k: string): string => r.tokens.find((t) => sameStem(t.stem, k))?.lower ?? k

// What a time or a date clash reads as ("different time", "different date", "different relative date").
const PERSON_AMOUNT = /^different (?:money|duration|number|frequency|percent(?:age)?)\b/
const EVENT_VALUE = /^different (?:[\w-]+ )?(?:time|date|relative date|day|time window):/

// Two counts joined by a dash, the larger first: "7–2", "3-1" (a range runs the other way).
const TALLY = /^(\d{1,3})\s?[–-]\s?(\d{1,3})(?![\d:]|\.\d)/

/** Whether a text opens with a lower-case word and the noun after it as one subject, closed there. */
function inSubject(r: Reading, t: Reading['tokens'][number], next: Reading['tokens'][number] | undefined): boolean {
  const own = next ? subjectStems(r) : null
  if (!own || !next || !own.has(t.stem) || !own.has(next.stem) || /^[a-z]{3,}(?:ed|ing)$/.test(t.lower)) return false
  // Only a subject that a colon or an auxiliary closes ("acme offsite is on the 14th"): a
  // lower-case first word before a noun is as often an imperative verb ("archive emails").
  let k = r.tokens.indexOf(next)
  while (k + 1 < r.tokens.length && own.has(r.tokens[k + 1]!.stem) && /^\s+$/.test(r.norm.slice(r.tokens[k]!.end, r.tokens[k + 1]!.start))) k++
  return /^\s*(?::|(?:is|are|was|were|has|have|had|will|got|moved|starts|runs)\b)/i.test(r.norm.slice(r.tokens[k]!.end))
}

// The speaker's own words as a shared key: "I", "we".
const FIRST_PERSON_KEY = /^(?:i|we|me|us|my|our)$/

// A third-person pronoun opening a clause speaks of someone the clause before named: "avoid
// anything before 10am for Nia, she hates early departures".
const PRONOUN_SUBJECT = /^\s*(?:he|she|they|it|his|her|their|its)\b/i

/**
 * Whether the clause (commas, semicolons, brackets, sentence ends, spaced dashes) a word at `at`
 * stands in holds nothing of the anchor while the text holds it elsewhere. A clause with no
 * subject of its own goes on with the one before; with `pronouns`, so does one whose subject is
 * a third-person pronoun.
 */
function clauseWithout(r: Reading, at: number, anchor: readonly string[], pronouns: boolean): boolean {
  if (at < 0) return false
  const cuts = [0, ...[...r.norm.slice(0, at).matchAll(CLAUSE_END)].map((m) => m.index + m[0].length)]
  // A clause that opens with no subject of its own ("departs YYZ 18:45", "only 4 in favor")
  // goes on with the one before.
  let c = cuts.length - 1
  while (c > 0 && (!OWN_SUBJECT.test(r.norm.slice(cuts[c]!)) || (pronouns && PRONOUN_SUBJECT.test(r.norm.slice(cuts[c]!))))) c--
  const start = cuts[c]!
  const rest = CLAUSE_END.exec(r.norm.slice(at))
  CLAUSE_END.lastIndex = 0
  const end = rest ? at + rest.index : r.norm.length
  const holds = (t: Reading['tokens'][number]): boolean => anchor.some((k) => sameStem(k, t.stem) || (r.compounds.has(k) && t.lower.length > 2 && k.startsWith(t.lower)))
  // An anchor the reading adds by meaning ("stay" from nights) stands nowhere: nothing to ask.
  if (!r.tokens.some(holds)) return false
  return !r.tokens.some((t) => t.start >= start && t.start < end && holds(t))
}

/** Where an antonym's word (the last word of its quoted phrase: "not done" -> "done") stands, or -1. */
function poleAt(r: Reading, phrase: string): number {
  const last = phrase.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).at(-1)
  return r.tokens.find((t) => t.lower === last)?.start ?? -1
}

// Words that end a noun phrase rather than extend it: function words and predicates.
const NOT_NOUN = /^(?:is|are|was|were|be|been|am|has|have|had|do|does|did|can|could|will|would|should|must|may|might|not|no|never|got|gets|get|goes|went|go)$/

// How many, not which kind: "two sugars", "any meat".
const QUANTIFIER = /^(?:one|two|three|four|five|six|seven|eight|nine|ten|some|any|many|much|more|less|few|every|each|all|extra|no)$/

// Adverbs, prepositions and verbs of saying that the stop list leaves in.
const FUNCTION_WORDS = /^(?:said|says|told|asked|before|after|anymore|again|today|there|here|when|then|also|only|just|still|ever|even|too|left|right|now|yet|soon|later|instead)$/

/** A word that can extend a noun phrase as its head: a lower-case content word that reads as no verb. */
function nounWord(t: Reading['tokens'][number]): boolean {
  return !FUNCTION_WORDS.test(t.lower) && !t.capital && !t.identifier && !/\d/.test(t.lower) && !STOPWORDS.has(t.lower) && !NOT_NOUN.test(t.lower) && !isTimeWord(t.lower) &&
    !/^[a-z]{3,}(?:ed|es)$|^[a-z]*[^s]s$/.test(t.lower) && !/ly$/.test(t.lower)
}

/**
 * For a negated or opposed noun: the word right before it on each side, when both are content
 * words, differ, and neither text says the other's ("window seat" / "middle seat").
 */
function otherKinds(a: Reading, b: Reading, clash: readonly string[]): [string, string] | null {
  const before = (r: Reading): Map<string, Reading['tokens'][number]> => {
    const out = new Map<string, Reading['tokens'][number]>()
    for (const [i, t] of r.tokens.entries()) {
      if (!clash.some((c) => sameStem(c, t.stem)) || i === 0) continue
      // "our strongest Go dev": a word before another noun modifies it, it is not the head.
      const n = r.tokens[i + 1]
      if (n && /^\s+$/.test(r.norm.slice(t.end, n.start)) && nounWord(n)) continue
      const m = r.tokens[i - 1]!
      if (!/^\s+$/.test(r.norm.slice(m.end, t.start)) || clash.some((c) => sameStem(c, m.stem))) continue
      // A word after a modal, a negator or "to" is a verb ("cannot read music").
      const p = r.tokens[i - 2]
      if (p && (NOT_NOUN.test(p.lower) || /^(?:to|cannot|can't|won't|don't|doesn't|didn't)$/.test(p.lower))) continue
      if (STOPWORDS.has(m.lower) || NOT_NOUN.test(m.lower) || POLARITY.has(m.lower) || QUANTIFIER.test(m.lower) || /^[a-z]{3,}(?:ed|es)$|^[a-z]*[^s]s$/.test(m.lower) || /\d/.test(m.lower)) continue
      out.set(t.stem, m)
    }
    return out
  }
  const [ma, mb] = [before(a), before(b)]
  for (const [k, x] of ma) {
    const y = [...mb].find(([j]) => sameStem(j, k))?.[1]
    if (!y || sameStem(x.stem, y.stem) || hasStem(b.content, x.stem) || hasStem(a.content, y.stem)) continue
    return [x.lower, y.lower]
  }
  return null
}

/**
 * How a text uses `k`: 1 when every use heads a phrase that "a", "an", "another", "any" or "some"
 * opens (at most two lower-case words between: "a local comp") or modifies the noun after it ("my
 * dance crew"), one at least the former; 2 when every use modifies; 0 otherwise ("the parade").
 */
function ofAKind(r: Reading, k: string): 0 | 1 | 2 {
  let kind: 0 | 1 | 2 = 2
  for (const [i, t] of r.tokens.entries()) {
    if (!sameStem(t.stem, k)) continue
    const n = r.tokens[i + 1]
    if (n && !AFTER_NOUN.test(n.lower) && nounWord(n)) continue
    const before = r.tokens.slice(Math.max(0, i - 3), i).reverse()
    const j = before.findIndex((u) => INDEFINITE.test(u.lower))
    if (j < 0 || !before.slice(0, j).every(nounWord)) return 0
    kind = 1
  }
  return kind
}
