import { stemmer } from 'stemmer'
import { IRREGULAR } from '../core/irregular.js'
import { memoByString } from '../core/string-memo.js'

// A short English stop list: function words, their apostrophe-less contractions, and chat fillers
// that carry no topic. Kept small on purpose (see docs/retrieval.md): "may" stays (the month).
const STOP = new Set(
  ('a an and are as at be been being but by can could did do does doing done for from had has have having he her hers ' +
    'herself him himself his how i if in into is it its itself just me my myself of on or our ours ourselves she so ' +
    'than that the their theirs them themselves then there these they this those to too us was we were what when ' +
    'where which who whom whose why will with would you your yours yourself yourselves am im ive id ill youre youve ' +
    'youd youll hes shes its were theyre theyve weve dont doesnt didnt isnt arent wasnt werent cant couldnt wont ' +
    'wouldnt shouldnt should shall might must about also any some such very much more most other oh yeah yes no ' +
    'not ok okay really well hey hi s t d ll m re ve').split(' '),
)

// Number words as digits, so "seven years" meets "7 years". "one" is left alone: it is mostly a pronoun.
const NUMBER_WORDS: Record<string, string> = {
  two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
  eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15', sixteen: '16', seventeen: '17',
  eighteen: '18', nineteen: '19', twenty: '20', thirty: '30', forty: '40', fifty: '50', hundred: '100',
}

const WORD_RE = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu

function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/['’]/g, '')
}

/** Lower-cased, accent-folded words of a text, in order (no stemming, no stop words); hyphenated words split. */
export function words(text: string): string[] {
  const out: string[] = []
  for (const w of fold(text).match(WORD_RE) ?? []) {
    if (w.includes('-')) out.push(...w.split('-'))
    else out.push(w)
  }
  return out
}

/**
 * The index term of one lower-cased word, or null for a stop word. Words recur far more often than
 * they are new (a store's vocabulary is small next to its text), and stemming was the largest part
 * of opening 100k facts: each distinct word is stemmed once, in a bounded memo (core/string-memo.ts),
 * so a stream of unique tokens (ids, hashes) cannot grow it without limit.
 */
export const termOf: (word: string) => string | null = memoByString(computeTerm)

function computeTerm(word: string): string | null {
  if (STOP.has(word)) return null
  // "18th" and "1990s" index as their number.
  const ordinal = /^(\d+)(?:st|nd|rd|th|s)$/.exec(word)
  if (ordinal) return ordinal[1]!
  const n = NUMBER_WORDS[word]
  if (n !== undefined) return n
  return stemmer(IRREGULAR[word] ?? word)
}

/**
 * Index terms, in order: words minus stop words, irregular forms lemmatised, number words and
 * ordinals as digits, Porter-stemmed. A hyphenated compound gives its parts and then the joined
 * word, so "de-stress" also matches "destress".
 */
export function terms(text: string): string[] {
  const out: string[] = []
  if (NOT_ASCII.test(text)) {
    for (const w of fold(text).match(WORD_RE) ?? []) addWord(out, w, w.includes('-'))
    return out
  }
  // ASCII text (nearly every fact): NFKD leaves it as it is and it holds no combining mark, so
  // folding is lower-casing and dropping apostrophes, and its words are runs of [a-z0-9] joined
  // by single hyphens: what WORD_RE matches there, found by one scan instead of a Unicode regex,
  // a normalization and a match array per text (issue 31, fifth round: a tenth of a fact write's JS).
  let folded = text.toLowerCase()
  if (folded.includes("'")) folded = folded.replace(/'/g, '')
  const n = folded.length
  let i = 0
  while (i < n) {
    if (!isWordCode(folded.charCodeAt(i))) {
      i++
      continue
    }
    const start = i
    let hyphen = false
    for (;;) {
      while (i < n && isWordCode(folded.charCodeAt(i))) i++
      // "-" continues the word only between two word characters, as in WORD_RE.
      if (i + 1 < n && folded.charCodeAt(i) === 0x2d && isWordCode(folded.charCodeAt(i + 1))) {
        hyphen = true
        i++
        continue
      }
      break
    }
    addWord(out, folded.slice(start, i), hyphen)
  }
  return out
}

const NOT_ASCII = /[^\u0000-\u007f]/

/** a-z and 0-9: the letters and digits of lower-cased ASCII (all that [\p{L}\p{N}] matches there). */
function isWordCode(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)
}

/** The terms of one word of WORD_RE: itself, or a hyphenated compound's parts and then the parts joined. */
function addWord(out: string[], w: string, hyphenated: boolean): void {
  if (hyphenated) {
    const parts = w.split('-')
    for (const p of parts) {
      const t = termOf(p)
      if (t !== null) out.push(t)
    }
    const joined = parts.join('')
    if (joined.length <= 24) {
      const t = termOf(joined)
      if (t !== null) out.push(t)
    }
  } else {
    const t = termOf(w)
    if (t !== null) out.push(t)
  }
}

/** Characters as GMP counts them: Unicode code points, as Python's `len(str)` does. */
export function charCost(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) i++
    }
    n++
  }
  return n
}
