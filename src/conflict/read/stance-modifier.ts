import type { Token } from './text-tokens.js'
import { NOUN_MARKERS } from '../words/determiners.js'
import { STANCE_VERBS } from '../words/preferences.js'
import { STOPWORDS } from '../words/stopwords.js'

const VERBS: ReadonlySet<string> = new Set(STANCE_VERBS.split(' '))

/**
 * Whether a liking or disliking verb at `i` names a kind of thing, not a stance: a word of a name
 * ("the Hate Crime Act", "the Love Actually screening"), or the first noun of a compound that a
 * determiner opens, alone or after a superlative ("the hate crime figures", "a love letter", "the
 * worst hate speech", "the most common hate crime"). Read as a stance, "did not include X in the
 * Hate Crime Act" disliked nothing and clashed with any "hate" of the other text (ProSeCCo dev).
 * "The kids hate broccoli" keeps its stance: a noun stands between the determiner and the verb.
 */
export function stanceWordAsModifier(tokens: readonly Token[], i: number, norm: string): boolean {
  const t = tokens[i]!
  const next = tokens[i + 1]
  if (!VERBS.has(t.lower) || !next || !/^\s+$/.test(norm.slice(t.end, next.start)) || STOPWORDS.has(next.lower)) return false
  if (t.capital && next.capital) return true
  // Superlatives between the determiner and the word: "the worst", "the most common".
  let j = i - 1
  if (/^(?:\p{L}{2,}est|worst)$/u.test(tokens[j]?.lower ?? '')) j--
  else if (/^(?:most|least)$/.test(tokens[j - 1]?.lower ?? '')) j -= 2
  return j >= 0 && NOUN_MARKERS.has(tokens[j]!.lower)
}
