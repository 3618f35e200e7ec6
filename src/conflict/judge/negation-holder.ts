import type { Reading } from '../read/reading.js'
import { hasStem } from '../read/same-stem.js'

type Token = Reading['tokens'][number]

// "is a dad with no children": after a copula the noun is the subject itself, who holds the lack.
const COPULA = /^(?:is|are|am|was|were|be|been|being|'s|'re|'m)$/

/**
 * Who lacks what "with no X" / "without X" negates (issue 27, session 10, obs27): the noun right
 * before it. "bought the land from a retiring neighbour with no children" says the neighbour has
 * none, not the one who bought; "lives in a flat with no balcony" says it of the flat. Returns that
 * noun when it is an object of the clause (not its subject, not after a copula), else undefined.
 */
export function negationHolder(x: Reading, head: Token): Token | undefined {
  const i = x.tokens.indexOf(head)
  const at = head.lower === 'without' ? i : x.tokens[i - 1]?.lower === 'with' ? i - 1 : -1
  if (at < 2) return undefined
  const holder = x.tokens[at - 1]!
  if (!x.content.has(holder.stem) || /^\d/.test(holder.lower)) return undefined
  // Between the holder and the negation nothing but a space: "a neighbour with no children".
  if (!/^\s+$/.test(x.norm.slice(holder.end, x.tokens[at]!.start))) return undefined
  // After a copula anywhere before it in its sentence the "with" phrase may be the subject's own
  // ("the cottage is near Bancroft on a small lake with no internet": the cottage has none).
  const sentenceStart = Math.max(...[...x.norm.slice(0, holder.start).matchAll(/[.;!?]/g)].map((m) => m.index + 1), 0)
  if (x.tokens.some((t) => t.start >= sentenceStart && t.start < holder.start && COPULA.test(t.lower))) return undefined
  // The clause's first word is its subject: "Colm, with no car, cycles" keeps the lack on Colm.
  const first = x.tokens.find((t) => x.content.has(t.stem))
  return first === holder ? undefined : holder
}

/**
 * Whether a negation held by another noun than the subject is met by a text that does not name
 * that noun ("a neighbour with no children" / "Bram has two children"): two holders, two claims.
 */
export function heldByAnother(x: Reading, head: Token, y: Reading): boolean {
  const holder = negationHolder(x, head)
  return holder !== undefined && !hasStem(y.content, holder.stem)
}
