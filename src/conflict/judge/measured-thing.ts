import type { Reading } from '../read/reading.js'
import { subjectStems } from '../read/subject.js'
import { hasStem, sameStem } from '../read/same-stem.js'
import type { RawVerdict } from './verdict.js'

// Two values answer one question only when both texts measure one thing (issue 27, session 11,
// calib28). What the thing is shows in the evidence, not in the words: a name or an identifier
// both texts carry ("Leeds", "Napa", "flat 4B"), or a word of what one text is about (its
// subject, else its first word) that the other says too ("our rent" / "the rent", "the team has 8
// engineers" / "there are five engineers on the team"). A shared word said
// only beside the values (an object, a unit, "before", "guests" of a wedding on one side and of a
// wish on the other) ties two texts to one topic, not to one measure: "we bake the loaves at
// 450°F" / "the proofer is set to 70°F", "text the tenant before 9" / "don't ring the venue before
// 10". On the dev sets (realistic, unseen, unseen2, dev2, dev3: docs/conflicts.md, session 11) value
// flags of that shape were 21 false to none true once a shared name is let through.

/** Words of a reason's quoted phrases: what differs, which cannot be what is shared. */
function clashWords(reason: string): string[] {
  const q = /"([^"]+)" vs "([^"]+)"/.exec(reason)
  return q ? `${q[1]} ${q[2]}`.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean) : []
}

/** A shared key that names something: an identifier or a number, a capital where one says something, or the name a text opens with. */
function named(k: string, a: Reading, b: Reading): boolean {
  return /\d/.test(k) || [a, b].some((r) => r.tokens.some((t) => sameStem(t.stem, k) && (t.capital || t.identifier)) || r.leadingName.some((n) => sameStem(n, k)))
}

/** What a text is about: its subject, or else the word it opens with ("Meeting at 3pm", "Shipping is free"). */
function about(r: Reading): ReadonlySet<string> {
  const first = r.tokens.find((t) => r.content.has(t.stem))
  return subjectStems(r) ?? new Set(first ? [first.stem] : [])
}

/**
 * Whether the clause a value stands in opens with "he" or "she": a person the other text may name
 * ("Bea's 7" / "she's 5th bday next wk"), so what is measured cannot be told apart by its words.
 */
function heOrShe(r: Reading, known = -1, value = ''): boolean {
  // Not located by its reader: where the value's first word stands.
  const at = known >= 0 ? known : r.norm.toLowerCase().indexOf(value.toLowerCase().split(' ')[0] ?? '')
  if (at < 0) return false
  const clause = r.norm.slice(0, at).split(/[,.;!?]\s*/).pop() ?? ''
  return /^\s*(?:he|she)\b/i.test(clause)
}

/**
 * Why a value clash measures two things, or null: the texts share no name beside the values, and
 * no word of what either text is about stands in the other.
 */
export function twoThingsMeasured(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.check !== 'value') return null
  const q = /"([^"]+)" vs "([^"]+)"/.exec(raw.reason)
  if (heOrShe(a, raw.signal?.at?.[0], q?.[1]) || heOrShe(b, raw.signal?.at?.[1], q?.[2])) return null
  const clash = clashWords(raw.reason)
  const differs = (k: string): boolean => clash.some((c) => sameStem(c, k) || c.startsWith(k))
  // A key neither text writes is one the reader knew by its kind ("stay" of "2 nights" and of
  // "checking in on the 4th"): it names the one thing both measure.
  const written = (k: string): boolean => [a, b].some((r) => r.tokens.some((t) => sameStem(t.stem, k)))
  if (raw.shared.some((k) => !differs(k) && (named(k, a, b) || !written(k)))) return null
  for (const [x, y] of [[a, b], [b, a]] as const) {
    if ([...about(x)].some((s) => !differs(s) && (hasStem(y.content, s) || hasStem(y.keys, s)))) return null
  }
  return 'the texts share no name, and nothing either is about, beside the values: two things measured'
}
