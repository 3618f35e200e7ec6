import type { Reading } from '../read/reading.js'
import type { Token } from '../read/text-tokens.js'
import { NUMBER_SRC } from '../read/numbers.js'
import { QUANTIFIED_DETERMINERS } from '../words/determiners.js'

// A reply with no verb (issue 27, session 14, turns40). Chat answers what was just asked in a few
// words that open with the answer ("Six weeks, £300.", "Just north, by the ring road.", "About an
// hour on the tram."): what they measure or name is in a question this store never sees, so a value
// there has no subject to clash on. Verbless sentences were 8 of 24 distinct false flags in the dev
// turns (dev4, dev6, dev7, dev8); read as broadly as that, they also hold notes and orders ("Order
// #5521 shipped UPS", "leave the heating at 19°C", "landlord again: £720 from oct", a labelled
// change), so only the reply shape is taken: a count or a hedge first, a short phrase, no verb marker.

/**
 * Words that make a clause: auxiliaries, modals, copulas, the clitics the tokenizer splits off
 * ("it's" -> "s"), and subject pronouns, whose verb may be one no list holds ("I read on the bus").
 */
const CLAUSE = /^(?:am|is|are|was|were|be|been|being|has|have|had|do|does|did|will|would|shall|should|can|could|may|might|must|s|ll|re|ve|d|m|i|you|he|she|we|they|it|there|u)$/
/** Past and -ing forms: "delivered", "flying". A number word is no verb ("hundred"). */
const VERB_FORM = /^[a-z]{2,}(?:ed|ing)$/
const COUNT = new RegExp(`^${NUMBER_SRC}$`, 'i')
/** Words that open a reply, never an order: "About ten minutes", "Just west", "Only two". */
const REPLY_OPENER = /^(?:about|around|roughly|nearly|almost|just|only|closer)$/
/** Words that end the answer's phrase: what follows says where or when of it. */
const PREPOSITION = /^(?:on|in|at|to|from|by|for|with|of|instead|a)$/

/** Whether the tokens of one sentence read as a reply without a verb (see the file comment). */
export function verbless(tokens: ReadonlyArray<Pick<Token, 'lower' | 'capital' | 'start' | 'end'>>, norm: string): boolean {
  if (tokens.length === 0) return false
  const words = tokens.map((t) => t.lower)
  const isCount = (w: string | undefined): boolean => w !== undefined && (COUNT.test(w) || /^\d/.test(w))
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    if (CLAUSE.test(w)) return false
    // A capital word in -ing is a name ("East Riding"), not a verb.
    if (VERB_FORM.test(w) && !isCount(w) && !tokens[i]!.capital) return false
    // "landlord says": a word in -s after a word that is no number nor determiner may be a verb.
    const prev = words[i - 1]
    if (i > 0 && /[^s'u]s$/.test(w) && !isCount(prev) && !QUANTIFIED_DETERMINERS.has(prev!)) return false
  }
  // A reply opens with its answer ("Ten weeks", "About an hour", "Just west"); a note opens with
  // what it is about ("landlord again: £720 from oct", "dentist Tuesday 3pm") and stays a claim.
  if (!(isCount(words[0]) && !/^\d{4,}$/.test(words[0]!)) && !REPLY_OPENER.test(words[0]!)) return false
  // The answer is a short phrase ("Ten weeks,", "About twenty minutes on"); a longer run before any
  // break is a subject with a verb no list holds ("only 150 people actually came to", "5521 went out").
  const breakAt = tokens.findIndex((t, i) => i > 0 && (PREPOSITION.test(t.lower) || /[,:;–—-]/.test(norm.slice(tokens[i - 1]!.end, t.start))))
  return (breakAt < 0 ? tokens.length : breakAt) <= 3
}

/** The tokens of `r` between a sentence's bounds (the whole text without them). */
export function tokensIn(r: Reading, span?: { start: number; end: number }): Token[] {
  return span ? r.tokens.filter((t) => t.start >= span.start && t.start < span.end) : [...r.tokens]
}

/**
 * Why what differs stands in a reply without a verb on one side, sharing at most one word with the
 * other text, or null. `shared` are the words both texts are about; `spans` are the
 * sentences that hold what differs on each side (confidence.ts finds them).
 */
export function verblessReply(shared: readonly string[], a: Reading, b: Reading, spans: readonly [{ start: number; end: number }, { start: number; end: number }] | null): string | null {
  // A reply that repeats two words of the other text ("around fifty minutes on the ferry to Mull")
  // names what it answers about, and keeps its clash.
  if (!spans || shared.length > 1) return null
  if (!verbless(tokensIn(a, spans[0]), a.norm) && !verbless(tokensIn(b, spans[1]), b.norm)) return null
  return 'a reply without a verb'
}
