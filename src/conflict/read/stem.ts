import { stemmer } from 'stemmer'
import { IRREGULAR } from '../../core/irregular.js'

// Every word list and reader compares words by their stem: irregular forms are mapped to their
// lemma first ("went" -> "go"), then Porter-stemmed.

const STEM_CACHE = new Map<string, string>()

/** Porter stem of a lower-case word, cached. */
export function stem(word: string): string {
  let s = STEM_CACHE.get(word)
  if (s === undefined) {
    const lemma = IRREGULAR[word] ?? word
    s = lemma.length <= 3 ? lemma : stemmer(lemma)
    if (STEM_CACHE.size < 50_000) STEM_CACHE.set(word, s)
  }
  return s
}

/**
 * Porter stem of a lower-case word without the irregular lemma: "done" stays "done" where `stem`
 * gives "do". A word list that names a participle as a state ("done", "broken", "lost") keys it by
 * this, so the verb's other forms ("did", "doing", "take a break") are not that state.
 */
export function regularStem(word: string): string {
  return word.length <= 3 ? word : stemmer(word)
}
