import type { Token } from './text-tokens.js'

/**
 * Whether a word is used as a noun or a verb, where the words before it say so, else undefined.
 * Enough to tell "the PhD program" from "has never programmed" (issue 27, negation scope): a
 * shared stem in another part of speech is no shared predicate.
 */
export function wordClass(tokens: readonly Token[], i: number): 'noun' | 'verb' | undefined {
  const t = tokens[i]
  if (!t) return undefined
  const prev = tokens[i - 1]?.lower ?? ''
  const inflected = /(?:ed|ing)$/.test(t.lower)
  if (VERB_BEFORE.test(prev)) return 'verb'
  if (DETERMINER.test(prev)) return inflected ? undefined : 'noun'
  // "the PhD program", "a statistics class": a modifier between a determiner and the word.
  if (!inflected && DETERMINER.test(tokens[i - 2]?.lower ?? '') && !VERB_BEFORE.test(prev) && !/(?:ed|ing|ly)$/.test(prev)) return 'noun'
  return undefined
}

/** Words after which the next word is a verb: auxiliaries, modals, negators, "to", subject pronouns. */
const VERB_BEFORE = /^(?:not|never|to|do|does|did|will|would|can|could|should|must|might|may|shall|has|have|had|i|you|we|they|he|she)$/
const DETERMINER = /^(?:a|an|the|my|your|our|their|his|her|its|this|that|these|those|every|each)$/
