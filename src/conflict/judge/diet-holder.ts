/**
 * Who a diet or a food is said of, by the personal pronoun of its clause (issue 27, session 12,
 * reach32): "I'm coeliac" / "He wants pizza" speak of two people. Only pronouns say who for sure
 * here: a name may be the one a "she" stands for ("Ana is vegan" / "She ordered the steak").
 */

const FIRST = /^(?:i|i'm|im|i'd|i'll|we|we're|we'd)$/i
const THIRD = /^(?:he|she|they|he's|she's|they're|he'd|she'd|they'd)$/i

/** The first personal pronoun of the clause around `at`, before `at`, lower-cased, or ''. */
function pronoun(norm: string, at: number): string {
  const start = Math.max(...[...norm.slice(0, at).matchAll(/[.;:!?,()–]|\s(?:and|but|so)\s/g)].map((m) => m.index + m[0].length), 0)
  for (const m of norm.slice(start, at).matchAll(/[\p{L}']+/gu)) if (FIRST.test(m[0]) || THIRD.test(m[0])) return m[0].toLowerCase()
  return ''
}

/** Whether the clauses at `atX` of `x` and `atY` of `y` are said of two people: one "I" or "we", the other "he", "she" or "they". */
export function twoHolders(x: string, atX: number, y: string, atY: number): boolean {
  const [p, q] = [pronoun(x, atX), pronoun(y, atY)]
  return p !== '' && q !== '' && FIRST.test(p) !== FIRST.test(q)
}
