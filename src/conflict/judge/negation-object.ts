import type { Reading } from '../read/reading.js'
import type { Token } from '../read/text-tokens.js'
import { hasStem } from '../read/same-stem.js'

/**
 * Negations that reach another object than the one the other text states (issue 27, session 13,
 * neg36, rule 31). Each reads the shape of the negation's scope: the clause it sits in, the object
 * it takes and that object's modifiers, a bound after it. One function a rule, so each can be
 * switched off alone.
 */

/** The clause before `head`, back to the last mark that ends one. */
function clauseBefore(x: Reading, head: Token): Token[] {
  const start = Math.max(...[...x.norm.slice(0, head.start).matchAll(/[.;!?,()–]/g)].map((m) => m.index + 1), 0)
  return x.tokens.filter((t) => t.start >= start && t.start < head.start)
}

/** Words that open a clause saying when or on what condition the main one holds. */
const RESTRICTOR = /^(?:when|whenever|unless|except|if)$/
/** A time noun with a subject of its own after it: "on the days she ...", "nights when he ...". */
const TIME_NOUN = /^(?:days?|nights?|mornings?|evenings?|weeks?|weekends?|times?|occasions?)$/
const SUBJECT = /^(?:i|you|he|she|we|they|when|that)$/

/**
 * "takes folic acid on the days she does not take methotrexate", "reads when he isn't working": a
 * negation inside a clause that restricts when the main claim holds says nothing of the main claim.
 * Negators only: a retraction in such a clause ("when the train was cancelled") still tells it.
 */
export function negatedInRestriction(x: Reading, head: Token): boolean {
  const before = clauseBefore(x, head)
  const opens = before.findLastIndex((t, j) => RESTRICTOR.test(t.lower) || (TIME_NOUN.test(t.lower) && SUBJECT.test(before[j + 1]?.lower ?? '')))
  // The negator is the restricting clause's own: only its subject and auxiliaries stand between
  // ("when he is not", "the days she does not"). "when you were challenged on that question you said
  // you would not" has a main clause of its own in between (ProSeCCo dev, row 34).
  const between = before.slice(opens + 1)
  return opens >= 0 && between.length <= 3 && between.every((t) => CLAUSE_OPENING.test(t.lower) || t.capital)
}

/** A subject pronoun, a relative word or an auxiliary: what may open a clause before its negator. */
const CLAUSE_OPENING = /^(?:i|you|he|she|it|we|they|that|when|which|the|is|are|was|were|am|do|does|did|has|have|had|can|could|will|would|should|may|might|must)$/

const PREP = /^(?:at|in|on|for|from|with|of|to)$/

/**
 * The preposition after the noun `t` (over up to two more words of a compound: "parking permit for")
 * and the content words of its phrase (up to three), or null.
 */
function phraseAfter(r: Reading, t: Token): { prep: string; words: Token[] } | null {
  let i = r.tokens.indexOf(t)
  for (let k = 0; k < 2 && r.content.has(r.tokens[i + 1]?.stem ?? '') && /^\s+$/.test(r.norm.slice(r.tokens[i]!.end, r.tokens[i + 1]!.start)); k++) i++
  const p = r.tokens[i + 1]
  if (!p || !PREP.test(p.lower)) return null
  // The phrase's own words: past up to two words before them ("the", "his"), then a run of content
  // words; a verb after it ("to Leith was cancelled") is the clause's, not the phrase's.
  let j = i + 2
  while (j < i + 4 && r.tokens[j] && !r.content.has(r.tokens[j]!.stem)) j++
  const words: Token[] = []
  for (; words.length < 3 && r.tokens[j] && r.content.has(r.tokens[j]!.stem) && !PREP.test(r.tokens[j]!.lower); j++) words.push(r.tokens[j]!)
  return words.length ? { prep: p.lower, words } : null
}

/**
 * "did not get a place at Lupton halls" / "his place at Leeds is confirmed": the same noun, each
 * with its own phrase after one preposition, and each phrase with a word the other text lacks: two
 * things. "a job at Halden Bank" / "a job at the Halden library" are two; "a room at Leeds" / "a
 * room at Leeds University" one, which may be told short.
 */
export function otherModifier(x: Reading, tx: Token, y: Reading, ty: Token): boolean {
  const [mx, my] = [phraseAfter(x, tx), phraseAfter(y, ty)]
  return !!mx && !!my && mx.prep === my.prep && mx.words.some((u) => !hasStem(y.content, u.stem)) && my.words.some((u) => !hasStem(x.content, u.stem))
}

const BOUND = /^(?:before|until|till)$/

/**
 * "had never spoken French before starting lessons" / "takes French lessons": a negation bounded
 * by "before" or "until" tells a past state that ended at the bound, and the other text names what
 * came at the bound, so it tells the state after it.
 */
export function boundedBefore(x: Reading, head: Token, s: string, y: Reading): boolean {
  const rest = x.tokens.slice(x.tokens.indexOf(head) + 1)
  const end = rest.findIndex((t) => /[.;!?]/.test(x.norm.slice(t.end, t.end + 1)))
  const clause = end < 0 ? rest : rest.slice(0, end + 1)
  const b = clause.findIndex((t) => BOUND.test(t.lower))
  return b >= 0 && clause.slice(b + 1).some((t) => t.stem !== s && x.content.has(t.stem) && hasStem(y.content, t.stem))
}
