import type { Reading } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'
import type { RawVerdict } from './verdict.js'

// A state of a part against a state of its whole (issue 27, events27): "Greenhouse heating
// running full" / "Greenhouse done", "the kitchen lights are off" / "the kitchen is on". The shared
// noun names the whole on one side and modifies the part's noun on the other; the opposed words are
// said of two things.

/** Words between a noun and the state said of it: a copula, an aspect, a degree. */
const BETWEEN = /^(?:is|are|was|were|be|been|being|has|have|had|now|still|already|finally|fully|all|not|never|just|almost|nearly|mostly)$/

/** The token a state word at a position is said of: the one before it, past copulas and adverbs of aspect. */
function holderAt(r: Reading, word: string): number {
  const i = r.tokens.findIndex((t) => t.lower === word)
  let j = i - 1
  while (j >= 0 && BETWEEN.test(r.tokens[j]!.lower)) j--
  return i < 0 ? -1 : j
}

/**
 * Why opposed states are of a part and of its whole, or null: on one side the state is said of a
 * noun right after the shared one ("greenhouse heating running"), on the other of the shared noun itself
 * ("greenhouse done").
 */
export function partAndWhole(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.check !== 'antonym') return null
  const q = /"([^"]+)" vs "([^"]+)"/.exec(raw.reason)
  if (!q) return null
  const [ha, hb] = [holderAt(a, q[1]!.toLowerCase().split(/\s+/).at(-1)!), holderAt(b, q[2]!.toLowerCase().split(/\s+/).at(-1)!)]
  if (ha < 1 || hb < 0) return hb >= 1 && ha >= 0 ? ofPart(b, hb, a, ha, raw.shared) : null
  return ofPart(a, ha, b, hb, raw.shared) ?? (hb >= 1 ? ofPart(b, hb, a, ha, raw.shared) : null)
}

/** The part's side: its holder follows, with only a space between, the noun the other side holds the state of. */
function ofPart(part: Reading, i: number, whole: Reading, j: number, shared: readonly string[]): string | null {
  const [p, before, w] = [part.tokens[i]!, part.tokens[i - 1]!, whole.tokens[j]!]
  // Both holders are nouns the texts are about: the whole a shared key, the part a content word of its own.
  if (!shared.some((k) => sameStem(k, w.stem)) || !part.content.has(p.stem) || whole.content.has(p.stem)) return null
  // "The vote on the hedge passed": a noun after a preposition is not what the state is said of.
  if (afterPreposition(whole, j) || afterPreposition(part, i - 1)) return null
  if (sameStem(p.stem, w.stem) || !sameStem(before.stem, w.stem) || !/^\s+$/.test(part.norm.slice(before.end, p.start))) return null
  return `said of the "${before.lower} ${p.lower}" on one side and of the "${w.lower}" on the other: a part and its whole`
}

const PREPOSITION = /^(?:of|on|in|at|to|for|with|about|from|by|over|under|into|onto|after|before)$/

/** Whether a preposition stands between the start of a token's clause and the token. */
function afterPreposition(r: Reading, i: number): boolean {
  for (let k = i - 1; k >= 0; k--) {
    const t = r.tokens[k]!
    if (/[.;:!?,]/.test(r.norm.slice(t.end, r.tokens[k + 1]!.start))) return false
    if (PREPOSITION.test(t.lower)) return true
  }
  return false
}
