import type { Reading } from '../read/reading.js'
import { hasStem, sameStem } from '../read/same-stem.js'
import { isTimeWord } from '../read/reading.js'
import { STOPWORDS } from '../words/stopwords.js'
import { DEFINITE, QUANTIFIED_DETERMINERS } from '../words/determiners.js'

// What a negated verb is said of (issue 27, external data). "The board does not approve the merger
// terms" and "The board approves the hiring plan" negate and state one verb of two
// objects: two claims that both hold. The negation check compares the verb; this reads the object
// after it on each side. Only when the verb itself is what differs: where the object is negated
// ("doesn't drink coffee" / "drinks espresso"), the checks already compare objects and their kinds;
// and only of two particular things ("the means" / "the aims"): "has never driven a car" denies
// every car, the kids' school run included.

const NEGATOR = /^(?:not|never|no|without|cannot)\s+/
/** Between a verb and its object: prepositions and particles. */
const LINK = /^(?:with|to|about|on|for|in|at|from|of|into|onto|over|up|out|down|off|by)$/
// A determiner, or the clitic "s" of a possessive ("the council's plan"). Only a definite one names
// one particular thing; "a", "any" or none ("never cooked a meal", "never answers emails") deny a
// whole kind, which covers the other side's thing.
const isDeterminer = (w: string): boolean => w === 's' || QUANTIFIED_DETERMINERS.has(w)

/**
 * The two objects of a verb negated on one side and stated on the other, when they differ and
 * neither text names the other's ("means" / "aims", "emails" / "calls"); null otherwise.
 * `phrases` are the reason's two quoted phrases ("not agree", "agrees").
 */
export function otherObjects(phrases: readonly [string, string], a: Reading, b: Reading): [string, string] | null {
  const verb = phrases.map((p) => p.toLowerCase().replace(NEGATOR, '').trim())
  if (verb.some((v) => !/^[a-z]+$/.test(v))) return null
  const [oa, ob] = [objectAfter(a, verb[0]!), objectAfter(b, verb[1]!)]
  if (!oa || !ob || !oa.definite || !ob.definite || !sameStem(oa.verb, ob.verb)) return null
  // Each object has a word the other text never says: "the design team" / "the data team" are two
  // teams, "the project" / "the new project" may be one.
  const own = (x: typeof oa, other: Reading): boolean => x.words.some((w) => !hasStem(other.content, w))
  if (!own(oa, b) || !own(ob, a)) return null
  return [oa.words.join(' '), ob.words.join(' ')]
}

/** The content words of what follows a verb: links, determiners and a possessive skipped, the run of content words after (no adverb in -ly). */
function objectAfter(r: Reading, word: string): { verb: string; words: string[]; definite: boolean } | null {
  const i = r.tokens.findIndex((t) => t.lower === word)
  if (i < 0) return null
  let j = i + 1
  let definite = false
  for (; j < r.tokens.length && (LINK.test(r.tokens[j]!.lower) || isDeterminer(r.tokens[j]!.lower)); j++) {
    if (DEFINITE.has(r.tokens[j]!.lower)) definite = true
  }
  const words: string[] = []
  for (; j < r.tokens.length; j++) {
    const t = r.tokens[j]!
    // A clause ends at punctuation between two words.
    if (words.length && /[,.;:!?]/.test(r.norm.slice(r.tokens[j - 1]!.end, t.start))) break
    // A possessive names one particular thing too ("the council's plan").
    if (t.lower === 's' || /^['’]s$/.test(t.lower)) { definite = true; continue }
    if (STOPWORDS.has(t.lower) || LINK.test(t.lower) || isTimeWord(t.lower) || /\d/.test(t.lower) || /ly$/.test(t.lower) || !r.content.has(t.stem)) break
    words.push(t.stem)
  }
  return words.length ? { verb: r.tokens[i]!.stem, words, definite } : null
}
