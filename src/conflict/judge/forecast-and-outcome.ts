import type { Reading } from '../read/reading.js'
import type { Token } from '../read/text-tokens.js'
import { tokensIn } from './verbless-reply.js'

// What will be against what was (issue 27, session 14, turns40). In chat one turn says what is
// expected ("I'll ring her tomorrow", "they'll pay by the 29th") and another, days apart, what
// happened ("she rang me last week", "the money came in on Friday"): a forecast is not contradicted
// by an outcome on another day; the day moved, or it is another time. Dev turns of synthetic-1 and
// dev7-1 (and dev6-2's "I'll ask to move it" / "moved it") are of this shape. Only a clash of
// dates, days or times: a forecast of an amount against an outcome ("will cost £40" / "cost £60")
// is still an answer.

/** A clash of when. */
const WHEN = /^different (?:relative )?(?:date|day|time|weekday)\b/
/** The future: "will", the clitic "ll" of "I'll", "going to", "shall". */
const FUTURE = /^(?:will|ll|shall|gonna)$/
/** Past forms: the past auxiliaries, a lower-case word in -ed, the irregular pasts chat uses for things done. */
const PAST = /^(?:was|were|had|did|came|went|paid|got|took|made|sent|left|rang|met|saw|gave|told|said|bought|sold|began|ran|flew|drove|ate)$/

/** 1 for a sentence in the future only, -1 in the past only, else 0. */
function tense(tokens: readonly Token[]): number {
  const future = tokens.some((t, i) => FUTURE.test(t.lower) || (t.lower === 'going' && tokens[i + 1]?.lower === 'to'))
  const past = tokens.some((t) => PAST.test(t.lower) || (/^[a-z]{3,}ed$/.test(t.lower) && !t.capital))
  return future === past ? 0 : future ? 1 : -1
}

/**
 * Why a clash of when is a forecast on one side and an outcome on the other, or null. `spans` are
 * the sentences that hold what differs on each side (confidence.ts finds them), null where unknown.
 */
export function forecastAndOutcome(reason: string, a: Reading, b: Reading, spans: readonly [{ start: number; end: number }, { start: number; end: number }] | null): string | null {
  if (!WHEN.test(reason)) return null
  // A resolved date ("two weeks (= 2026-08-15)") is not found in its text: then the whole text, whose tenses must agree.
  const [ta, tb] = [tense(tokensIn(a, spans?.[0])), tense(tokensIn(b, spans?.[1]))]
  if (ta * tb >= 0) return null
  return 'what will be against what was'
}
