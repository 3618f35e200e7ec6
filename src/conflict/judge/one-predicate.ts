import type { Reading } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'
import type { RawVerdict } from './verdict.js'

// Another modifier of one noun is "a different answer" only to one question: "the flat is on the
// ground floor" / "the flat is on the fifth floor" ask where it is twice. Said after two predicates
// ("Ola is a qualified lifeguard" / "Ola renewed her pool lifeguard certificate", "can pick a
// pin-tumbler lock" / "is still slow on dimple locks", the starter as the subject of one text and
// the object of "fed" in the other) the two modifiers answer two questions, and both may hold.
// pairs39, issue 27 session 14: the complement check's dev flags were 2 true, 3 false (dev5, dev8).

/** Words that ask no question of their own: determiners, prepositions, auxiliaries, modals, "still". */
const NO_QUESTION = /^(?:the|a|an|my|his|her|their|our|its|your|this|that|on|in|to|at|of|for|about|with|from|by|as|still|now|just|can|could|will|would|should|may|might|must|do|does|did|has|have|had|s)$/
/** A copula, or a verb of change that ends in the state a copula states ("moved to the payments team"). */
const STATE = /^(?:is|are|was|were|be|been|am|moved|switched|transferred|joined|became|went)$/

/** The words before position `i` that say what is asked of the subject: back to the clause's start or the last shared key. */
function predicateBefore(r: Reading, i: number, shared: readonly string[], head: string): Reading['tokens'][number][] {
  const out: Reading['tokens'][number][] = []
  for (let k = i - 1; k >= 0; k--) {
    const t = r.tokens[k]!
    if (/[.;!?,:–()]/.test(r.norm.slice(t.end, r.tokens[k + 1]!.start))) break
    if (shared.some((s) => sameStem(s, t.stem)) && !sameStem(t.stem, head)) break
    if (!NO_QUESTION.test(t.lower)) out.unshift(t)
  }
  return out
}

/** Where the modifier `mod` stands right before the noun `head` (both as the reason quotes them), or -1. */
function modifierAt(r: Reading, mod: string, head: string): number {
  return r.tokens.findIndex((t, k) => t.lower === mod && r.tokens[k + 1]?.lower === head)
}

/**
 * Why a complement flag's two modifiers answer two questions, or null: the words that say what is
 * asked of the subject before each modified noun (a predicate, or none where the noun is the
 * subject itself) share nothing. Unknown where either modifier is not found.
 */
export function twoPredicates(raw: RawVerdict, a: Reading, b: Reading): string | null {
  if (raw.check !== 'complement') return null
  const q = /"(\S+) (\S+)" vs "(\S+) (\S+)"/.exec(raw.reason)
  if (!q) return null
  const [ia, ib] = [modifierAt(a, q[1]!, q[2]!), modifierAt(b, q[3]!, q[4]!)]
  if (ia < 0 || ib < 0) return null
  const [pa, pb] = [predicateBefore(a, ia, raw.shared, a.tokens[ia + 1]!.stem), predicateBefore(b, ib, raw.shared, b.tokens[ib + 1]!.stem)]
  if (pa.length === 0 && pb.length === 0) return null
  const asked = (t: Reading['tokens'][number]): string => (STATE.test(t.lower) ? 'be' : t.stem)
  if (pa.some((x) => pb.some((y) => sameStem(asked(x), asked(y))))) return null
  const said = (p: readonly Reading['tokens'][number][]): string => (p.length ? `"${p.map((t) => t.lower).join(' ')}"` : 'its subject')
  return `two questions (${said(pa)} / ${said(pb)}): both may hold`
}
