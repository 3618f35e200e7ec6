import type { Reading } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'
import { STOPWORDS } from '../words/stopwords.js'
import { stem } from '../read/stem.js'
import { alternatives, DEFINITE } from '../words/determiners.js'
import type { RawVerdict } from './verdict.js'
import { escapeRe } from '../read/escape-re.js'

/**
 * What a clashing count or measure is of, by the shape of the phrase it opens (issue 27, session
 * 10, obs27: dev2 observation flags). Two readings say the values count two things:
 * - a compound measure before two different nouns ("a one-bedroom flat" / "a two-bedroom house"):
 *   the number says which kind of flat or house, and a flat and a house are two homes;
 * - a part against the whole ("three of Bram's workers" / "fifteen workers came"): "N of" counts
 *   some of a group, which leaves the group's own count as it was.
 */

// Words that end the noun phrase a compound measure opens.
const PHRASE_END = /^(?:in|on|at|for|from|to|with|by|of|near|and|or|but|that|which|who|where|because|since|after|before|until)$/

/** Where `text` stands in `r.norm` (its last whole-word occurrence), or -1. */
function locate(r: Reading, text: string, known: number): number {
  if (known >= 0) return known
  const re = new RegExp(`(?<![\\w.])${escapeRe(text)}(?![\\w.])`, 'gi')
  return [...r.norm.matchAll(re)].at(-1)?.index ?? -1
}

/** "a two-bedroom terraced house in ..." at `at`: the head noun ("house"), or null when no compound measure opens there. */
function compoundHead(r: Reading, at: number): string | null {
  const m = /^(?:an?\s+)?[\p{L}\p{N}.,]+-\p{L}+((?:\s+[\p{L}'-]+){1,3})/u.exec(r.norm.slice(at))
  if (!m) return null
  const words: string[] = []
  for (const w of m[1]!.trim().split(/\s+/)) {
    const lower = w.toLowerCase()
    if (PHRASE_END.test(lower) || (STOPWORDS.has(lower) && words.length)) break
    if (STOPWORDS.has(lower)) return null
    words.push(lower.replace(/[^\p{L}-]/gu, ''))
  }
  return words.at(-1) ?? null
}

// "of" and a definite determiner or someone's: "three of the", "two of Bram's".
const PART_OF = new RegExp(String.raw`^[\p{L}\p{N}.,-]+\s+of\s+(?:${alternatives(DEFINITE)}|\p{Lu}[\p{L}'-]*['’]s)\s`, 'u')

/** "three of Bram's workers", "two of the five rooms": a count of some of a group. */
function partOfGroup(r: Reading, at: number): boolean {
  return PART_OF.test(r.norm.slice(at))
}

/** Why the two clashing values count two things, or null. */
export function countedApart(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.check !== 'value') return null
  const m = /^different [^:]*: "([^"]+)" vs "([^"]+)"/.exec(raw.reason)
  if (!m) return null
  const [at, bt] = [locate(a, m[1]!, raw.signal?.at?.[0] ?? -1), locate(b, m[2]!, raw.signal?.at?.[1] ?? -1)]
  if (at < 0 || bt < 0) return null
  const [ha, hb] = [compoundHead(a, at), compoundHead(b, bt)]
  if (ha && hb && !sameStem(stem(ha), stem(hb))) return `two things measured ("${ha}" / "${hb}")`
  if (partOfGroup(a, at) !== partOfGroup(b, bt)) return 'a part of a group against the group'
  return null
}
