import type { Reading } from '../read/reading.js'
import { isTimeWord, valueSpans } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'
import type { RawVerdict } from './verdict.js'
import { QUANTIFIED_DETERMINERS } from '../words/determiners.js'

// Two texts that open alike up to an action and then name each its own object are said of two
// things: "Water the fern every day" / "Water the cactus once a month", "I feed the cat at 7" /
// "I feed the hens at 6". A value, a negation or a pole said after them belongs to each object,
// so they do not contradict. cross28, issue 27 (two instructions of two planted pairs on one
// topic).

/** The first clause's tokens, up to a clause break. */
function firstClause(r: Reading): Reading['tokens'] {
  const out: Array<Reading['tokens'][number]> = []
  for (const t of r.tokens) {
    const prev = out.at(-1)
    if (prev && /[.;!?,:–()]/.test(r.norm.slice(prev.end, t.start))) break
    out.push(t)
  }
  return out
}

/** The head of the noun phrase starting at `i`: the last of its run of content words. */
function headAt(r: Reading, tokens: Reading['tokens'], i: number): Reading['tokens'][number] | null {
  // A value's words ("once a month", "twice a day") end the phrase: they say how, not what.
  const values = valueSpans(r)
  let head: Reading['tokens'][number] | null = null
  while (i < tokens.length && QUANTIFIED_DETERMINERS.has(tokens[i]!.lower)) i++
  for (let j = i; j < tokens.length; j++) {
    const t = tokens[j]!
    if (!r.content.has(t.stem) || /\d/.test(t.lower) || isTimeWord(t.lower) || values.some(([x, y]) => t.start >= x && t.start < y)) break
    head = t
  }
  return head
}

/**
 * Why a fired flag is said of two objects of one action, or null: the texts' first clauses agree
 * word for word up to a content word (the action, with its subject if any), then each names a
 * thing the other text does not name.
 */
export function twoObjects(raw: RawVerdict, a: Reading, b: Reading): string | null {
  // Only a clash of values said after both objects: elsewhere the words after the action may be
  // the answer itself ("the shop is open" / "closed", "drives a Volvo" / "a Tesla").
  const at = raw.check === 'value' ? raw.signal?.at : undefined
  if (!at || at[0] < 0 || at[1] < 0) return null
  const [ta, tb] = [firstClause(a), firstClause(b)]
  let i = 0
  while (i < ta.length && i < tb.length && sameStem(ta[i]!.stem, tb[i]!.stem)) i++
  // The action and its object: a content word, then a determiner on each side ("water the fern",
  // "walk our dog"), so the words that differ are a noun phrase, not a verb or a value ("fell" /
  // "rose", "runs" / "starts").
  const det = (t: Reading['tokens'][number] | undefined): boolean => !!t && QUANTIFIED_DETERMINERS.has(t.lower)
  let k = i
  while (k > 0 && det(ta[k - 1])) k--
  if (k === 0 || !a.content.has(ta[k - 1]!.stem) || (k === i && !(det(ta[i]) && det(tb[i])))) return null
  const [ha, hb] = [headAt(a, ta, i), headAt(b, tb, i)]
  if (!ha || !hb || sameStem(ha.stem, hb.stem) || ha.end > at[0] || hb.end > at[1]) return null
  if (b.tokens.some((t) => sameStem(t.stem, ha.stem)) || a.tokens.some((t) => sameStem(t.stem, hb.stem))) return null
  return `one action done to two things ("${ha.lower}" / "${hb.lower}")`
}
