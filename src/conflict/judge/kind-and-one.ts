import type { Reading } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'
import { POSSESSIVES } from '../words/determiners.js'

/** Quantifiers that make a bare plural a share of a kind ("most pubs", "many clinics"). */
const SHARE = new Set(['most', 'many', 'all', 'some', 'few', 'other'])
/** Prepositions that put a kind in a region ("pubs in Lahinch", "hotels near the airport"). */
const REGION = new Set(['in', 'near', 'around', 'across', 'outside', 'throughout'])
/** Adverbs that say what a kind does as a rule ("pubs mostly charge"). */
const AS_A_RULE = new Set(['mostly', 'usually', 'generally', 'typically', 'often', 'normally'])

/**
 * A kind of thing against one of its kind: "Pubs in Lahinch charge €6.20 a pint" / "The pub charges
 * €5.60" speak of two subjects, the pubs of a place and one pub (session 12, anchor32). A text
 * speaks of a kind when it opens with a bare plural that a quantifier, a region or an "as a rule"
 * adverb marks general; of one when it opens with "the", "this", "that" or a possessive before the
 * same noun in the singular. "Tickets for the gala" is a particular set ("for" is no region), and
 * "the pubs" is no kind: both keep their flags. Returns the two phrases, or null.
 */
export function kindAndOne(a: Reading, b: Reading): readonly [string, string] | null {
  const [ka, kb] = [kindOf(a), kindOf(b)]
  const [oa, ob] = [oneOf(a), oneOf(b)]
  if (ka && ob && sameStem(ka.stem, ob.stem)) return [ka.text, ob.text]
  if (kb && oa && sameStem(kb.stem, oa.stem)) return [oa.text, kb.text]
  return null
}

type Token = Reading['tokens'][number]

/** The plural a text opens with, when it is read as a kind. */
function kindOf(r: Reading): { stem: string; text: string } | null {
  const t = r.tokens
  const q = t[0] && SHARE.has(t[0].lower) ? 1 : 0
  const noun = t[q]
  if (!noun || !plural(noun) || (q === 0 && noun.start > 2)) return null
  const next = t[q + 1]
  const general = q === 1 || (!!next && REGION.has(next.lower)) || (!!next && AS_A_RULE.has(next.lower))
  const last = next && REGION.has(next.lower) ? t[q + 2] ?? next : q === 1 ? noun : next ?? noun
  return general ? { stem: noun.stem, text: r.norm.slice(t[0]!.start, last.end) } : null
}

/** The one thing a text opens with: a definite determiner, then a singular noun. */
function oneOf(r: Reading): { stem: string; text: string } | null {
  const [d, noun] = [r.tokens[0], r.tokens[1]]
  if (!d || !noun || d.start > 2 || !(d.lower === 'the' || d.lower === 'this' || d.lower === 'that' || POSSESSIVES.has(d.lower))) return null
  return plural(noun) || noun.capital ? null : { stem: noun.stem, text: r.norm.slice(d.start, noun.end) }
}

const plural = (t: Token): boolean => /^\p{Ll}{3,}s$/u.test(t.lower) && !/(?:ss|us|is)$/.test(t.lower) && t.lower !== t.stem
