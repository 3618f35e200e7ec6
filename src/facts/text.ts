import { stemmer } from 'stemmer'

// A short English stop list: words that carry no topic. Kept small on purpose; see docs/retrieval.md.
const STOP = new Set(
  ('a an and are as at be been but by can could did do does for from had has have he her hers him his how i if in into ' +
    'is it its just me my of on or our ours she so than that the their them then there these they this those to too us ' +
    'was we were what when where which who whom why will with would you your yours am im ive id ill dont does doesnt ' +
    'about also any some such very much more most other oh yeah yes no not ok okay really well hey hi').split(' '),
)

const WORD_RE = /[\p{L}\p{N}]+/gu

/** Lower-cased, accent-folded words of a text, in order (no stemming, no stop words). */
export function words(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/['’]/g, '')
  return folded.match(WORD_RE) ?? []
}

/** Index terms: words minus stop words, Porter-stemmed. */
export function terms(text: string): string[] {
  const out: string[] = []
  for (const w of words(text)) {
    if (STOP.has(w)) continue
    out.push(stemmer(w))
  }
  return out
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
