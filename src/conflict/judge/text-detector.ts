import { differentItems, itemLabels } from '../read/labels.js'
import { readStatement, sentences, type Statement } from '../read/statement.js'
import { DEFAULT_CONFLICT_THRESHOLD } from '../threshold.js'
import { weigh } from './confidence.js'
import { differentModifiers } from './attachment.js'
import { readText, type Reading } from '../read/reading.js'
import { hasStem } from '../read/same-stem.js'
import type { Signal } from './signal.js'
import { OCCASION, OCCASION_OF, OCCASION_WORD, RETURN_LEG } from '../words/markers.js'
import type { CheckName, RawVerdict, TextConflictVerdict } from './verdict.js'
import { antonymSignal } from './checks/antonyms.js'
import { complementSignal } from './checks/complement.js'
import { dietSignal } from './checks/diets.js'
import { exclusiveSignal } from './checks/exclusive.js'
import { identifierSignal } from './checks/identifiers.js'
import { substitutionSignal } from './checks/names.js'
import { negationSignal, prefixSignal } from './checks/negation.js'
import { placeSignal } from './checks/places.js'
import { orderSignal, stanceSignal } from './checks/preferences.js'
import { compareSlots } from './checks/slot-compare.js'
import { oneOccasion, valueSignal } from './checks/values.js'
import { dayRule } from './checks/weekday-rule.js'
import { possessionRule } from './checks/possession.js'
import { jobRule } from './checks/jobs.js'
import { diaryWeight } from '../store/diary.js'
import { nextOccurrenceWeight } from '../store/next-occurrence.js'
import { hubWeight } from '../store/hub-subject.js'
import { hubOnlyWeight } from '../store/hub-only.js'
import { recurringWeight } from '../store/recurring-slot.js'
import { stateWeight } from '../store/states.js'
import { BoundedCache } from './bounded-cache.js'
import { sharedOnlyInValues } from './value-words.js'
import { kindAndOne } from './kind-and-one.js'
import { sharedOnlyAsOccasion } from './routine-occasion.js'

export type { CheckName, RawVerdict, TextConflictVerdict } from './verdict.js'

/** The checks in the order they are asked, each with the name its verdicts carry (`check`). */
const CHECKS = [
  ['value', valueSignal], ['negation', negationSignal], ['antonym', antonymSignal], ['substitution', substitutionSignal],
  ['exclusive', exclusiveSignal], ['diet', dietSignal], ['complement', complementSignal], ['identifier', identifierSignal],
  ['order', orderSignal], ['prefix', prefixSignal], ['stance', stanceSignal], ['place', placeSignal],
] as const satisfies ReadonlyArray<readonly [CheckName, (a: Reading, b: Reading) => Signal | null]>


/**
 * Decides whether two short observations, written however people write (chat, notes, tickets),
 * contradict each other, without a model:
 *
 * 1. Topic gate: they must share a key entity, a name, identifier or uncommon word ("4B",
 *    "Okoye", "standup"), not merely look alike. Weekdays, dates and bare numbers never make a
 *    topic: "team lunch Wed" and "Wednesday's release" are two things.
 * 2. Contradiction: a value of one kind that no reading reconciles (times across time zones,
 *    dates with relative ones resolved, amounts across units); a negation or retraction of what
 *    the other states; opposite poles of an antonym group; another member of a closed class or a
 *    lone other name in the same place; "only" against more or "any".
 *
 * Past-marked statements ("used to", "grew up") do not clash on values or names with present ones.
 * Pure and synchronous: microseconds per pair, so it runs inside a write.
 *
 * @example
 * new TextConflictDetector().judge('Room 4B has a projector', '4B has no projector, just a wall TV').conflict // true
 */
export class TextConflictDetector {
  readonly #cache = new BoundedCache<string, Reading>(4096)
  readonly #statements = new BoundedCache<string, Statement>(4096)

  readonly #threshold: number

  /**
   * @param options.threshold - the confidence at which a pair is a conflict (default
   *   DEFAULT_CONFLICT_THRESHOLD, 0.8); lower finds more and is wrong more often.
   */
  constructor(options: { threshold?: number } = {}) {
    this.#threshold = options.threshold ?? DEFAULT_CONFLICT_THRESHOLD
  }

  #assess(raw: RawVerdict, a: Reading, b: Reading, sa: Statement, sb: Statement): TextConflictVerdict {
    const confidence = raw.conflict ? weigh(raw, a, b, sa, sb) : { value: 0, note: '' }
    const conflict = raw.conflict && confidence.value >= this.#threshold
    const { check: _c, signal: _s, ...verdict } = raw
    return { ...verdict, conflict, confidence: confidence.value, reason: confidence.note ? `${raw.reason}; ${confidence.note}` : raw.reason }
  }

  /**
   * The verdict of the gates no check is asked past, or null: a side that makes no claim, two
   * items told apart by their labels, two speakers each about themselves. Working memory's claim
   * comparator asks it too.
   */
  gate(textA: string, textB: string): TextConflictVerdict | null {
    return claimGate(this.statement(textA), this.statement(textB))
  }

  /** What of a text makes a claim (cached, bounded with the readings). */
  statement(text: string): Statement {
    return this.#statements.get(text, readStatement)
  }

  /** Reads a text (cached, bounded). */
  read(text: string): Reading {
    return this.#cache.get(text, readText)
  }

  /**
   * Whether every kind of value both texts state agrees once normalized ("5 km" / "about 3
   * miles"), with at least one such kind: lets a caller overrule a cruder value comparison.
   */
  valuesAgree(a: string, b: string): boolean {
    const { clashes, agreements } = compareSlots(this.read(a).slots, this.read(b).slots)
    return clashes.length === 0 && agreements > 0
  }

  /**
   * The gates and the confidence this detector gives a contradiction another reader found in two
   * texts (working memory's claim comparator, issue 27): not a claim, two items, two speakers each
   * about themselves, two subjects (different names or someone of a person's opening each text),
   * then the confidence `weigh` gives a fired check of that name, against this detector's
   * threshold. So a flag of the other reader meets the rules a flag of this one meets.
   */
  weighFound(textA: string, textB: string, found: { readonly check: CheckName; readonly kind: Signal['kind']; readonly reason: string }): TextConflictVerdict {
    const [sa, sb] = [this.statement(textA), this.statement(textB)]
    const gate = claimGate(sa, sb)
    if (gate) return gate
    const [a, b] = [this.read(sa.text), this.read(sb.text)]
    const shared = sharedKeys(a, b)
    const subjects = subjectGate(a, b, shared)
    if (subjects) return { ...subjects, confidence: 0 }
    // The way out and the way back of a trip are two legs, for the other reader's values as for ours.
    if (found.kind === 'value' && RETURN_LEG.test(a.norm) !== RETURN_LEG.test(b.norm)) {
      return { conflict: false, kind: 'none', reason: `two legs of a trip: ${found.reason}`, shared, confidence: 0 }
    }
    // One day's amount against the usual one (ninth round), for the other reader's values as for ours.
    if (found.kind === 'value' && oneOccasion(a, b)) {
      return { conflict: false, kind: 'none', reason: `one occasion against the usual: ${found.reason}`, shared, confidence: 0 }
    }
    return this.#assess({ conflict: true, kind: found.kind, reason: found.reason, shared, check: found.check }, a, b, sa, sb)
  }

  /**
   * A verdict of `judge` weighed by the dates of the two facts it was given (store rules): two
   * statements told as moments (a past event, an activity, a plan, a feeling) written days apart are
   * a diary, not one state said two ways (src/conflict/store/diary.ts); a later state that tells a
   * change, or a drifting value the gap allows, is a change, not a contradiction
   * (src/conflict/store/states.ts); "the next X" whose date was over by the later's day is another
   * occurrence (src/conflict/store/next-occurrence.ts). Each makes the flag less sure; "still" / "never" keeps it.
   * @param days - textB's valid time less textA's, in days (0: one moment; negative: textB is the earlier)
   * @param times - textA's and textB's valid times (ms since the epoch): a date a text states is read against its own
   */
  atDates(verdict: TextConflictVerdict, textA: string, textB: string, days: number, times?: readonly [number, number]): TextConflictVerdict {
    if (verdict.confidence === 0) return verdict
    const [a, b] = this.#claims(textA, textB)
    const next = times && (days >= 0 ? nextOccurrenceWeight(a, b, verdict, times) : nextOccurrenceWeight(b, a, verdict, [times[1], times[0]]))
    const w = next ?? diaryWeight(a, b, verdict, Math.abs(days)) ?? (days >= 0 ? stateWeight(a, b, verdict, days, times) : stateWeight(b, a, verdict, -days, times && [times[1], times[0]]))
    return w ? this.#lowered(verdict, verdict.confidence * w.factor, w.note) : verdict
  }

  /**
   * A verdict of `judge` weighed by who the store is about (a store's rule,
   * src/conflict/store/hub-subject.ts): when both texts open with a name that opens a large share
   * of the store's facts, sharing it says little, so the flag is less sure unless the texts say one
   * attribute of that subject twice.
   * @param name - the subject both texts open with, lower case
   * @param share - the share of the store's free-text facts that open with it, in [0, 1]
   */
  atHub(verdict: TextConflictVerdict, textA: string, textB: string, name: string, share: number): TextConflictVerdict {
    if (verdict.confidence === 0) return verdict
    const w = hubWeight(...this.#claims(textA, textB), verdict, name, share)
    return w ? this.#lowered(verdict, Math.round(verdict.confidence * w.factor * 1000) / 1000, w.note) : verdict
  }

  /**
   * A listed verdict weighed by the store's hub when the two texts share nothing else (a store's
   * rule, src/conflict/store/hub-only.ts): a value clash is kept only when something says the two
   * values are of one thing.
   * @param name - the store's hub, lower case ("the user")
   */
  atHubOnly(verdict: TextConflictVerdict, textA: string, textB: string, name: string): TextConflictVerdict {
    if (!verdict.conflict) return verdict
    const w = hubOnlyWeight(...this.#claims(textA, textB), verdict, name)
    return w ? this.#lowered(verdict, Math.round(verdict.confidence * w.factor * 1000) / 1000, w.note) : verdict
  }

  /**
   * A verdict of `judge` weighed by how often the store told what the pair shares (a store's rule,
   * src/conflict/store/recurring-slot.ts): a thing told with one name on many days is followed as it
   * changes, so two statements of it at two dates are less sure to contradict.
   * @param days - textB's valid time less textA's, in days (signed)
   * @param name - the name the store told `word` with, lower case
   * @param word - the shared key told with it (a stem)
   * @param told - on how many days the store told them together
   */
  atRecurring(verdict: TextConflictVerdict, textA: string, textB: string, days: number, name: string, word: string, told: number): TextConflictVerdict {
    if (verdict.confidence === 0) return verdict
    const [a, b] = this.#claims(textA, textB)
    const shown = a.tokens.find((t) => t.stem === word)?.lower ?? surface(b, word)
    const w = days >= 0 ? recurringWeight(a, b, verdict, days, name, shown, told) : recurringWeight(b, a, verdict, -days, name, shown, told)
    return w ? this.#lowered(verdict, Math.round(verdict.confidence * w.factor * 1000) / 1000, w.note) : verdict
  }

  /** The readings of what two texts claim, as the store rules weigh them (cached). */
  #claims(textA: string, textB: string): [Reading, Reading] {
    return [this.read(this.statement(textA).text), this.read(this.statement(textB).text)]
  }

  /** A verdict a store rule lowered to `confidence`, its note added to the reason. */
  #lowered(verdict: TextConflictVerdict, confidence: number, note: string): TextConflictVerdict {
    return { ...verdict, confidence, conflict: verdict.conflict && confidence >= this.#threshold, reason: `${verdict.reason}; ${note}` }
  }

  /**
   * Judges one pair of texts. A text of several sentences or clauses joined by ";" that speak of
   * different subjects ("dev uses Node 18; prod uses Node 20") is also judged clause by clause,
   * against the other text, by the clause whose subject the other names.
   */
  judge(textA: string, textB: string): TextConflictVerdict {
    const [sa, sb] = [this.statement(textA), this.statement(textB)]
    const gate = claimGate(sa, sb)
    if (gate) return gate
    const [a, b] = [sa.text, sb.text]
    const [ra, rb] = [this.read(a), this.read(b)]
    const whole = this.#assess(judgeReadings(ra, rb), ra, rb, sa, sb)
    if (whole.conflict || whole.kind === 'unrelated') return whole
    for (const [x, y, flip] of [[a, b, false], [b, a, true]] as const) {
      const parts = sentences(x)
      if (parts.length < 2) continue
      const readings = parts.map((p) => this.read(p))
      const other = this.read(y)
      for (const [i, r] of readings.entries()) {
        // The clause must name something of the other text that no other clause names.
        const own = [...r.keys].filter((k) => hasStem(other.keys, k) && !readings.some((q, j) => j !== i && hasStem(q.keys, k)))
        // ... and be one of parallel clauses, which say the same of different subjects ("dev uses
        // Node 18; prod uses Node 20"), not a story in steps ("v1 was shut down; v2 is served now").
        const parallel = readings.some((q, j) => j !== i && [...q.content].some((c) => !own.includes(c) && r.content.has(c)))
        if (own.length === 0 || !parallel) continue
        const v = flip ? this.#assess(judgeReadings(other, r), other, r, sa, sb) : this.#assess(judgeReadings(r, other), r, other, sa, sb)
        if (v.conflict) return { ...v, reason: `${v.reason}, in "${parts[i]!.trim()}"` }
      }
    }
    return whole
  }
}

/**
 * Pairs no check is asked about: a side that makes no claim (greetings, thanks, questions,
 * reactions to the listener), two items told apart by their labels ("Ticket 123" / "Ticket 456"),
 * and two speakers each speaking of themselves ("Caroline: I love hiking" / "Melanie: I hate it").
 */
function claimGate(a: Statement, b: Statement): TextConflictVerdict | null {
  const none = (reason: string): TextConflictVerdict => ({ conflict: false, kind: 'none', reason, shared: [], confidence: 0 })
  for (const s of [a, b]) if (!s.text.trim()) return none(`not a claim: ${[...new Set(s.dropped)].join(', ') || 'empty'}`)
  const items = differentItems(itemLabels(sentences(a.text)), itemLabels(sentences(b.text)))
  if (items) return none(`two items: "${items[0].text}" vs "${items[1].text}"`)
  if (a.speaker && b.speaker && a.speaker !== b.speaker && a.firstPerson && b.firstPerson) {
    return none(`two speakers, each about themselves: ${a.speaker} vs ${b.speaker}`)
  }
  return null
}


/** Judges two readings; see TextConflictDetector. */
export function judgeReadings(a: Reading, b: Reading): RawVerdict {
  const shared = sharedKeys(a, b)
  const day = dayRule(a, b) ?? dayRule(b, a)
  if (day) return { conflict: true, kind: 'negation', reason: day, shared, check: 'weekday-rule' }
  const held = possessionRule(a, b)
  if (held) return { conflict: true, kind: 'negation', reason: held, shared, check: 'possession' }
  const jobs = jobRule(a, b)
  if (jobs) return { conflict: true, kind: 'substitution', reason: jobs, shared, check: 'job' }
  if (shared.length === 0) return { conflict: false, kind: 'unrelated', reason: 'no shared key entity', shared }
  if (sharedOnlyInValues(a, b, shared)) return { conflict: false, kind: 'unrelated', reason: `they share only the units of their values ("${shared.join('", "')}")`, shared }
  if (sharedOnlyAsOccasion(a, b, shared)) return { conflict: false, kind: 'unrelated', reason: `they share only an occasion ("${shared.join('", "')}")`, shared }
  const two = subjectGate(a, b, shared)
  if (two) return two
  const kind = kindAndOne(a, b)
  if (kind) return { conflict: false, kind: 'none', reason: `two subjects, a kind and one of it: "${kind[0]}" vs "${kind[1]}"`, shared }
  const about = ` (both about ${shared.slice(0, 3).map((s) => `"${surface(a, s)}"`).join(', ')})`
  const signals: Array<Signal & { check: CheckName }> = []
  for (const [check, fn] of CHECKS) {
    const s = fn(a, b)
    if (s) signals.push({ ...s, check })
  }
  // One slot, one contradiction: a second, independent difference means two subjects ("Alice's
  // flight at 3pm" / "Bob's flight at 5pm", "last year's budget $40k" / "this year's $60k").
  const modifier = signals.find((s) => s.modifier)
  const modifiers = differentModifiers(a, b)
  if (modifiers && signals.length) {
    return { conflict: false, kind: 'none', reason: `two subjects: ${modifiers}` + about, shared }
  }
  // "the warehouse in Reno is full" / "the warehouse in Dallas is empty": another name and an
  // opposite word are two differences, even where the antonym check left the pair to the names.
  const opposed = [...a.poles].some(([g, pa]) => g !== 'preference' && b.poles.get(g)?.some((q) => pa.some((p) => p.pole === -q.pole)))
  if (modifier && (modifier.twice || opposed || signals.some((s) => s !== modifier && s.kind !== 'substitution' && s.kind !== 'exclusive'))) {
    return { conflict: false, kind: 'none', reason: `two subjects: ${modifier.reason.replace(/^(?:different [^:]+|two roles): /, '')}` + about, shared }
  }
  // "I prefer tea in the morning" / "I like a coffee after lunch": a habit of two occasions, unless
  // the occasion is itself what differs ("the call is in the morning" / "... in the evening").
  const first = signals[0]
  if (first && !OCCASION_WORD.test(first.reason)) {
    const [oa, ob] = [occasions(a), occasions(b)]
    if (oa.size && ob.size && ![...oa].some((o) => ob.has(o))) {
      return { conflict: false, kind: 'none', reason: `two occasions: "${[...oa].join('/')}" vs "${[...ob].join('/')}"` + about, shared }
    }
  }
  const value = signals.find((s) => s.kind === 'value')
  if (value && value.kinds! > 1 && value.period) {
    return { conflict: false, kind: 'none', reason: 'two periods: ' + value.reason + about, shared }
  }
  // Two names in two roles never flag, nor does another check that found the same two names
  // ("another place after ...": names27's veto is final for those names).
  const roles = signals.find((x) => x.roles)
  const s = signals.find((x) => !x.roles && !(roles && x.names && sameNames(x.names, roles.names!)))
  if (s) return { conflict: true, kind: s.kind, reason: s.reason + about, shared, check: s.check, signal: s }
  if (roles) return { conflict: false, kind: 'none', reason: roles.reason + about, shared }
  return { conflict: false, kind: 'none', reason: 'same subject, nothing incompatible' + about, shared }
}

/** Two pairs of names that are one pair, each name written inside the other's ("Lake Como" / "como"). */
function sameNames(x: NonNullable<Signal['names']>, y: NonNullable<Signal['names']>): boolean {
  const within = (p: string, q: string): boolean => p.toLowerCase().includes(q.toLowerCase()) || q.toLowerCase().includes(p.toLowerCase())
  return within(x[0].text, y[0].text) && within(x[1].text, y[1].text)
}

/** The key entities two readings share (a compound on one side counts: "payroll export" / "export"). */
function sharedKeys(a: Reading, b: Reading): string[] {
  const shared = [...a.keys].filter((k) => hasStem(b.keys, k) || b.compounds.has(k))
  for (const k of b.keys) if (a.compounds.has(k) && !shared.includes(k)) shared.push(k)
  return shared
}

/** Two subjects told apart before any check: different names opening each text, or someone of a person's. */
function subjectGate(a: Reading, b: Reading, shared: readonly string[]): RawVerdict | null {
  const about = ` (both about ${shared.slice(0, 3).map((s) => `"${surface(a, s)}"`).join(', ')})`
  // Two texts that open with different names are about two people ("Tess Petrov has a birthday in
  // August" / "Ximena Ng has a birthday in June"; "Nils Ng ..." / "Nils Costa ...").
  const [na, nb] = [a.leadingName, b.leadingName]
  const elsewhere = (name: readonly string[], other: Reading): boolean => name.some((s) => other.tokens.some((t) => t.stem === s))
  if (na.length && nb.length && na.join(' ') !== nb.join(' ') && ((!elsewhere(na, b) && !elsewhere(nb, a)) || (na.length > 1 && nb.length > 1))) {
    return { conflict: false, kind: 'none', reason: `two subjects: "${a.tokens.slice(0, na.length).map((t) => t.lower).join(' ')}" vs "${b.tokens.slice(0, nb.length).map((t) => t.lower).join(' ')}"` + about, shared: [...shared] }
  }
  // "Ivy loves jazz" / "ivy's brother hates jazz": someone of the person's, not the person.
  const kin = (r: Reading): string | undefined => (KIN.exec(r.norm)?.[2] ?? MY_KIN.exec(r.norm)?.[1])?.toLowerCase()
  const [ka, kb] = [kin(a), kin(b)]
  if (ka !== kb) {
    return { conflict: false, kind: 'none', reason: `two subjects: ${ka ? `"${ka}"` : 'the person'} vs ${kb ? `"${kb}"` : 'the person'}` + about, shared: [...shared] }
  }
  return null
}

/** Who someone of a person's is: kin, work, a pet. */
const PEOPLE = 'brother|sister|mother|father|mom|mum|dad|wife|husband|partner|son|daughter|kids?|boss|manager|friend|colleague|roommate|assistant|neighbou?r|cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|parents|nephew|niece|dog|cat|children|girlfriend|boyfriend'
const NAMING = String.raw`\b(?!\s+(?:is|was|are|were|will\s+be|=|:))`

/** A text about someone of a person's: "Ivy's brother ...", "my wife's boss ...". */
const KIN = new RegExp(String.raw`^\s*(\w+)['’]s\s+(${PEOPLE}|team)` + NAMING, 'i')

/**
 * A text whose subject is someone of the speaker's: "My husband can't handle spicy food" against
 * "I love spicy food" (eighth round). Not "my husband and I", and not "my boss is Priya" (the
 * relation named, as KIN).
 */
const MY_KIN = new RegExp(String.raw`^\s*(?:my|our|his|her|their)\s+(?:(?:older|younger|little|big|only|best)\s+)?(${PEOPLE})(?!\s+and\s+(?:i|me)\b)` + NAMING, 'i')

/** The occasions a text's habit holds on (words/markers.ts OCCASION), folded to a part of the day or week. */
function occasions(r: Reading): Set<string> {
  const out = new Set<string>()
  for (const [, prep, w] of r.norm.matchAll(OCCASION)) {
    const word = w!.toLowerCase()
    out.add(OCCASION_OF[`${prep!.toLowerCase()} ${word}`] ?? OCCASION_OF[word] ?? word)
  }
  return out
}

function surface(r: Reading, stem: string): string {
  return r.tokens.find((t) => t.stem === stem)?.lower ?? stem
}
