import type { Reading } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'
import { modifierQuestion, WHICH_ONE } from '../words/modifier-questions.js'

// Two modifiers of one noun, read by the question each answers (issue 27, events27). The complement
// check flags "the raffle quilt" / "a blue quilt" and "eye surgery" / "cataract surgery" as two answers
// about one thing; they are a purpose beside a colour, a place on the body beside a condition, which one
// thing can carry both. And a value said of "her left cataract surgery" against one said of "her right
// cataract surgery" is said of two occurrences, not twice of one.

const SAYS: Readonly<Record<string, string>> = { color: 'its colour', size: 'its size', material: 'what it is made of', body: 'the part of the body' }

/**
 * Why two modifiers of one noun (a complement reason, `"raffle quilt" vs "blue quilt"`) answer two
 * questions, or null: one describes the thing (its colour, size, material, the body part it is of)
 * and the other does not answer that question. Two colours, two sizes, two body parts stay answers.
 */
export function otherQuestion(reason: string): string | null {
  const q = /"([^"]+)" vs "([^"]+)"/.exec(reason)
  if (!q) return null
  const [ma, mb] = [q[1]!, q[2]!].map((p) => p.toLowerCase().split(/\s+/).at(-2) ?? '')
  const [qa, qb] = [modifierQuestion(ma!), modifierQuestion(mb!)]
  if (qa === qb) return null
  return `"${qa ? ma : mb}" says ${SAYS[(qa ?? qb)!] ?? 'how it looks'}, "${qa ? mb : ma}" which kind it is: one thing may be both`
}

/** At most this many words shared before the noun ("left cataract surgery"): a compound's own words. */
const COMPOUND = 2

/**
 * Why two texts speak of two occurrences of one thing, or null: a noun both name (with the same
 * words before it, up to a compound) follows two words that tell one of them from another ("left" /
 * "right", "morning" / "evening", "first" / "second"), so what each says is of its own occurrence.
 */
export function twoOccurrences(a: Reading, b: Reading, reason: string): string | null {
  // "took the first train" / "the second train": where the words that tell them apart are what
  // differs, they are the answer, not which one it is of.
  const quoted = (/"([^"]+)" vs "([^"]+)"/.exec(reason) ?? []).slice(1).join(' ').toLowerCase().split(/\s+/)
  const joined = (r: Reading, i: number): boolean => i > 0 && /^\s+$/.test(r.norm.slice(r.tokens[i - 1]!.end, r.tokens[i]!.start))
  for (let i = 1; i < a.tokens.length; i++) {
    const t = a.tokens[i]!
    if (!a.content.has(t.stem) || WHICH_ONE.has(t.lower)) continue
    for (let j = 1; j < b.tokens.length; j++) {
      if (!sameStem(b.tokens[j]!.stem, t.stem)) continue
      let [x, y] = [i, j]
      while (i - x < COMPOUND && joined(a, x) && joined(b, y) && a.tokens[x - 1]!.lower === b.tokens[y - 1]!.lower && !WHICH_ONE.has(a.tokens[x - 1]!.lower)) [x, y] = [x - 1, y - 1]
      if (!joined(a, x) || !joined(b, y)) continue
      const [p, q] = [a.tokens[x - 1]!.lower, b.tokens[y - 1]!.lower]
      const set = WHICH_ONE.get(p)
      const noun = a.tokens.slice(x, i + 1).map((u) => u.lower).join(' ')
      if (p !== q && set !== undefined && set === WHICH_ONE.get(q) && !quoted.includes(p) && !quoted.includes(q)) return `the "${p} ${noun}" and the "${q} ${noun}": two of them, each with its own`
    }
  }
  return null
}
