import { ANTONYMS, WORDNET_POLES } from '../words/poles.js'
import { DISLIKE_PHRASES } from '../words/preferences.js'
import { PHRASAL_VERBS } from '../words/phrases.js'
import { ACTIVITY_BEFORE, EXCLUSIVE, ONLY_OPENS_ANSWER, PAST_MARKERS, PRESENT_MARKERS, UNIVERSAL, ADDITIVE } from '../words/markers.js'
import { NEGATORS } from '../words/negation.js'
import { ATTITUDE_VERBS, CHANGE_VERBS, KNOWING_VERBS, KNOWN_CLAUSE, REALISING_VERBS, REMEMBERING_VERBS, SAYING_WORDS, TELLING_APART } from '../words/negation-scope.js'
import { NOT_TAKING_PART, RETRACT_PHRASES, RETRACTORS } from '../words/retractions.js'
import { CLASS_OF } from '../words/classes.js'
import { STOPWORDS } from '../words/stopwords.js'
import { alternatives, DETERMINER_WORDS } from '../words/determiners.js'
import { MONTH_PATTERN } from '../words/months.js'
import { regularStem, stem } from './stem.js'
import type { Slots } from './slot.js'
import { readSlots } from './slots.js'
import { rewriter } from './rewrite.js'
import { normalizeText, tokenize, type Token } from './text-tokens.js'
import { countedOccurrences, noRetraction } from './retraction-use.js'
import { addsNotDenies, reachesNothing } from './reach-nothing.js'
import { stanceWordAsModifier } from './stance-modifier.js'

/**
 * One observation read for the free-text detector: its words (with which ones are negated), its
 * key entities, its antonym poles, its values and its tense markers. A pure function of the text,
 * cached by the detector.
 */
export interface Reading {
  readonly text: string
  /** The text after shorthand, contractions and cue phrases are rewritten; token offsets point here. */
  readonly norm: string
  readonly tokens: readonly Token[]
  /** Stems of content words, for overlap. */
  readonly content: ReadonlySet<string>
  /** Stems that pick the subject out: names, identifiers, uncommon words. */
  readonly keys: ReadonlySet<string>
  /** Adjacent words written closed ("all hands" -> "allhands"), to meet a key written as one word. */
  readonly compounds: ReadonlySet<string>
  /** Stems inside a negated or retracted clause, with the cue that negates them. */
  readonly negated: ReadonlyMap<string, string>
  /** Antonym group -> poles found (after negation), with the word. */
  readonly poles: ReadonlyMap<string, ReadonlyArray<{ readonly pole: 1 | -1; readonly word: string; readonly end: number }>>
  /** Names and closed-class members (languages, tiers, environments), merged when adjacent. */
  /**
   * Names and closed-class members, merged when adjacent. `guessed`: a name read from a sentence's
   * start, where a capital proves nothing; `modifies`: the name stands before a noun or number
   * ("our Slack bot", "Bistro 9"), so it names a thing's maker or label rather than a person.
   */
  readonly entities: ReadonlyArray<{ readonly stem: string; readonly text: string; readonly cls: string | null; readonly start: number; readonly guessed?: boolean; readonly modifies?: boolean }>
  readonly slots: Slots
  readonly past: boolean
  /** The capitalized name a text opens with ("Nils Ng leads ...", "Tess Petrov has ..."), as stems; empty if none. */
  readonly leadingName: readonly string[]
  /**
   * Told in the simple past with no present verb ("Oren worked at Google for 5 years"): past
   * against a text that says "now" ("oren is at Stripe now"). Update verbs ("moved to", "switched
   * to") state the present and do not count.
   */
  readonly simplePast: boolean
  /** Stated orders of preference: "prefers trains to flying", "would rather fly than take the train". */
  readonly orders: ReadonlyArray<{ readonly better: string; readonly worse: string }>
  /** Whether the clause around a position is past-marked ("knows Kubernetes, ran clusters at his last job"). */
  readonly pastAt: (pos: number) => boolean
  readonly present: boolean
  /** Clauses that restrict ("only") and the stems in them. */
  readonly exclusive: ReadonlyArray<ReadonlySet<string>>
  readonly universal: boolean
  readonly additive: boolean
}

/**
 * Everyday nouns with a second everyday name (British and American English, chat and formal
 * register): either name makes the same topic.
 */
export const NOUN_ALIASES: ReadonlyMap<string, string> = new Map(
  [
    ['lift', 'elevator'], ['flat', 'apartment'], ['film', 'movie'], ['holiday', 'vacation'], ['couch', 'sofa'],
    ['rubbish', 'trash'], ['garbage', 'trash'], ['cell', 'phone'], ['mobile', 'phone'], ['doc', 'document'],
    ['pic', 'photo'], ['picture', 'photo'], ['bill', 'invoice'], ['boss', 'manager'], ['pay', 'salary'],
    ['wage', 'salary'], ['plane', 'flight'], ['bug', 'issue'], ['defect', 'issue'], ['ticket', 'issue'],
    ['rollout', 'release'], ['deploy', 'release'], ['deployment', 'release'], ['launch', 'release'],
    ['mtg', 'meeting'],
    ['reservation', 'booking'], ['rez', 'booking'], ['res', 'booking'], ['appointment', 'appointment'], ['appt', 'appointment'],
    ['colleague', 'coworker'], ['autumn', 'fall'], ['postcode', 'zipcode'], ['petrol', 'gas'],
  ].map(([a, b]) => [stem(a!), stem(b!)] as const),
)

/**
 * Kinds of a few everyday things, so a negation of the kind reaches its members: "doesn't drink
 * coffee" against "had three espressos", "no alcohol" against "a glass of wine".
 */
export const KIND_OF: ReadonlyMap<string, readonly string[]> = (() => {
  const out = new Map<string, string[]>()
  for (const [kind, words] of Object.entries({
    coffee: 'espresso latte cappuccino americano macchiato mocha cortado',
    alcohol: 'beer wine whisky whiskey vodka gin rum tequila cocktail champagne prosecco cider sake',
    meat: 'steak beef pork chicken bacon ham lamb veal sausage turkey duck',
    dairy: 'milk cheese butter cream yogurt yoghurt',
    sugar: 'candy sweets dessert cake cookie chocolate',
    caffeine: 'coffee espresso latte cappuccino tea cola',
  })) for (const w of words.split(' ')) out.set(stem(w), [...(out.get(stem(w)) ?? []), stem(kind)])
  return out
})()

/** Words too common to say what a text is about. Time words are excluded separately. */
const GENERIC = new Set(
  ('thing stuff time day week month year today tomorrow yesterday tonight morning afternoon evening night people person team ' +
    'someone anyone everyone anything everything something nothing need needs want wants said say says ask asked told tell ' +
    'new old good great fine sure quick quickly right back still again also first last next going come comes keep keeps ' +
    'put send sent take takes took give gave start starts starting run runs running work works way lot bit part place ' +
    'live lives lived living work works worked working meet meets take takes make makes have has use uses ' +
    'up out off down over one two fyi them its his her their our your my ' +
    // Prepositions, which bound a value ("before 10", "under 4 hrs"), never say what a text is about.
    'before after until till since past within between below above under around').split(' '),
)
// Month names exactly: a prefix match would swallow names ("Marta", "Marcus", "Janet", "Augusta").
const TIME_WORDS = new RegExp(String.raw`^(?:mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day|days|s)?$|^(?:${MONTH_PATTERN})$|^(?:second|minute|hour|day|week|month|year)s?$|^(?:today|tomorrow|tonight|yesterday|weekend|morning|afternoon|evening|night|am|pm|noon|et|pt|ct|mt|utc|gmt|bst|cet|est|edt|pst|pdt|uk)$`)
const ZONE_WORDS = /^(?:et|pt|ct|mt|utc|gmt|bst|cet|cest|est|edt|pst|pdt|cst|cdt|uk|eastern|pacific|central|mountain|london|york|new)$/

/** Where a reading's value slots stand, as [start, end) spans of `norm`. */
export function valueSpans(r: Reading): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (const s of r.slots.slots) {
    const at = r.slots.at.get(s) ?? -1
    if (at >= 0) out.push([at, at + s.text.length])
  }
  return out
}

export function isTimeWord(lower: string): boolean {
  // Asked of every word of every text read, by four patterns: words repeat, so the answer is kept
  // (bounded as stem()'s cache is).
  let is = TIME_WORD_CACHE.get(lower)
  if (is === undefined) {
    // Short numbers are amounts or times; numbers of three digits and more are identifiers ("#518", "acct 88213").
    is = TIME_WORDS.test(lower) || /^\d{1,2}(?:st|nd|rd|th|am|pm|h|m|s)?$/.test(lower) || /^(?:19|20)\d\d$/.test(lower) || /^\d+(?:am|pm|h|m|s)$/.test(lower)
    if (TIME_WORD_CACHE.size < 50_000) TIME_WORD_CACHE.set(lower, is)
  }
  return is
}
const TIME_WORD_CACHE = new Map<string, boolean>()

/** Phrasal verbs, then retraction phrases, rewritten to one word each. */
const PHRASES = rewriter([...PHRASAL_VERBS, ...RETRACT_PHRASES])

/**
 * Whether a text may hold a count of nights (the slot that makes a stay a topic, below): its
 * slots are the only part of a reading the keys need, and reading them is a third of a reading,
 * so a text without either word leaves them unread until a check asks. A night count is "N
 * nights" (the unit is the stem of the word after the number, and a Porter stem is a prefix of its
 * word) or a stay told by its check-in and check-out (stay-nights.ts); every other count's unit
 * is another word (test/conflict/reading-lazy.test.ts holds this over every text of the data).
 */
export function mayCountNights(norm: string): boolean {
  return /night|check/i.test(norm)
}

/**
 * Reads an observation. Words, keys and compounds are read at once; the rest (slots, negation,
 * poles, names, markers) when first asked, once: most pairs a store compares are told apart by
 * their keys or the names they open with (two people, no shared key), and the reading of values
 * and negation is most of a reading's cost (issue 31: a retrieve judges the facts it returns).
 * Each part is a pure function of the normalized text, so the order they are asked in changes
 * nothing.
 */
export function readText(text: string): Reading {
  let norm = normalizeText(text)
  norm = PHRASES(norm)
  norm = norm
    .replace(DISLIKE_PHRASES, 'dislike')
    .replace(/\b(?:ask(?:s|ed)?|request(?:s|ed)?)\s+for\b/gi, 'wants')
    .replace(/\bON\b/g, 'enabled').replace(/\bOFF\b/g, 'disabled')
    .replace(/\b(is|are|was|were|stays?|remains?|left|kept|still)\s+(not\s+)?(on|off)\b(?=\s*$|\s*[.,;!?]|\s+(?:in|for|now|again)\b)/gi, (_m, v: string, not: string | undefined, s: string) => `${v} ${(s.toLowerCase() === 'on') !== !!not ? 'enabled' : 'disabled'}`)
  const tokens = tokenize(norm)
  // The parts read when first asked, kept here (one record, not a closure a part: a retrieve reads
  // dozens of texts, and most of what it allocates is theirs).
  const lazy: Lazy = {}
  const slotsOf = (): Slots => (lazy.slots ??= readSlots(norm))
  const content = new Set<string>()
  const keys = new Set<string>()
  for (const t of tokens) {
    if (isStop(t) || NEGATORS.has(t.lower) || isTimeWord(t.lower)) continue
    content.add(t.stem)
    const alias = NOUN_ALIASES.get(t.stem)
    if (alias) content.add(alias)
    // "espresso" is coffee: the kind is a word of the text and a topic it is about.
    for (const kind of KIND_OF.get(t.stem) ?? []) {
      content.add(kind)
      keys.add(kind)
    }
    // "check-in" also says "check": parts of a hyphenated word are words too.
    if (/-/.test(t.lower) && !/\d/.test(t.lower)) for (const part of t.lower.split('-')) if (part.length > 2) content.add(stem(part))
    if (t.capital || t.identifier || (!GENERIC.has(t.lower) && t.lower.length >= 3 && !ANTONYMS.has(t.stem) && !RETRACTORS.has(t.stem))) {
      keys.add(t.stem)
      if (alias) keys.add(alias)
    }
  }
  const compounds = new Set<string>()
  // "all hands", "all-hands" and "allhands", "on call" and "on-call": a compound is one key however
  // it is written, so the open form also yields the closed one (hyphenated tokens are read closed).
  tokens.forEach((t, i) => {
    const next = tokens[i + 1]
    if (!next || !/^\s+$/.test(norm.slice(t.end, next.start)) || !/^\p{L}+$/u.test(t.lower) || !/^\p{L}+$/u.test(next.lower)) return
    const joined = t.lower + next.lower
    if (joined.length >= 6) compounds.add(joined)
  })
  // A stay told by its nights or by its check-in and check-out is one topic: the stay.
  // (Check-in alone is a time of day, "check-in opens at 2pm", not a stay.)
  if (mayCountNights(norm) && slotsOf().slots.some((s) => s.kind === 'count' && s.unit === 'night')) keys.add(stem('stay'))
  // Accessors, enumerable like the fields they stand for: a spread or a deep comparison of a
  // reading reads every part.
  return {
    text, norm, tokens, content, keys, compounds,
    get negated() { return (lazy.negated ??= negatedBeside(norm, tokens, (lazy.spans ??= clauseSpans(norm)), slotsOf())) },
    get poles() { return (lazy.poles ??= polesOf(tokens, norm, this.negated)) },
    get entities() { return (lazy.entities ??= entitiesOf(tokens, norm)) },
    get slots() { return slotsOf() },
    get past() { return (lazy.past ??= PAST_MARKERS.test(norm)) },
    get leadingName() { return (lazy.leadingName ??= leadingName(tokens, norm)) },
    get simplePast() { return (lazy.simplePast ??= isSimplePast(norm)) },
    get pastAt() { return (lazy.pastAt ??= pastClauses(norm)) },
    get orders() { return (lazy.orders ??= preferenceOrders(norm)) },
    get present() { return (lazy.present ??= PRESENT_MARKERS.test(norm)) },
    get exclusive() { return (lazy.exclusive ??= exclusiveClauses(tokens, (lazy.spans ??= clauseSpans(norm)))) },
    get universal() { return (lazy.universal ??= UNIVERSAL.test(norm)) },
    get additive() { return (lazy.additive ??= ADDITIVE.test(norm)) },
  }
}

/** What of a reading is read when first asked (readText). */
interface Lazy {
  slots?: Slots
  spans?: Span[]
  negated?: Map<string, string>
  poles?: Reading['poles']
  entities?: Reading['entities']
  past?: boolean
  leadingName?: string[]
  simplePast?: boolean
  pastAt?: (pos: number) => boolean
  orders?: Reading['orders']
  present?: boolean
  exclusive?: Reading['exclusive']
  universal?: boolean
  additive?: boolean
}

/** The negated stems, less the words of a price of nothing. */
function negatedBeside(norm: string, tokens: readonly Token[], spans: readonly Span[], slots: Slots): Map<string, string> {
  const out = negatedStems(norm, tokens, spans)
  // "no shipping fee" is a price of nothing, compared as a value: its words are not negated facts.
  for (const sl of slots.slots) {
    if (sl.kind !== 'money' || sl.amount !== 0) continue
    const at = slots.at.get(sl) ?? -1
    for (const t of tokens) if (t.start >= at && t.end <= at + sl.text.length) out.delete(t.stem)
  }
  return out
}

function isSimplePast(norm: string): boolean {
  return /\b(?:was|were|had|did|worked|lived|studied|spent|\w{3,}ed)\b/i.test(norm) && !/\b(?:is|are|am|has|have|will|now|currently|still|moved|switched|changed|became|joined|upgraded|migrated|rescheduled|postponed|pushed|bumped|reassigned|relocated|renamed|rebooked)\b/i.test(norm)
}

/** Clauses that restrict ("only") and the stems in them. */
function exclusiveClauses(tokens: readonly Token[], spans: readonly Span[]): Array<Set<string>> {
  return spans.filter((c) => EXCLUSIVE.test(c.text) && !ONLY_OPENS_ANSWER.test(c.text)).map((c) => new Set(tokens.filter((t) => t.start >= c.start && t.end <= c.end).map((t) => t.stem)))
}

const ORDER_PATTERNS: readonly RegExp[] = [
  /\bprefer(?:s|red|ring)?\s+(?:the\s+|a\s+|an\s+|to\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:to|over|rather\s+than|instead\s+of)\s+(?:the\s+|a\s+|an\s+)?([\p{L}-]+)/giu,
  /\b(?:would|'d|had)\s+(?:much\s+)?rather\s+(?:have\s+|take\s+|do\s+|use\s+)?(?:the\s+|a\s+|an\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+than\s+(?:take\s+|have\s+|do\s+|use\s+)?(?:the\s+|a\s+|an\s+)?([\p{L}-]+)/giu,
]

/** "prefers X to Y", "would rather X than Y": X above Y, by the stems of their last and first words. */
function preferenceOrders(norm: string): Array<{ better: string; worse: string }> {
  const out: Array<{ better: string; worse: string }> = []
  for (const re of ORDER_PATTERNS) {
    for (const m of norm.matchAll(re)) out.push({ better: stem(m[1]!.toLowerCase().split(/\s+/).at(-1)!), worse: stem(m[2]!.toLowerCase()) })
  }
  return out
}

/**
 * The person or thing a text opens with when it is named in capitals: "Tess Petrov has a birthday
 * in August" opens with "tess petrov". A first word followed by another capitalized word, or by a
 * subject's verb, is a name; "The", "Office" before a verb are not (common words are left out).
 */
function leadingName(tokens: readonly Token[], norm: string): string[] {
  const out: string[] = []
  for (let i = 0; i < tokens.length && out.length < 3; i++) {
    const t = tokens[i]!
    const raw = norm.slice(t.start, t.end)
    const gap = i === 0 ? norm.slice(0, t.start) : norm.slice(tokens[i - 1]!.end, t.start)
    if (!/^\p{Lu}\p{Ll}+$/u.test(raw) || (i > 0 && !/^\s+$/.test(gap)) || (i === 0 && gap.trim() !== '')) break
    if (isStop(t) || GENERIC.has(t.lower) || CLASS_OF.has(t.lower) || isTimeWord(t.lower) || ANTONYMS.has(t.stem)) break
    out.push(t.stem)
  }
  if (out.length === 1 && !initialName(tokens, 0, norm)) return []
  return out
}

/** The past-marked clauses of a text, as a lookup by position. */
function pastClauses(norm: string): (pos: number) => boolean {
  const ranges: Array<readonly [number, number]> = []
  for (const m of norm.matchAll(/[^.;!?,()–]+/g)) if (PAST_MARKERS.test(m[0])) ranges.push([m.index, m.index + m[0].length])
  return (pos) => ranges.some(([s, e]) => pos >= s && pos < e)
}

/** A function word, unless capitalized mid-sentence: "Go" the language is not "go" the verb. */
function isStop(t: Token): boolean {
  return STOPWORDS.has(t.lower) && !t.capital
}

/** Where a negator's reach ends: a preposition opens another phrase ("no pushes | to main"). */
const SCOPE_END = new Set(['to', 'for', 'on', 'in', 'at', 'from', 'with', 'by', 'of', 'into', 'onto', 'about', 'because', 'after', 'before', 'since', 'than', 'when', 'if', 'so', 'and',
  'inside', 'outside', 'within', 'across', 'near', 'under', 'over', 'between', 'through', 'during', 'per', 'via', 'except', 'around', 'beyond', 'behind', 'toward', 'towards', 'until', 'till'])

/**
 * Words after which a retraction word is a noun ("inspired by sunsets", "photos of sunsets"), not a
 * verb. Not determiners: "an outstanding balance" still says what is owed.
 */
const NOUN_AFTER = new Set(['by', 'of', 'with', 'like', 'about', 'beautiful', 'gorgeous', 'lovely', 'stunning'])

/** Nouns whose negation carries over to the verb after "to". */
const ENABLERS = new Set(['permiss', 'access', 'right', 'abil', 'time', 'budget', 'wai', 'plan', 'need', 'intent', 'capac', 'author'].map((x) => x))

interface Span { readonly text: string; readonly start: number; readonly end: number }

function clauseSpans(norm: string): Span[] {
  const out: Span[] = []
  const re = /[^.;!?,()–—]+/g
  // A dash between spaces ends a clause as an en dash does ("not just a hobby - it helps me").
  for (const m of norm.replace(/\s-\s/g, ' – ').matchAll(re)) {
    // "but" and "and" between clauses end a negation's reach as punctuation does.
    let at = 0
    // A condition ("unless cancelled", "if it rains") states nothing about now: it is left out.
    let conditional = false
    for (const part of m[0].split(/(\s(?:but|though|although|instead of|however|unless|if|in case|whether)\s)/i)) {
      const sep = /^\s(but|though|although|instead of|however|unless|if|in case|whether)\s$/i.exec(part)
      if (sep) conditional = /^(?:unless|if|in case|whether)$/i.test(sep[1]!)
      else if (part.trim() && !conditional) out.push({ text: part, start: m.index + at, end: m.index + at + part.length })
      at += part.length
    }
  }
  return out
}

/**
 * A negator governs the next content words of its clause ("no projector", "hasn't paid");
 * a retraction verb governs its whole clause ("Okoye declined our offer", "we dropped iOS 15 support").
 */
function negatedStems(norm: string, tokens: readonly Token[], spans: readonly Span[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const c of spans) {
    const inClause = tokens.filter((t) => t.start >= c.start && t.end <= c.end)
    inClause.forEach((t, i) => {
      const dislike = ANTONYMS.get(t.stem)?.some((p) => p.group === 'preference' && p.pole < 0) === true
      if (NEGATORS.has(t.lower) || dislike) {
        // "don't stop dreaming", "never quit running": a negated stop goes on, so only the stop is negated.
        // "not just chips", "not only Welsh": more than the thing, not its denial (reach-nothing.ts).
        if (!dislike && addsNotDenies(inClause[i + 1])) return
        const first = inClause.slice(i + 1).find((u) => !isStop(u))
        if (!dislike && first && CESSATION.test(first.lower)) {
          if (!out.has(first.stem)) out.set(first.stem, `${t.lower} ${first.lower}`)
          return
        }
        // "didn't know you were doing a PhD": the speaker's knowing is denied, nothing in the world.
        if (!dislike && first && (REALISING_VERBS.has(first.stem) || KNOWING_VERBS.has(first.stem))) {
          const next = inClause[inClause.indexOf(first) + 1]
          if (REALISING_VERBS.has(first.stem) || !next || KNOWN_CLAUSE.test(next.lower)) return
        }
        // "is not saying the NHS is in crisis", "not sure it was locked", "can't remember the trip": a
        // saying, a certainty or a memory is denied, not what it is of (words/negation-scope.ts).
        if (!dislike && first && (SAYING_WORDS.has(first.stem) || REMEMBERING_VERBS.has(first.stem))) {
          if (!out.has(first.stem)) out.set(first.stem, `${t.lower} ${first.lower}`)
          return
        }
        // "does not regret opening his pharmacy", "have not changed their booking", "can't tell a
        // godwit from a sandpiper": the verb takes the negation, and what follows it still holds.
        if (!dislike && first && takesNegation(first, inClause.slice(inClause.indexOf(first) + 1))) {
          if (!out.has(first.stem)) out.set(first.stem, `${t.lower} ${first.lower}`)
          return
        }
        let taken = 0
        for (const [k, u] of inClause.slice(i + 1).entries()) {
          if (taken >= 4) break
          // "allergic to shellfish": the preposition right after a dislike belongs to it.
          // "no permission to close tickets": what one has no permission, access or time for is negated too.
          const prevScoped = inClause[i + k]
          // "no longer at Figma", "not in London": a preposition right after the negator is what it negates.
          if (SCOPE_END.has(u.lower) && k === 0) continue
          if (SCOPE_END.has(u.lower) && !(u.lower === 'to' && prevScoped && ENABLERS.has(prevScoped.stem))) break
          // "doesn't report it as often as his sister does", "not as tall as her brother": "as" after
          // the negated word opens what it is measured against, which is not denied (public30).
          if (u.lower === 'as' && taken > 0) break
          if (isStop(u) || NEGATORS.has(u.lower)) continue
          if (!out.has(u.stem)) out.set(u.stem, `${t.lower} ${u.lower}`)
          taken++
        }
      } else if (RETRACTORS.has(t.stem) && !scheduledEnd(t, inClause, i) && !ongoing(t, inClause, i) && !inClause.slice(Math.max(0, i - 2), i).some((u) => NEGATORS.has(u.lower)) && !(i > 0 && NOUN_AFTER.has(inClause[i - 1]!.lower)) && !noRetraction(inClause, i, isStop) && !reachesNothing(inClause, i, isStop)) {
        // ("inspired by sunsets": after a preposition it is a noun.)
        // ("the sale ends Sunday" schedules an end; "support has ended" retracts.)
        // "did not fail" retracts nothing; "a retiring neighbour", "drops every summer" neither (retraction-use.ts).
        const gone = retracted(inClause, i)
        // "two crossings were cancelled": some occurrences, the thing itself still holds.
        if (countedOccurrences(inClause, gone)) return
        for (const u of gone) if (!out.has(u.stem)) out.set(u.stem, t.lower)
      }
    })
  }
  return out
}

/** A verb that keeps a negation for itself (words/negation-scope.ts): a change; an attitude or aspect before a verb; telling apart. */
function takesNegation(verb: Token, rest: readonly Token[]): boolean {
  if (CHANGE_VERBS.has(verb.stem)) return true
  if (TELLING_APART.has(verb.stem)) return rest.some((u) => u.lower === 'from' || u.lower === 'apart')
  if (!ATTITUDE_VERBS.has(verb.stem)) return false
  const next = rest[0]
  return next !== undefined && (/ing$/.test(next.lower) || (next.lower === 'to' && rest[1] !== undefined && !DETERMINER.test(rest[1].lower)))
}

const CESSATION = /^(?:stop|stops|stopped|stopping|quit|quits|quitting|halt|halts|halted|cease|ceased)$/
const STATE_RETRACTORS = /^(?:unpaid|outstanding|unsigned)$/
const DETERMINER = new RegExp(`^(?:${alternatives(DETERMINER_WORDS)})$`)
/**
 * What a retraction verb at `i` retracts: its direct object, the words right after it up to a
 * stop word ("dropped iOS 15 support", "declined our offer"), or, with none, what stands before it
 * ("the 5pm train is cancelled", "refund request denied"). Who acts is not retracted ("user muted
 * comment notifications" mutes the notifications), nor a phrase after a preposition ("switched off
 * in production after the incident"), nor anything when the word is a noun ("in the end").
 */
function retracted(clause: readonly Token[], i: number): Token[] {
  // "an outstanding balance", "unsigned contract": a state of the whole clause's thing, not an act on an object.
  if (STATE_RETRACTORS.test(clause[i]!.lower)) return clause.filter((u, j) => j !== i && !isStop(u))
  const object: Token[] = []
  let j = i + 1
  while (j < clause.length && DETERMINER.test(clause[j]!.lower)) j++
  for (; j < clause.length && !isStop(clause[j]!) && !SCOPE_END.has(clause[j]!.lower); j++) object.push(clause[j]!)
  if (object.length) return NOT_TAKING_PART.test(clause[i]!.lower) ? [...clause.slice(0, i).filter((u) => !isStop(u)), ...object] : object
  if (i > 0 && DETERMINER.test(clause[i - 1]!.lower) && clause.slice(i + 1).every(isStop)) return []
  // After a determiner and before "of" the word is a noun of what follows "of": "the cancellation
  // of the 5pm train" retracts the train; "at the end of the quarter" retracts no time, and
  // nothing before it ("reported at the end of the year" is no report ended).
  if (i > 0 && DETERMINER.test(clause[i - 1]!.lower) && clause[i + 1]?.lower === 'of') {
    return clause.slice(i + 2).filter((u) => !isStop(u) && !DETERMINER.test(u.lower) && !isTimeWord(u.lower) && !SCOPE_END.has(u.lower))
  }
  // The thing before it, not a phrase after a preposition ("flag X was switched off in production
  // after the incident and is still off": the flag is off, not production).
  // "works late shifts because two nurses are off": after a subordinator the retraction is of its own
  // clause's subject, not of the main clause's (store29, issue 27).
  const from = clause.findLastIndex((u, j) => j < i && SUBORDINATOR.test(u.lower)) + 1
  const prep = clause.findIndex((u, j) => j >= from && j < i && u.lower !== 'and' && SCOPE_END.has(u.lower))
  return clause.slice(from, prep >= 0 ? prep : i).filter((u) => !isStop(u))
}

/** Words that open a clause inside a clause, with a subject of its own. */
const SUBORDINATOR = /^(?:because|while|whereas|although|though|who|which|where)$/

/** "keeps dropping", "is failing over": an ongoing behaviour, not a retraction of the clause. */
function ongoing(t: Token, clause: readonly Token[], i: number): boolean {
  return /ing$/.test(t.lower) && /^(?:keeps?|kept|is|are|was|were|been|still)$/.test(clause[i - 1]?.lower ?? '')
}

/** "ends Sunday", "ends in March": an end with a date is a schedule, not a retraction. */
function scheduledEnd(t: Token, clause: readonly Token[], i: number): boolean {
  if (!/^(?:ends?|ending)$/.test(t.lower)) return false
  return clause.slice(i + 1, i + 4).some((u) => isTimeWord(u.lower) || /^\d/.test(u.lower))
}

function polesOf(tokens: readonly Token[], norm: string, negs: ReadonlyMap<string, string>): Map<string, Array<{ pole: 1 | -1; word: string; end: number }>> {
  const out = new Map<string, Array<{ pole: 1 | -1; word: string; end: number }>>()
  tokens.forEach((t, i) => {
    // "5 km", "3 miles": a unit after a number measures; it states no preference for a system.
    const measured = i > 0 && /^\d/.test(tokens[i - 1]!.lower) && /^\s*$/.test(norm.slice(tokens[i - 1]!.end, t.start))
    for (const p of ANTONYMS.get(t.stem) ?? ANTONYMS.get(t.lower) ?? (predicative(tokens, i, norm) ? WORDNET_POLES.get(t.stem) : undefined) ?? []) {
      if (measured && p.group === 'units') continue
      if (p.group === 'progress' && noProgressState(tokens, i, norm)) continue
      if (p.group === 'preference' && stanceWordAsModifier(tokens, i, norm)) continue
      // A listed word's own forms only: "done" is finished, "did" and "doing" are not (words/poles.ts).
      if (p.forms && !p.forms.has(regularStem(t.lower)) && !p.forms.has(t.lower)) continue
      // "not approved" is on the negative pole; a negator never flips a retraction verb it stands beside.
      // Only a negator flips a pole ("not approved", "did not fail", "without merging"); a
      // retraction verb in the clause is a pole of its own.
      // "not liking spicy food": the negated liking already carries the "not"; flipping "spicy" as
      // well would make the dislike of spicy food a liking of mild food (store29, issue 27).
      const flipped = NEGATORS.has(negs.get(t.stem)?.split(' ')[0] ?? '') && !(p.group !== 'preference' && negatedLiking(tokens.slice(Math.max(0, i - 3), i), negs))
      const pole = (flipped ? -p.pole : p.pole) as 1 | -1
      const list = out.get(p.group) ?? []
      list.push({ pole, word: flipped ? `${negs.get(t.stem)}` : t.lower, end: t.end })
      out.set(p.group, list)
    }
  })
  return out
}

/** Whether a liking negated by a negator stands among `before` ("not liking", "doesn't enjoy"). */
function negatedLiking(before: readonly Token[], negs: ReadonlyMap<string, string>): boolean {
  return before.some((u) => NEGATORS.has(negs.get(u.stem)?.split(' ')[0] ?? '') && ANTONYMS.get(u.stem)?.some((p) => p.group === 'preference' && p.pole > 0) === true)
}

/**
 * Whether a progress word at `i` names no state of progress: "progress" outside "in progress"; an
 * -ing word after a verb of liking, starting or going, a preposition, "like" or a list's comma
 * ("hated running", "activities like running, reading"), or before the object it acts on
 * ("running my own studio"). "The job is still running", "tests running" keep their state.
 */
function noProgressState(tokens: readonly Token[], i: number, norm: string): boolean {
  const t = tokens[i]!
  const prev = tokens[i - 1]
  // "progress" is a state only "in progress"; "my progress", "students progress" are no state.
  if (t.lower === 'progress') return prev?.lower !== 'in'
  if (!/ing$/.test(t.lower)) return false
  const next = tokens[i + 1]
  if (next && DETERMINER.test(next.lower) && /^\s+$/.test(norm.slice(t.end, next.start))) return true
  return !!prev && (ACTIVITY_BEFORE.test(prev.lower) || !!ANTONYMS.get(prev.stem)?.some((p) => p.group === 'preference') || /,\s*$/.test(norm.slice(prev.end, t.start)))
}

/**
 * Whether the adjective at `i` is said of something rather than picking it out: after a linking
 * verb ("is empty", "looks old", "got cold") and not before a noun ("an empty tank").
 */
function predicative(tokens: readonly Token[], i: number, norm: string): boolean {
  const next = tokens[i + 1]
  const ends = !next || /[.,;:!?()–]/.test(norm.slice(tokens[i]!.end, next.start)) || STOPWORDS.has(next.lower) || NEGATORS.has(next.lower) || /^(?:now|again|today|yet|already|anymore|lately|these|currently)$/.test(next.lower)
  let j = i - 1
  while (j >= 0 && /^(?:very|too|so|quite|really|pretty|fairly|rather|completely|totally|fully|still|now|always|never|not|no|longer|more|less|a|bit|little)$/.test(tokens[j]!.lower)) j--
  const linked = j >= 0 && /^(?:is|are|am|was|were|be|been|being|seems?|seemed|looks?|looked|feels?|felt|stays?|stayed|remains?|remained|got|gets|became|becomes|turned|went|runs?|ran|keeps?|kept)$/.test(tokens[j]!.lower)
  return ends && linked
}

/** Verbs that follow a person named as a sentence's subject ("Gustavo is", "Priya manages", "Ali reports"). */
const AFTER_SUBJECT = /^(?:is|was|has|had|will|would|can|could|does|did|should|must|may|might|and|also|now|still|just|never|always)$|^[a-z]{3,}(?:[^s'u]s|ed)$/

/**
 * A capitalized word that starts a sentence says nothing by its capital, but one followed by a
 * subject's verb and used nowhere as a common word ("Gustavo is the on-call engineer") is read as
 * a name, so it can stand against another name.
 */
function initialName(tokens: readonly Token[], i: number, norm: string): boolean {
  const t = tokens[i]!
  const next = tokens[i + 1]
  if (!/^\p{Lu}\p{Ll}+$/u.test(norm.slice(t.start, t.end)) || !next || !/^\s+$/.test(norm.slice(t.end, next.start))) return false
  if (isStop(t) || GENERIC.has(t.lower) || t.lower.length < 3 || ANTONYMS.has(t.stem) || RETRACTORS.has(t.stem) || NEGATORS.has(t.lower)) return false
  // A sentence's start only: mid-sentence capitals are names already.
  const before = norm.slice(0, t.start).trimEnd()
  if (before !== '' && !/[.!?:;(\-–]$/.test(before)) return false
  return AFTER_SUBJECT.test(next.lower) && !/(?:ing|ed)$/.test(t.lower)
}

function entitiesOf(tokens: readonly Token[], norm: string): Reading['entities'] {
  const out: Array<{ stem: string; text: string; cls: string | null; start: number; end: number; guessed?: boolean }> = []
  tokens.forEach((t, i) => {
    const prevTok = tokens[i - 1]
    // "Main St" is a street, not the branch "main": a class word followed by a name is part of the name.
    let cls = CLASS_OF.get(t.lower) ?? CLASS_OF.get(t.lower.replace(/s$/, '')) ?? null
    if (cls === 'weekday') return
    // "16 GB RAM": units after a number are not names.
    if (prevTok && /^\d/.test(prevTok.lower) && /^\s*$/.test(norm.slice(prevTok.end, t.start))) return
    // "Room A" / "Room B": a one-letter label after a noun names one of several.
    // Never the pronoun: "something I'm working on" names no item I (eighth round).
    if (!cls && /^[A-HJ-Z]$/.test(norm.slice(t.start, t.end)) && prevTok && /^\s+$/.test(norm.slice(prevTok.end, t.start)) && !isStop(prevTok)) cls = 'label'
    if (!cls && (!(t.capital || initialName(tokens, i, norm)) || t.identifier || isTimeWord(t.lower) || ZONE_WORDS.test(t.lower) || t.lower.length < 2)) return
    const prev = out.at(-1)
    // "FedEx Ground", "Harbor Inn", "Main St": adjacent names are one name, of the first one's class.
    if (prev && !cls && t.capital && /^\s*$/.test(norm.slice(prev.end, t.start))) {
      out[out.length - 1] = { ...prev, stem: `${prev.stem} ${t.stem}`, text: `${prev.text} ${norm.slice(t.start, t.end)}`, end: t.end }
      return
    }
    cls ??= null
    out.push({ stem: t.stem, text: norm.slice(t.start, t.end), cls, start: t.start, end: t.end, ...(t.capital || cls ? {} : { guessed: true }) })
  })
  return out.map((e) => {
    const next = tokens.find((t) => t.start >= e.end)
    const modifies = !!next && /^\s+$/.test(norm.slice(e.end, next.start)) && !isStop(next) && !NEGATORS.has(next.lower) && (/^\d/.test(next.lower) || !AFTER_SUBJECT.test(next.lower))
    return modifies ? { ...e, modifies } : e
  })
}
