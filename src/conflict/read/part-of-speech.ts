import type { Token } from './text-tokens.js'
import { NOUN_MARKERS } from '../words/determiners.js'

/**
 * Whether a word is used as a noun or a verb, where the words before it say so, else undefined.
 * Enough to tell "the PhD program" from "has never programmed" (issue 27, negation scope): a
 * shared stem in another part of speech is no shared predicate.
 */
export function wordClass(tokens: readonly Token[], i: number, norm: string): 'noun' | 'verb' | undefined {
  const t = tokens[i]
  if (!t) return undefined
  const prev = tokens[i - 1]?.lower ?? ''
  const inflected = /(?:ed|ing)$/.test(t.lower)
  if (VERB_BEFORE.test(prev)) return 'verb'
  if (NOUN_MARKERS.has(prev)) return inflected ? undefined : 'noun'
  // "he never reads texts": after a verb that a negator or an auxiliary governs, the word is its
  // object; "landlord texted": a past form right after the noun that opens a clause is its verb.
  // So a negated reading is no negated texting (cross28, issue 27).
  const opens = (k: number): boolean => k === 0 || (k > 0 && /[.;!?:,]\s*$/.test(norm.slice(tokens[k - 1]!.end, tokens[k]!.start)))
  if (!inflected && i >= 2 && VERB_BEFORE.test(tokens[i - 2]!.lower) && !NOUN_MARKERS.has(prev) && !VERB_BEFORE.test(prev)) return 'noun'
  if (/[a-z]ed$/.test(t.lower) && (opens(i - 1) || (i >= 2 && NOUN_MARKERS.has(tokens[i - 2]!.lower) && opens(i - 2)))) return 'verb'
  // "the PhD program.", "a statistics class that": a modifier between a determiner and the word, and
  // the phrase ends there. Not "my brother drives me", where the word takes an object.
  const next = tokens[i + 1]
  const ends = !next || !/^\s+$/.test(norm.slice(t.end, next.start)) || /^(?:that|which|who|in|at|on|of|for|with|is|was|are|were)$/.test(next.lower)
  if (!inflected && !/s$/.test(t.lower) && ends && NOUN_MARKERS.has(tokens[i - 2]?.lower ?? '') && !/(?:ed|ing|ly)$/.test(prev)) return 'noun'
  return undefined
}

/** Words after which the next word is a verb: auxiliaries, modals, negators, subject pronouns (not "to": "allergic to dogs"). */
const VERB_BEFORE = /^(?:not|never|do|does|did|will|would|can|could|should|must|might|may|shall|has|have|had|i|you|we|they|he|she)$/
