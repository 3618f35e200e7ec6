import { ANTONYMS } from '../../words/poles.js'
import { KIND_OF, type Reading } from '../../read/reading.js'
import { hasStem, sameStem } from '../../read/same-stem.js'
import type { Signal } from '../signal.js'
import { differentTimes } from '../signal.js'

/**
 * Opposite orders of preference: "prefers trains to flying" / "would rather fly than take the
 * train"; or an order against a plain liking of what it ranks lower.
 */
export function orderSignal(a: Reading, b: Reading): Signal | null {
  const near = (x: string, y: string): boolean => sameStem(x, y) || (Math.min(x.length, y.length) >= 3 && (x.startsWith(y) || y.startsWith(x)))
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const o of x.orders) {
      const opposite = y.orders.find((p) => near(p.better, o.worse) && near(p.worse, o.better))
      if (opposite) return { kind: 'preference', reason: `opposite preference: "${o.better}" over "${o.worse}" vs "${opposite.better}" over "${opposite.worse}"` }
    }
  }
  return null
}

/** Liking and disliking clash only over one thing: a shared word beyond the person's name. */
export function sharedObject(a: Reading, b: Reading): boolean {
  const first = (r: Reading): string | undefined => r.tokens.find((t) => r.content.has(t.stem))?.stem
  const names = new Set([first(a), first(b), ...a.tokens.filter((t) => t.capital).map((t) => t.stem)])
  for (const s of a.content) if (!names.has(s) && hasStem(b.content, s) && !isPreferenceWord(a, s)) return true
  return false
}

function isPreferenceWord(r: Reading, s: string): boolean {
  return ANTONYMS.get(s)?.some((p) => p.group === 'preference') === true || r.poles.get('preference')?.some((p) => p.word === s) === true
}

/** Giving something up or refusing it again: a stance against what the clause names. */
const AGAINST = /\bnever\b[^.;!?,]*\bagain\b|\bno\s+more\b|\bnot\s+any\s*more\b|\b(?:gone|went|going)\s+off\b|\b(?:sick|tired)\s+of\b|\bdone\s+with\b|\b(?:gave|give|giving|gives)\s+up\b|\bquit\b/i

/** The stance each clause of a text takes toward the keys it names: liking (+1) or against (-1). */
function stances(r: Reading): Map<string, { pole: 1 | -1; cue: string; at: number }> {
  const out = new Map<string, { pole: 1 | -1; cue: string; at: number }>()
  const prefs = r.poles.get('preference') ?? []
  // The person a text is about is not the object of their liking.
  const subject = new Set([...r.leadingName, r.tokens.find((t) => r.content.has(t.stem))?.stem])
  for (const m of r.norm.matchAll(/[^.;!?,]+/g)) {
    const [start, end] = [m.index, m.index + m[0].length]
    const inClause = prefs.filter((p) => p.end > start && p.end <= end)
    const against = AGAINST.exec(m[0])
    const poles = new Set<number>(inClause.map((p) => p.pole))
    if (against) poles.add(-1)
    if (poles.size !== 1) continue
    const pole = [...poles][0] as 1 | -1
    const cue = against?.[0] ?? inClause[0]!.word
    for (const t of r.tokens) {
      if (t.start < start || t.end > end || !r.keys.has(t.stem) || subject.has(t.stem) || t.identifier) continue
      if (ANTONYMS.get(t.stem)?.some((p) => p.group === 'preference') || cue.includes(t.lower)) continue
      for (const k of [t.stem, ...(KIND_OF.get(t.stem) ?? [])]) out.set(k, { pole, cue, at: t.start })
    }
  }
  return out
}

/**
 * Opposite stances toward one thing both texts name, beyond the person: "likes flying Delta" /
 * "never book me on Delta again", "loves the new espresso machine" / "gone off the espresso
 * machine". Clauses that carry dates or times are left to the value checks ("wants meetings before
 * noon" / "avoid meetings on Fridays" are two facts).
 */
export function stanceSignal(a: Reading, b: Reading): Signal | null {
  if (differentTimes(a, b)) return null
  const [sa, sb] = [stances(a), stances(b)]
  for (const [k, x] of sa) {
    const y = [...sb].find(([j]) => sameStem(j, k))?.[1]
    if (!y || x.pole === y.pole) continue
    if (a.slots.slots.length && b.slots.slots.length) continue
    if (a.pastAt(x.at) !== b.pastAt(y.at)) continue
    const word = a.tokens.find((t) => t.start === x.at)?.lower ?? k
    return { kind: 'preference', reason: `opposite stance toward "${word}": "${x.cue}" vs "${y.cue}"` }
  }
  return null
}
