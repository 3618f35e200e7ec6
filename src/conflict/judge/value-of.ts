import type { Reading } from '../read/reading.js'
import type { Token } from '../read/text-tokens.js'
import { labelHeadAt } from '../read/labels.js'
import { sameStem } from '../read/same-stem.js'
import { stem } from '../read/stem.js'
import { STOPWORDS } from '../words/stopwords.js'
import type { RawVerdict } from './verdict.js'
import { escapeRe } from '../read/escape-re.js'
import { MEASURE_VERBS } from '../words/event-verbs.js'

/**
 * The attribute reading (issue 27, session 13, rule 29): what a value is OF. Notes about one user
 * share their subject in every line, so two values met by chance ("planted twelve sunflowers" /
 * "dahlias on plot 9", "€210,000 for the farmhouse" / "the €145,000 renovation budget", "night
 * splints" / "evening reminders") look like two answers to one question. A value answers the
 * question of its head noun, read from the shape of its phrase; values of two heads are two
 * answers to two questions. A head that cannot be read proves nothing: the verdict stands.
 */

/** A value's head: what it counts, prices, labels or names a time of day of (a stem), and the word as written. */
interface Attribute {
  readonly kind: 'count' | 'label' | 'price' | 'daypart' | 'daytime'
  readonly head: string
  readonly word: string
  /** Stems of the whole noun phrase ("garlic cloves"): a head read one word too far still meets its thing. */
  readonly phrase: readonly string[]
}

const MONEY = /^[$€£¥]|\b(?:dollars?|euros?|pounds?|bucks|usd|eur|gbp)\b/i
const DAYPART = /^(?:morning|afternoon|evening|night|early|late)s?$/
// Amount words that take their thing from an owner ("the flat's price"), or say none ("the total").
const AMOUNT_WORD = /^(?:price|cost|value|amount|sum|total|fee|figure|bill)s?$/
// Words between a thing and its price: "the range costs about", "a cooker under", "is priced at".
const PRICE_LINK = /^(?:is|was|are|were|be|been|costs?|costing|priced|came|comes|amounted|amounts|totall?ed|totals|ran|runs|at|about|around|roughly|nearly|almost|over|under|below|above|just|only|up|to|of|for|some|approximately|now|still)$/
// A time between a thing and its price says when, not what: "our bill last month was $18,400" is the bill's.
const TIME_LINK = /^(?:last|this|next|per|week(?:end)?|month|year|night|morning|afternoon|evening|today|yesterday|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/
// Beside the stopwords, words that end a noun phrase: "twelve sunflowers along ...", "12 plus the skipper".
const PHRASE_STOP = /^(?:near|along|behind|beside|between|during|inside|outside|past|within|without|up|down|off|out|plus|minus|less|extra|while|because|since|after|before|until)$/

// What may stand between a verb and its time of day: "swims four mornings", "works most nights".
const COUNTING = /^(?:a|two|three|four|five|six|seven|most|some|many|few|several|\d+)$/

const nounLike = (t: Token | undefined): t is Token =>
  !!t && /^\p{L}[\p{L}'-]*$/u.test(t.lower) && !COUNTING.test(t.lower) && t.lower !== 'one' && !STOPWORDS.has(t.lower) && !PHRASE_STOP.test(t.lower) && !/(?:ly|ing)$/.test(t.lower)

/** Tokens of `r` that stand right after one another (only spaces or a hyphen between). */
const adjacent = (r: Reading, x: Token, y: Token): boolean => /^[\s-]*$/.test(r.norm.slice(x.end, y.start))

/** The noun phrase that opens at token `i` (at most three words), its head last: "renovation budget" -> budget. */
function phraseAt(r: Reading, i: number): Token[] {
  const words: Token[] = []
  for (let k = i; k < Math.min(i + 3, r.tokens.length); k++) {
    const t = r.tokens[k]!
    if (!nounLike(t) || (words.length && !adjacent(r, words.at(-1)!, t))) break
    words.push(t)
  }
  return words
}

/**
 * Whether `x` stands right before the amount `y` (session 14, notes40): a currency sign between is
 * part of the amount, so "costs £29" and "at £11 each" read their thing as "costs 29 euros" does.
 */
const beforeAmount = (r: Reading, x: Token, y: Token): boolean => /^\s*[$€£¥]?$/.test(r.norm.slice(x.end, y.start))

/** The words between a price and the thing it is for: "€X for the farmhouse", "dollars for a". */
const FOR_THE = /^\s*(?:dollars?|euros?|pounds?)?\s*for\s+(?:the|a|an|his|her|their|our|my|your)\s+/i
// A name's possessive is a determiner too: "paid £340 for Femi's course" (session 14, notes40).
const FOR_OWNER = /^\s*(?:dollars?|euros?|pounds?)?\s*for\s+\p{Lu}\p{L}+['’]s\s+/u
// A price list names its things bare ("£22 for mugs, £16 for small bowls"): a plural noun (an
// adjective may come first) after "for" is what the price buys (session 14, notes40).
const FOR_BARE = /^\s*(?:dollars?|euros?|pounds?)?\s*for\s+(?=(?:[a-z]+\s+)?[a-z]{3,}s\b)/i

/** Where the thing a price is for starts after it, or null: "for the farmhouse", "for mugs". */
const pricedFor = (after: string): RegExpExecArray | null => FOR_THE.exec(after) ?? FOR_OWNER.exec(after) ?? FOR_BARE.exec(after)

// "Admission to the museum is $18", "a full plot at the society is £70": a noun after a
// preposition is not what the price is of.
const PREPOSITION = /^(?:to|at|of|in|on|for|from|with|by|near|into|onto)$/

/**
 * Whether the noun phrase that ends at token `k` is a preposition's object (a determiner may stand
 * between). Its price is then of the phrase before the preposition, which may be a verb's object
 * ("quote for the roof repair", "quoted ... for the repair"): no thing is read.
 */
function behindPreposition(r: Reading, k: number): boolean {
  let j = k
  while (j > 0 && nounLike(r.tokens[j - 1]) && adjacent(r, r.tokens[j - 1]!, r.tokens[j]!)) j--
  if (/^(?:the|a|an|his|her|their|our|my|your|its)$/.test(r.tokens[j - 1]?.lower ?? '')) j--
  return PREPOSITION.test(r.tokens[j - 1]?.lower ?? '')
}

// Read past a currency sign, a verb stands before most prices ("paid €310,000", "raised €800"):
// the verb says what was done with the money, not what it is the price of.
/** Whether `t` is a verb of money ("paid", "charges") or another past form ("resized"; not "shed", "speed"). */
const paidVerb = (t: Token): boolean => MEASURE_VERBS.has(t.lower) || /^(?:pays|spends?|sold|charges)$/.test(t.lower) || (t.lower.length > 4 && /(?<!e)ed$/.test(t.lower))

/** The thing before a price: "the boiler repair costs €X" -> boiler repair, "the flat's price is €X" -> flat. */
function pricedBefore(r: Reading, i: number): Token[] {
  const linked = (x: Token, y: Token): boolean => adjacent(r, x, y) || (y === r.tokens[i] && beforeAmount(r, x, y))
  let k = i - 1
  while (k >= 0 && (PRICE_LINK.test(r.tokens[k]!.lower) || TIME_LINK.test(r.tokens[k]!.lower)) && linked(r.tokens[k]!, r.tokens[k + 1]!)) k--
  const t = r.tokens[k]
  if (k === i - 1 || !nounLike(t) || !linked(t, r.tokens[k + 1]!) || behindPreposition(r, k) || paidVerb(t)) return []
  if (AMOUNT_WORD.test(t.lower)) {
    // "the flat's price": the owner is the thing priced; a bare "total" says no thing.
    const owner = /([\p{L}-]+)['’]s\s+$/u.exec(r.norm.slice(Math.max(0, t.start - 30), t.start))
    // The reader splits "flat's" into "flat" and "s": the owner is the word, not its "s".
    const who = owner ? r.tokens.slice(Math.max(0, k - 2), k).findLast((w) => w.lower === owner[1]!.toLowerCase()) : undefined
    return who && !STOPWORDS.has(who.lower) ? [who] : []
  }
  const words = [t]
  for (let j = k - 1; j >= Math.max(0, k - 2) && nounLike(r.tokens[j]) && adjacent(r, r.tokens[j]!, words[0]!); j--) words.unshift(r.tokens[j]!)
  return words
}

/** What the value written `text` at `at` in `r` is a value of, or null when the shape does not say. */
export function attributeAt(r: Reading, at: number, text: string): Attribute | null {
  if (at < 0) return null
  const i = r.tokens.findIndex((t) => t.start >= at)
  const last = r.tokens.findLastIndex((t) => t.end <= at + text.length)
  if (i < 0 || last < i) return null
  const of = (kind: Attribute['kind'], ts: readonly Token[] | Token | null): Attribute | null => {
    const words = ts === null ? [] : Array.isArray(ts) ? ts : [ts as Token]
    const t = words.at(-1)
    return t ? { kind, head: t.stem, word: t.lower, phrase: words.map((w) => w.stem) } : null
  }
  if (DAYPART.test(text.toLowerCase())) {
    // "night splints", "early shift": a time of day before a noun names a kind of that noun.
    const next = r.tokens[last + 1]
    if (next && adjacent(r, r.tokens[last]!, next) && nounLike(next)) return of('daypart', phraseAt(r, last + 1))
    // "swims four mornings a week", "works nights": a time of day right after a verb (a count
    // between) is when that action is done.
    let k = i - 1
    while (k >= 0 && COUNTING.test(r.tokens[k]!.lower)) k--
    const verb = r.tokens[k]
    return nounLike(verb) && verb.lower.length > 3 && /^[\s\p{L}-]*$/u.test(r.norm.slice(verb.end, at)) && /s$/.test(verb.lower) ? of('daytime', verb) : null
  }
  if (MONEY.test(text) || /^\s*(?:dollars?|euros?|pounds?)\b/i.test(r.norm.slice(at + text.length))) {
    // "the €145,000 renovation budget", "€210,000 for the farmhouse", "a range under €4,000".
    const after = r.tokens[last + 1]
    // "the €145,000 renovation budget": a bare sum before a noun; "1,600 euros a month last year" has its unit.
    if (after && /\d$/.test(text) && adjacent(r, r.tokens[last]!, after) && nounLike(after) && !/^(?:dollars?|euros?|pounds?)$/.test(after.lower)) return of('price', phraseAt(r, last + 1))
    const role = pricedFor(r.norm.slice(at + text.length))
    if (role) {
      const k = r.tokens.findIndex((t) => t.start >= at + text.length + role[0].length)
      return k >= 0 ? of('price', phraseAt(r, k)) : null
    }
    return of('price', pricedBefore(r, i))
  }
  // "on plot 9", "Plot 9 at ...", ", plot 14": the noun before a label opens its phrase; "earns 85,000" is no label.
  const before = r.tokens[i - 1]
  const opens = !!before && (i < 2 || !nounLike(r.tokens[i - 2]) || !adjacent(r, r.tokens[i - 2]!, before))
  const label = opens ? labelHeadAt(r.norm, at) : null
  if (label) return { kind: 'label', head: stem(label), word: label, phrase: [stem(label)] }
  // "twelve sunflowers", "twenty-four garlic cloves": a number before a noun counts it.
  const next = r.tokens[last + 1]
  return next && adjacent(r, r.tokens[last]!, next) && nounLike(next) ? of('count', phraseAt(r, last + 1)) : null
}

// Reasons of a clash between two values: "different money", "different number of X", "different
// plot number", "different daypart", "opposite time-of-day".
const VALUE_CLASH = /^(?:different (?:money|number|number of [\w-]+|[\w-]+ number|daypart)|opposite time-of-day): "([^"]+)" vs "([^"]+)"/

/**
 * Why the two clashing values are values of two things, or null: two heads that are not one word
 * inflected or folded (a count of sunflowers, a plot's label), a count against a label, or two
 * labels of one noun where one text names both ("Harold, on plot 10, will water plot 9": two plots).
 */
export function valuesOfTwo(raw: RawVerdict, a: Reading, b: Reading): string | null {
  const m = VALUE_CLASH.exec(raw.reason)
  if (!m) return null
  const where = (r: Reading, k: 0 | 1): number => locate(r, m[k + 1]!, raw.signal?.names?.[k]?.start ?? raw.signal?.at?.[k] ?? -1)
  const [va, vb] = [attributeAt(a, where(a, 0), m[1]!), attributeAt(b, where(b, 1), m[2]!)]
  if (!va || !vb) return null
  if (va.kind !== vb.kind) {
    // A time of a noun against a time of an action ("night shift" / "works mornings") may be one answer.
    if (va.kind !== 'label' && vb.kind !== 'label') return null
    return `a ${va.kind} of "${va.word}" against a ${vb.kind} of "${vb.word}": two things`
  }
  // Two counts of two nouns may be one answer in other words ("two daughters" / "three children"):
  // kept as they were; a count against a label is read above.
  if (va.kind === 'count') return null
  const meets = (x: Attribute, y: Attribute): boolean => x.phrase.some((w) => sameStem(w, y.head))
  if (!meets(va, vb) && !meets(vb, va)) return `values of two things ("${va.word}" / "${vb.word}")`
  if (va.kind === 'label' && (names(a, va.word, m[2]!) || names(b, vb.word, m[1]!))) return `two ${va.word}s named ("${m[1]}", "${m[2]}")`
  return null
}

// A value ends at a word's end; a full stop after it ends the sentence, not the number ("plot 9.").
const END = String.raw`(?!\w|[.,]\d)`

/** Where `text` stands in `r.norm`: `known` when the reader said, else its last whole-word occurrence, or -1. */
export function locate(r: Reading, text: string, known: number): number {
  if (known >= 0) return known
  return [...r.norm.matchAll(new RegExp(`(?<![\\w.])${escapeRe(text)}${END}`, 'gi'))].at(-1)?.index ?? -1
}

/** Whether `r` also names `noun value` ("plot 9"). */
function names(r: Reading, noun: string, value: string): boolean {
  return new RegExp(`\\b${escapeRe(noun)}s?\\s+(?:number\\s+|no\\.?\\s*)?#?${escapeRe(value)}${END}`, 'i').test(r.norm)
}
