import { isTimeWord, type Reading } from '../read/reading.js'
import type { Token } from '../read/text-tokens.js'
import { TAKES_PART } from '../words/retractions.js'

/**
 * What a negation or a retraction is of, against what the other text states (issue 27, session
 * 12, reach32). The negation check matches a negated word with the same word on the other side;
 * these say when the two words are not one claim: the cue's only target is a name, the thing
 * retracted is another thing that word only describes, or the word stands inside a longer name.
 */

/** Working, or taking part, said of someone: what retracting a person (retiring, resigning) is against. */
const WORKS = /\bwork(?:s|ed|ing)?\s+(?:as|at|for|in|on)\b|\bemployed\b/i

/**
 * Whether `t` of `x` names a person or an animal: a name one of the texts opens with as its
 * subject ("Nancy has been retired", `Reading.leadingName`), capitalized in both texts, or a capitalized word (here or on the
 * other side) after "named" or "called" ("a cow named Nancy"). Products and places ("not Notion", "blocks Zoom") are
 * things a claim can be about, and stay.
 */
function isPersonName(x: Reading, t: Token, y: Reading): boolean {
  // A name is written with its capital wherever it stands: "Jazz is his favourite" / "hates jazz" is no name.
  const always = [x, y].every((r) => r.tokens.every((u) => u.stem !== t.stem || /^\p{Lu}/u.test(r.norm.slice(u.start, u.end))))
  if (always && (x.leadingName.includes(t.stem) || y.leadingName.includes(t.stem))) return true
  if (!t.capital && !y.tokens.some((u) => u.stem === t.stem && u.capital)) return false
  const named = new RegExp(`\\b(?:named|called)\\s+${t.lower.replace(/[^\p{L}\p{N}]/gu, '')}\\b`, 'iu')
  return named.test(x.norm) || named.test(y.norm)
}

/**
 * "Nancy has been retired to the paddock", "not Tom": every word the cue reaches is a name. A name
 * is no claim, so the other text mentioning the one named says nothing the cue denies, unless it
 * says the one named works or takes part ("Harriet retired" / "Harriet works as a nurse") or
 * shares another word with the text ("dropped from the team" / "plays for the team").
 */
export function onlyNameTargeted(x: Reading, cue: string, y: Reading): boolean {
  // A negator's cue carries the word it reaches ("not tom"); a retraction's is the word alone.
  const word = cue.split(' ')[0]
  const reached = [...x.negated].filter(([, c]) => c.split(' ')[0] === word).map(([s]) => s)
  if (reached.length === 0) return false
  const names = reached.every((s) => {
    const t = x.tokens.find((u) => u.stem === s)
    return t !== undefined && isPersonName(x, t, y)
  })
  // "Tom was dropped from the team" / "Tom plays for the team": the two share what the name was retracted from.
  const more = [...x.content].some((s) => !reached.includes(s) && y.content.has(s) && !x.negated.has(s) && s !== x.tokens.find((t) => t.lower === word)?.stem)
  return names && !more && !TAKES_PART.test(y.norm) && !WORKS.test(y.norm)
}

const AUX = /^(?:is|are|was|were|be|been|being|has|have|had|got|gets|get|will|would|may|might|should|must|not)$/
const PREP = /^(?:to|from|in|at|on|for|of|with|near|by|about|since|after|before|during)$/

/**
 * The thing a retraction after its noun phrase retracts: the phrase's head, its last word before
 * any preposition ("the depot open day was cancelled" cancels the day; "Birgit's flight to Vienna
 * was cancelled" the flight). Null when the retraction word opens its clause or nothing precedes it.
 */
export function retractedHead(x: Reading, head: Token): Token | null {
  const clauseStart = Math.max(...[...x.norm.slice(0, head.start).matchAll(/[.;!?,()–]|\s(?:and|but|so)\s/g)].map((m) => m.index + m[0].length), 0)
  const phrase = x.tokens.filter((t) => t.start >= clauseStart && t.start < head.start)
  let end = phrase.length
  while (end > 0 && AUX.test(phrase[end - 1]!.lower)) end--
  const prep = phrase.findIndex((t, j) => j < end && j > 0 && PREP.test(t.lower))
  const last = prep > 0 ? prep : end
  // A time word can be the head ("the open day"), though it is no content word.
  const noun = phrase.slice(0, last).reverse().find((t) => (x.content.has(t.stem) || isTimeWord(t.lower)) && !/^\d/.test(t.lower))
  return noun ?? null
}

/**
 * A retracted word that only says whose or which thing was retracted, against a text that does not
 * name that thing: the retracted phrase's head is another word (`retractedHead`), and the word is
 * its owner here ("Birgit's flight was cancelled" / "Birgit prefers paper books") or, on the other
 * side, the modifier of another noun ("the depot open day was cancelled" / "the depot gate"). A
 * head the other side writes short, long or as a verb ("eye op" / "eye operation", "service" /
 * "serves") is named.
 */
export function describesOther(x: Reading, tx: Token, head: Token, y: Reading, ty: Token): boolean {
  const noun = retractedHead(x, head)
  if (!noun || noun === tx) return false
  // One stem the start of the other: "op" / "operation", "service" / "serves".
  const named = (u: Token): boolean => Math.min(u.stem.length, noun.stem.length) >= 2 && (u.stem.startsWith(noun.stem) || noun.stem.startsWith(u.stem))
  if (y.tokens.some(named)) return false
  const after = x.tokens[x.tokens.indexOf(tx) + 1]
  const owner = after?.lower === 's' && /^['’]$/.test(x.norm.slice(tx.end, after.start))
  const next = y.tokens[y.tokens.indexOf(ty) + 1]
  const modifies = !!next && /^\s+$/.test(y.norm.slice(ty.end, next.start)) && y.content.has(next.stem) && !/(?:ed|ing)$/.test(next.lower)
  return owner || modifies
}

/**
 * The name of several capitalized words a token stands in ("New Year's Eve"), as its stems joined,
 * or '' for a lone word. A possessive "'s" inside the name is passed over; a sentence's first word
 * joins when the word after it is capitalized ("New Year's Eve is ...").
 */
function nameRun(r: Reading, t: Token): string {
  const toks = r.tokens
  const gap = (u: Token, v: Token): string => r.norm.slice(u.end, v.start)
  const upper = (u: Token): boolean => /^\p{Lu}/u.test(r.norm.slice(u.start, u.end))
  // Tokenen j continues the run from token j - 1 (or over an "'s" at j - 1).
  const joins = (j: number): number => {
    const [p, u] = [toks[j - 1], toks[j]]
    if (!p || !u || !u.capital) return 0
    if (/^\s+$/.test(gap(p, u)) && (p.capital || (upper(p) && (j - 1 === 0 || /[.!?:;]\s*$/.test(r.norm.slice(0, p.start)))))) return 1
    const q = toks[j - 2]
    if (p.lower === 's' && q?.capital && /^['’]$/.test(gap(q, p)) && /^\s+$/.test(gap(p, u))) return 2
    return 0
  }
  let s = toks.indexOf(t)
  if (s < 0 || !upper(t)) return ''
  let e = s
  for (let k = joins(s); k > 0; k = joins(s)) s -= k
  for (;;) {
    if (joins(e + 1) === 1) e += 1
    else if (joins(e + 2) === 2) e += 2
    else break
  }
  if (s === e) return ''
  return toks.slice(s, e + 1).filter((u) => u.lower !== 's').map((u) => u.stem).join(' ')
}

/**
 * "not on New Year's Eve" / "visiting for New Year": the negated word stands inside a name of
 * several words that the other side does not write whole, so the two name two things.
 */
export function insideLongerName(x: Reading, tx: Token, y: Reading, ty: Token): boolean {
  const [nx, ny] = [nameRun(x, tx), nameRun(y, ty)]
  // Only a longer name on the negated side: "SA Associate" / "AWS SA Associate" name one exam.
  return nx !== '' && nx.split(' ').length > (ny === '' ? 1 : ny.split(' ').length) && ` ${nx} `.includes(` ${ny || ty.stem} `)
}
