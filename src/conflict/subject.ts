import type { Reading } from './reading.js'
import { stem } from './lexicon.js'
import { hasStem } from './same-stem.js'

/**
 * Where a text names what it is about: the words before its first verb ("tom | has no food
 * allergies", "Pricing review | Wed 3pm ET", "sarah's manager | is Omar"). Two texts are about one
 * subject when a key entity they share stands in the subject of at least one of them ("Kim lives in
 * Toronto" / "Kim moved to Vancouver"; "Room 4B has a projector" / "4B has no projector"). Two texts
 * that share a word only in what they say of two subjects ("tom has no food allergies" / "Hiro
 * loves spicy food", "Ines knows k8s" / "piotr's never touched k8s") are about two.
 *
 * Without a parser the subject is found by its end: the first auxiliary, modal, negator or
 * adverb that opens a predicate, or a verb form after the first word. A text that opens with a
 * verb (an instruction), a pronoun or a first person has no subject of its own here, and the gate
 * leaves it alone.
 */

// Words that open a predicate.
const PREDICATE = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'am', 'has', 'have', 'had', 'can', 'cannot', 'could', 'will', 'would', 'should', 'must', 'may',
  'might', 'shall', 'do', 'does', 'did', 'not', 'never', 'no', 'always', 'only', 'just', 'still', 'also', 'now', 'already', 'usually', 'often',
  'rarely', 'sometimes', 'really', 'finally', 'recently', 'currently', 'actually', 'went', 'got', 'gets', 'get', 'says', 'said', 'wants',
  'likes', 'loves', 'hates', 'prefers', 'needs', 'knows', 'uses', 'runs', 'goes', 'comes', 'came', 'made', 'makes', 'took', 'takes', 'gave',
  'gives', 'left', 'leaves', 'found', 'finds', 'felt', 'feels', 'thinks', 'thought', 'told', 'tells', 'keeps', 'kept', 'saw', 'sees', 'won',
  'lost', 'ran', 'met', 'meets', 'starts', 'ends', 'opens', 'closes', 'lives', 'works', 'moved', 'moves', 'speaks', 'reports', 'ships',
  'departs', 'arrives', 'lands', 'costs', 'owns', 'enjoys', 'attended', 'attends', 'started', 'ended', 'joined', 'plays', 'played',
  'wrote', 'writes', 'read', 'reads', 'bought', 'buys', 'sold', 'sells', 'built', 'builds', 'painted', 'paints', 'visited', 'visits', 'to',
  'at', 'on', 'in', 'for', 'from', 'by', 'with', 'via', '=', ':',
])
// Openers that are no subject of their own: pronouns, first and second person, "there", a determiner alone.
const NO_SUBJECT = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'it', 'this', 'that', 'these', 'those', 'there', 'here', 'me', 'us', 'one', 'someone', 'everyone', 'anyone', 'nobody', 'everybody'])
const DETERMINERS = new Set(['the', 'a', 'an', 'our', 'my', 'your', 'their', 'his', 'her', 'its', 'this', 'that', 'these', 'those', 'some', 'every', 'each', 'all', 'both', 'new', 'current'])
const FIRST_PERSON = new Set(['i', 'we', 'my', 'our', 'me', 'us'])
// Verb forms by their ending, after the first word: "Caroline attended", "standup starts".
const VERB_FORM = /^(?:[a-z]{3,}(?:ed|es)|[a-z]*[^s]s)$/

/** Stems of the words before the text's first predicate; null when it opens with no subject of its own. */
export function subjectStems(r: Reading, speaker?: string | null): ReadonlySet<string> | null {
  const out = new Set<string>()
  const tokens = r.tokens
  let i = 0
  while (i < tokens.length && DETERMINERS.has(tokens[i]!.lower)) i++
  const first = tokens[i]
  // A chat turn's "I" is its speaker ("Melanie: I'm off to go swimming").
  if (first && speaker && FIRST_PERSON.has(first.lower)) return new Set(speaker.toLowerCase().split(/\s+/).map(stem))
  if (!first || NO_SUBJECT.has(first.lower) || PREDICATE.has(first.lower)) return null
  for (let n = 0; i < tokens.length && n < 6; i++, n++) {
    const t = tokens[i]!
    // Sentence punctuation or a clause break ends the subject.
    if (n > 0 && /[,;:.!?(–—-]\s*$/.test(r.norm.slice(tokens[i - 1]!.end, t.start))) break
    if (PREDICATE.has(t.lower) && n > 0) break
    if (n > 0 && !t.capital && !t.identifier && VERB_FORM.test(t.lower) && !/ss$/.test(t.lower)) {
      // A plural noun can end the same way ("sales numbers are"): the next word decides.
      const next = tokens[i + 1]
      if (!next || !PREDICATE.has(next.lower)) break
    }
    out.add(t.stem)
    // "sarah's manager": the possessor is the subject's owner, both stand for it.
  }
  return out.size ? out : null
}

/**
 * Whether two texts name two different subjects: each has one of its own, and no key entity they
 * share stands in either. Null when they may be about one; else a reason for a person.
 */
export function twoSubjects(a: Reading, b: Reading, shared: readonly string[], speakers: readonly [string | null, string | null] = [null, null]): string | null {
  const [sa, sb] = [subjectStems(a, speakers[0]), subjectStems(b, speakers[1])]
  if (!sa || !sb || shared.length === 0) return null
  if (shared.some((k) => hasStem(sa, k) || hasStem(sb, k))) return null
  if ([...sa].some((s) => sb.has(s))) return null
  const words = (r: Reading, s: ReadonlySet<string>): string => r.tokens.filter((t) => s.has(t.stem)).map((t) => t.lower).join(' ') || [...s].join(' ')
  return `two subjects: "${words(a, sa)}" vs "${words(b, sb)}"`
}
