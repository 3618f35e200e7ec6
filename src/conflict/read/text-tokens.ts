import { STOPWORDS } from '../words/stopwords.js'
import { stem } from './stem.js'
import { rewriter } from './rewrite.js'

/**
 * Text as people write it in chat and notes, read into tokens. Chat shorthand is expanded first
 * ("tmrw", "w/o", "k8s", "rez") because the rest of the detector compares words, and "w/o merging"
 * has to read as a negation like "without merging".
 */
export const SHORTHAND: ReadonlyArray<readonly [RegExp, string]> = ([
  [/\bw\/o\b/gi, 'without'],
  [/\bw\/(?=\s|$)/gi, 'with'],
  [/\b(?:tmrw|tmr|tmw|tomoz)\b/gi, 'tomorrow'],
  [/\bthru\b/gi, 'through'],
  [/\b(?:ppl)\b/gi, 'people'],
  [/\b(?:rez|resy)\b/gi, 'reservation'],
  [/\bk8s\b/gi, 'kubernetes'],
  [/\bwks?\b/gi, 'week'],
  [/\bbldg\b/gi, 'building'],
  [/\bsvc\b/gi, 'service'],
  [/\bacct\b/gi, 'account'],
  [/\b(?:pls|plz)\b/gi, 'please'],
  [/\bmtg\b/gi, 'meeting'],
  [/\bappt\b/gi, 'appointment'],
  [/\brte\b/gi, 'route'],
  [/\binv\b(?=\.?\s*#?\d)/gi, 'invoice'],
  [/\bincl\.?(?=\s)/gi, 'including'],
  [/\bexcl\.?(?=\s)/gi, 'excluding'],
  [/\bprod\b/gi, 'production'],
  [/\brepo\b/gi, 'repository'],
  [/\brepos\b/gi, 'repositories'],
  [/\bdept\b/gi, 'department'],
  [/\bmgr\b/gi, 'manager'],
  [/\b(?:pw|pwd|passwd)\b/gi, 'password'],
  // British spellings read as American ones, so "colour" and "color" are one word.
  [/\b(colo|favo|flavo|behavio|neighbo|harbo|labo|humo|hono|rumo)ur(s|ed|ite|ites|ing|hood)?\b/gi, '$1r$2'],
  [/\b(cent|met|lit|theat|fib)re(s)?\b/gi, '$1er$2'],
  [/\btix\b/gi, 'tickets'],
  [/\bdocs\b/gi, 'documentation'],
  [/\bconfig\b/gi, 'configuration'],
  [/\benv\b/gi, 'environment'],
  [/\bcan['’]?t\b/gi, 'can not'],
  [/\bcannot\b/gi, 'can not'],
  [/\bwon['’]?t\b/gi, 'will not'],
  [/\b(is|are|was|were|do|does|did|has|have|had|would|should|could|must)n['’]?t\b/gi, '$1 not'],
  [/\bain['’]t\b/gi, 'is not'],
  [/\b(it|that|there|he|she|what|who)['’]s\b/gi, '$1 is'],
  // Chat drops the apostrophe ("thats not failing", "whats up"): only where no word is spelled so ("its", "hes" stay).
  [/\b(that|what|there|she)s\b/gi, '$1 is'],
  [/\b(i)['’]m\b/gi, '$1 am'],
  [/\b(we|they|you)['’]re\b/gi, '$1 are'],
  [/\b(we|they|you|i)['’]ve\b/gi, '$1 have'],
] as const)

const SHORTHAND_REWRITE = rewriter(SHORTHAND)

/** Applies shorthand and contractions; keeps case, because capitals mark names. */
export function normalizeText(text: string): string {
  let t = text.normalize('NFKC').replace(/[‘’`´]/g, "'").replace(/[“”]/g, '"').replace(/[–—]/g, '–').replace(/\s+/g, ' ').trim()
  return SHORTHAND_REWRITE(t)
}

export interface Token {
  /** As written, lower-cased. */
  readonly lower: string
  /** Porter stem of `lower`, after the synonym fold of `key`. */
  readonly stem: string
  /** Capitalized where a capital says something: not at the start of a sentence. */
  readonly capital: boolean
  /** Carries a digit, an inner capital or a separator ("db-02", "UA443", "new_checkout", "#518"). */
  readonly identifier: boolean
  /** Index of the first character in the normalized text. */
  readonly start: number
  readonly end: number
}

const TOKEN_RE = /#?\d{1,3}(?:,\d{3})+(?:\.\d+)?|#?[\p{L}\p{N}]+(?:[-_.@/][\p{L}\p{N}]+)*@?/gu

/**
 * Splits a normalized text into word tokens. "UA 443" is read as one identifier "ua443": an
 * airline or product code split by a space is still one code.
 */
export function tokenize(text: string): Token[] {
  const out: Token[] = []
  const joined = text.replace(/\b([A-Z]{2,3}) (\d{2,5})\b/g, (_m, a: string, d: string) => `${a}${d} `.padEnd(_m.length, ' '))
  for (const m of joined.matchAll(TOKEN_RE)) {
    let raw = m[0].replace(/\.$/, '')
    const start = m.index
    // The last character before the token that is not white space ('' at the text's start): what
    // `joined.slice(0, start).trimEnd()` ends with, without copying the text before every token.
    let j = start - 1
    while (j >= 0 && /\s/.test(joined[j]!)) j--
    const before = j >= 0 ? joined[j]! : ''
    const sentenceStart = before === '' || /[.!?:;(\-–]/.test(before)
    const lower = raw.toLowerCase().replace(/^#/, '').replace(/'s$/, '')
    raw = raw.replace(/^#/, '')
    const identifier = /\d/.test(raw) && /\p{L}/u.test(raw) || /[-_@]/.test(raw) || /[a-z][A-Z]/.test(raw) || m[0].startsWith('#')
    out.push({
      lower,
      // "PRs", "VMs": an acronym's plural is the acronym, which the stemmer leaves on short words (recall27).
      stem: identifier ? lower.replace(/[-_]/g, '') : /^\p{Lu}{2,}s$/u.test(raw) ? stem(lower.slice(0, -1)) : stem(lower),
      // At a sentence's start a capital says nothing, unless the word is a possessive ("Alice's flight").
      // A capitalized value after a label ("location: Austin", "owner: Dana.") is a name too.
      capital: /^\p{Lu}/u.test(raw) && (!sentenceStart || /^\p{Lu}{2,}/u.test(raw) || /^'s\b/.test(joined.slice(start + m[0].length)) ||
        (before === ':' && /^\s*(?:$|[.,;!?)])/.test(joined.slice(start + m[0].length)) && !STOPWORDS.has(lower))),
      identifier,
      start,
      end: start + m[0].length,
    })
  }
  return out
}

/** Splits at sentence and clause punctuation, for cues whose reach ends at a clause boundary. */
export function clauses(text: string): string[] {
  return text.split(/(?<=[.;!?])\s+|\s*[,(]\s*|\s+–\s+|\s+but\s+/).filter((c) => c.trim() !== '')
}
