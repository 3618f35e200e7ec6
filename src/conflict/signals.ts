import type { Reading } from './reading.js'
import { isTimeWord } from './reading.js'
import { compareSlots } from './slot-compare.js'

/** One reason two related observations cannot both hold now. */
export interface Signal {
  readonly kind: 'value' | 'negation' | 'antonym' | 'preference' | 'substitution' | 'exclusive'
  readonly reason: string
}

/** Stems match when equal, or when one extends the other by a suffix the stemmer kept ("allerg"/"allergi"). */
export function sameStem(x: string, y: string): boolean {
  if (x === y) return true
  const [s, l] = x.length <= y.length ? [x, y] : [y, x]
  return s.length >= 5 && l.startsWith(s)
}
export function hasStem(set: Iterable<string>, s: string): boolean {
  for (const x of set) if (sameStem(x, s)) return true
  return false
}

/** Values of one kind that no reading reconciles: 3pm vs 4pm, 30°C vs 68°F, 1 GB vs 500 MB. */
export function valueSignal(a: Reading, b: Reading): Signal | null {
  // "used to work at Stripe" / "at Shopify now": a past value and a present one are both true.
  if (a.past !== b.past) return null
  const { clashes } = compareSlots(a.slots, b.slots)
  const c = clashes[0]
  return c ? { kind: 'value', reason: `different ${c.kind}: "${c.a}" vs "${c.b}"` } : null
}

/** One side negates or retracts something the other states plainly ("has no projector" / "has a projector"). */
export function negationSignal(a: Reading, b: Reading): Signal | null {
  for (const [x, y, flip] of [[a, b, false], [b, a, true]] as const) {
    for (const [s, cue] of x.negated) {
      if (isTimeWord(s) || s.length < 2) continue
      if (!hasStem(y.content, s) || hasStem(y.negated.keys(), s)) continue
      const word = y.tokens.find((t) => sameStem(t.stem, s))?.lower ?? s
      const [p, q] = flip ? [`"${word}"`, `"${cue}"`] : [`"${cue}"`, `"${word}"`]
      return { kind: 'negation', reason: `one side negates or retracts what the other states: ${p} vs ${q}` }
    }
  }
  return null
}

/** Opposite poles of one antonym group: approved/rejected, on/off, finished/still running. */
export function antonymSignal(a: Reading, b: Reading): Signal | null {
  for (const [group, pa] of a.poles) {
    const pb = b.poles.get(group)
    if (!pb) continue
    const pure = (ps: typeof pa, pole: number): boolean => ps.every((p) => p.pole === pole)
    for (const pole of [1, -1] as const) {
      const aPure = pure(pa, pole) && pb.some((p) => p.pole === -pole)
      const bPure = pure(pb, pole) && pa.some((p) => p.pole === -pole)
      if (!aPure && !bPure) continue
      if (group === 'preference' && !sharedObject(a, b)) continue
      const wa = (aPure ? pa[0] : pa.find((p) => p.pole === -pole))!.word
      const wb = (bPure ? pb[0] : pb.find((p) => p.pole === -pole))!.word
      return { kind: group === 'preference' ? 'preference' : 'antonym', reason: `opposite ${group}: "${wa}" vs "${wb}"` }
    }
  }
  return null
}

/** Liking and disliking clash only over one thing: a shared word beyond the person's name. */
function sharedObject(a: Reading, b: Reading): boolean {
  const names = new Set([a.tokens[0]?.stem, b.tokens[0]?.stem, ...a.tokens.filter((t) => t.capital).map((t) => t.stem)])
  for (const s of a.content) if (!names.has(s) && hasStem(b.content, s) && !isPreferenceWord(a, s)) return true
  return false
}
function isPreferenceWord(r: Reading, s: string): boolean {
  return r.poles.get('preference')?.some((p) => p.word === s) === true || ['want', 'prefer', 'like', 'love', 'hate', 'dislik', 'alwai'].includes(s)
}

function unmatched(x: Reading, y: Reading): Reading['entities'] {
  return x.entities.filter((e) => !e.stem.split(' ').some((s) => y.tokens.some((t) => sameStem(t.stem, s))))
}

/** Another name in the same place: UPS vs FedEx, Spanish vs English, Kevin vs Omar. */
export function substitutionSignal(a: Reading, b: Reading): Signal | null {
  if (a.past !== b.past || a.additive || b.additive) return null
  const [ua, ub] = [unmatched(a, b), unmatched(b, a)]
  for (const e of ua) {
    if (!e.cls) continue
    const f = ub.find((x) => x.cls === e.cls)
    if (f) return { kind: 'substitution', reason: `different ${e.cls}: "${e.text}" vs "${f.text}"` }
  }
  if (ua.length === 1 && ub.length === 1 && !ua[0]!.cls && !ub[0]!.cls && !abbreviates(ua[0]!.text, ub[0]!.text)) {
    return { kind: 'substitution', reason: `different name in the same place: "${ua[0]!.text}" vs "${ub[0]!.text}"` }
  }
  return null
}

/** "the only admin is Alice" / "admins: Alice and Bob"; "Tuesdays only" / "any day". */
export function exclusiveSignal(a: Reading, b: Reading): Signal | null {
  for (const [x, y] of [[a, b], [b, a]] as const) {
    for (const clause of x.exclusive) {
      if (![...clause].some((s) => hasStem(y.keys, s))) continue
      const extra = unmatched(y, x)
      if (y.universal) return { kind: 'exclusive', reason: 'one side restricts ("only") what the other allows always' }
      if (extra.length) return { kind: 'exclusive', reason: `one side says "only", the other adds "${extra[0]!.text}"` }
    }
  }
  return null
}

/** "DD" for "Datadog", "LH" for "Lufthansa": an all-caps short form whose letters run through the long one. */
function abbreviates(x: string, y: string): boolean {
  const [s, l] = x.length <= y.length ? [x, y] : [y, x]
  if (!/^[A-Z]{2,5}$/.test(s)) return false
  const lower = l.toLowerCase()
  if (lower[0] !== s[0]!.toLowerCase()) return false
  let at = 0
  for (const ch of s.toLowerCase()) {
    at = lower.indexOf(ch, at)
    if (at < 0) return false
    at++
  }
  return true
}
