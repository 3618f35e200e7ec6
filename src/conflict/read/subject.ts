import { NOUN_ALIASES, type Reading } from './reading.js'
import { STOPWORDS } from '../words/stopwords.js'
import { QUANTIFIED_DETERMINERS } from '../words/determiners.js'
import { GENERAL_NOUNS } from '../words/classes.js'
import { stem } from './stem.js'
import { hasStem, sameStem } from './same-stem.js'
import { IRREGULAR } from '../../core/irregular.js'

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
  'at', 'on', 'in', 'for', 'from', 'by', 'with', 'via', 'after', 'before', 'during', 'since', 'until', 'into', '=', ':',
  // Irregular pasts of change, which no ending shows ("Revenue grew", "the rate fell").
  'grew', 'shrank', 'rose', 'fell', 'sank', 'became', 'began',
])
const AUX = new Set(['is', 'are', 'was', 'were', 'have', 'has', 'had', 'can', 'cannot', 'will', 'would', 'should', 'must', 'may', 'might', 'do', 'does', 'did', 'not', 'never'])
// Openers that are no subject of their own: pronouns, first and second person, "there", a determiner alone.
const NO_SUBJECT = new Set(['i', 'we', 'you', 'he', 'she', 'they', 'it', 'this', 'that', 'these', 'those', 'there', 'here', 'me', 'us', 'one', 'someone', 'everyone', 'anyone', 'nobody', 'everybody'])
const FIRST_PERSON = new Set(['i', 'we', 'my', 'our', 'me', 'us'])
// Verb forms by their ending, after the first word: "Caroline attended", "standup starts".
const VERB_FORM = /^(?:[a-z]{3,}(?:ed|es)|[a-z]*[^s]s)$/

// Prepositions of place: they end a subject ("near" and "behind" are no predicate word) and open a place after its noun.
const PLACE = /^(?:on|in|at|by|near|behind|over|under|beside|outside|inside)$/

/** The simple pasts of the irregular verbs (core/irregular.ts): not its nouns, not its participles in -n ("broken"). */
export const IRREGULAR_PAST = new RegExp(`^(?:${Object.entries(IRREGULAR).filter(([f, l]) => !/^(?:child|person|man|woman|foot|tooth|mouse|goose|be|have|do)$/.test(l) && !/n$|ne$/.test(f) && f !== l + 's').map(([f]) => f).join('|')})$`)

/** A word that is no noun of a subject: a predicate word, a determiner, a pronoun, a number. */
const isFunction = (t: { lower: string }): boolean => PREDICATE.has(t.lower) || STOPWORDS.has(t.lower) || QUANTIFIED_DETERMINERS.has(t.lower) || NO_SUBJECT.has(t.lower) || /^\d/.test(t.lower)

/** Stems of the words before the text's first predicate; null when it opens with no subject of its own. */
export function subjectStems(r: Reading, speaker?: string | null): ReadonlySet<string> | null {
  return subjectTokens(r, speaker)?.stems ?? null
}

/** The subject's tokens, in order (empty for a speaker's "I"), and their stems. */
function subjectTokens(r: Reading, speaker?: string | null): { tokens: Reading['tokens']; stems: ReadonlySet<string>; place?: string[] } | null {
  const out = new Set<string>()
  const zone: Array<Reading['tokens'][number]> = []
  const tokens = r.tokens
  let i = 0
  while (i < tokens.length && QUANTIFIED_DETERMINERS.has(tokens[i]!.lower)) i++
  const first = tokens[i]
  // A chat turn's "I" is its speaker ("Melanie: I'm off to go swimming").
  if (first && speaker && FIRST_PERSON.has(first.lower)) return { tokens: [], stems: new Set(speaker.toLowerCase().split(/\s+/).map(stem)) }
  // "booked 2 nights ...", "checking in on the 4th": a text that opens with a verb names no subject.
  // ... but an -ing word before a noun names a kind of thing ("Pricing review Wed 3pm", "meeting notes go in Notion").
  const nounAfter = (k: number): boolean => {
    const n = tokens[k + 1]
    return !!n && !isFunction(n) && /^\s+$/.test(r.norm.slice(tokens[k]!.end, n.start))
  }
  if (!first || NO_SUBJECT.has(first.lower) || PREDICATE.has(first.lower) || (!first.capital && /^[a-z]{3,}ed$/.test(first.lower)) || (!first.capital && /^[a-z]{3,}ing$/.test(first.lower) && !nounAfter(i))) return null
  for (let n = 0; i < tokens.length && n < 6; i++, n++) {
    const t = tokens[i]!
    // Sentence punctuation or a clause break ends the subject.
    if (n > 0 && /[,;:.!?(–—-]\s*$/.test(r.norm.slice(tokens[i - 1]!.end, t.start))) break
    if ((PREDICATE.has(t.lower) || PLACE.test(t.lower)) && n > 0) break
    // A past form ends the subject ("the hit rate increased after ..."), unless an auxiliary
    // follows it ("the item requested is out of stock"); only a plural noun shares an -s verb's ending.
    if (n > 0 && !t.capital && !t.identifier && /^[a-z]{3,}ed$/.test(t.lower) && !AUX.has(tokens[i + 1]?.lower ?? '')) break
    // So does an irregular simple past ("Pilar drove the rental", "Jordan flew in"; ninth round).
    if (n > 0 && !t.capital && IRREGULAR_PAST.test(t.lower)) break
    if (n > 0 && !t.capital && !t.identifier && VERB_FORM.test(t.lower) && !/ss$/.test(t.lower)) {
      // A plural noun can end the same way ("sales numbers are"): the next word decides.
      // A plural noun can end the same way ("sales numbers are", "retro notes go in", "Q2 earnings
      // release Jul 24"): a verb or a noun right after it decides.
      const next = tokens[i + 1]
      if (!next || !(AUX.has(next.lower) || (!isFunction(next) && !next.capital && /^\s+$/.test(r.norm.slice(t.end, next.start)) && !/(?:ed|s)$/.test(next.lower)))) break
    }
    out.add(t.stem)
    zone.push(t)
  }
  return out.size ? { tokens: zone, stems: out, place: placeAfter(r, i) } : null
}

/**
 * A place right after the subject's noun, closed by its predicate: "the printer | on floor 2 | is
 * out of toner", "the coffee machine | in the kitchen | works" (ninth round). Its words, or none.
 */
function placeAfter(r: Reading, i: number): string[] | undefined {
  const t = r.tokens
  const out: string[] = []
  if (!PLACE.test(t[i]?.lower ?? '')) return
  for (let k = i + 1; k < i + 6 && t[k]; k++) {
    const w = t[k]!.lower
    if (/[,;:.!?(–—-]/.test(r.norm.slice(t[k - 1]!.end, t[k]!.start))) return
    if (out.length && (AUX.has(w) || (PREDICATE.has(w) && !STOPWORDS.has(w)) || (!t[k]!.capital && VERB_FORM.test(w) && !/ss$/.test(w)))) return out
    if (out.length || !QUANTIFIED_DETERMINERS.has(w)) out.push(w)
  }
}

/**
 * Whether two texts name two different subjects: each has one of its own, no key entity they
 * share stands in either, and the two subjects have no word in common. Null when they may be about one; else a reason for a person.
 */
export function twoSubjects(a: Reading, b: Reading, shared: readonly string[], speakers: readonly [string | null, string | null] = [null, null]): string | null {
  const [za, zb] = [subjectTokens(a, speakers[0]), subjectTokens(b, speakers[1])]
  if (!za || !zb || shared.length === 0) return null
  const [sa, sb] = [za.stems, zb.stems]
  // One noun with another word before it on each side: "Pricing review" / "roadmap review",
  // "Q2 earnings release" / "v2.3 release date".
  // The noun may have its second everyday name on one side ("the Porto apartment" / "the Lisbon flat").
  const alias = (x: string): string => NOUN_ALIASES.get(x) ?? x
  for (const [i, t] of za.tokens.entries()) {
    const j = zb.tokens.findIndex((u) => sameStem(u.stem, t.stem) || sameStem(alias(u.stem), alias(t.stem)))
    // Only a noun has modifiers: "twice a day" / "once a day" share "a", no thing (ninth round).
    if (i === 0 || j <= 0 || QUANTIFIED_DETERMINERS.has(t.lower)) continue
    const [ma, mb] = [za.tokens[i - 1]!, zb.tokens[j - 1]!]
    if (!sameStem(ma.stem, mb.stem) && !hasStem(b.content, ma.stem) && !hasStem(a.content, mb.stem) && !b.tokens.some((x) => x.lower === ma.lower) && !a.tokens.some((x) => x.lower === mb.lower)) {
      return `two subjects: "${ma.lower} ${t.lower}" vs "${mb.lower} ${zb.tokens[j]!.lower}"`
    }
  }
  // One noun, each in a place of its own: "the printer on floor 2" / "the printer in the lobby".
  const [pa, pb] = [za.place, zb.place]
  const own = (p: string[], r: Reading): boolean => p.some((w) => !r.tokens.some((x) => x.lower === w))
  if (pa && pb && sameStem(za.tokens.at(-1)!.stem, zb.tokens.at(-1)!.stem) && own(pa, b) && own(pb, a)) {
    return `two subjects: "${za.tokens.at(-1)!.lower} ${pa.join(' ')}" vs "${zb.tokens.at(-1)!.lower} ${pb.join(' ')}"`
  }
  const owned = ownedThings(a, za.tokens, b, zb.tokens)
  if (owned) return owned
  if (shared.some((k) => hasStem(sa, k) || hasStem(sb, k))) return null
  if ([...sa].some((s) => hasStem(sb, s))) return null
  const words = (r: Reading, s: ReadonlySet<string>): string => r.tokens.filter((t) => s.has(t.stem)).map((t) => t.lower).join(' ') || [...s].join(' ')
  return `two subjects: "${words(a, sa)}" vs "${words(b, sb)}"`
}

/** How `twoSubjects` names the reading of two things of one owner, so the frame does not count the owner twice. */
export const OWNER_READING = 'two subjects of one owner'

/**
 * Two things of one owner: "Ben's commute | is 40 minutes" / "Ben's lunch break | is 30 minutes",
 * "John's cat | is named Whiskers" / "John's dog | is named Rex". A possessive names whose, the noun
 * after it which thing (seventh round): when both subjects open with the same owner and go on to
 * nouns that share no word, and neither text names the other's thing anywhere, the texts say
 * things of two of the owner's things. Null otherwise (one noun, "Maya's appointment" / "Maya's
 * dentist appointment", or a text that names both).
 */
function ownedThings(a: Reading, za: Reading['tokens'], b: Reading, zb: Reading['tokens']): string | null {
  const head = (r: Reading, z: Reading['tokens']): Reading['tokens'] | null => {
    const owner = z[0]
    if (!owner || z[1]?.lower !== 's' || !/^['’]s\b/.test(r.norm.slice(owner.end))) return null
    const rest = z.slice(2).filter((t) => !isFunction(t))
    return rest.length ? rest : null
  }
  const [ha, hb] = [head(a, za), head(b, zb)]
  if (!ha || !hb || !sameStem(za[0]!.stem, zb[0]!.stem)) return null
  // A general noun may name the other's thing: "Noor's son is 7" / "Noor's boy is nine".
  if ([...ha, ...hb].some((t) => GENERAL_NOUNS.has(t.lower.replace(/s$/, '')))) return null
  if (ha.some((t) => hasStem(b.content, t.stem)) || hb.some((t) => hasStem(a.content, t.stem))) return null
  const words = (h: Reading['tokens']): string => h.map((t) => t.lower).join(' ')
  return `${OWNER_READING}: "${words(ha)}" vs "${words(hb)}"`
}
