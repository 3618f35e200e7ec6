/**
 * Whether the word at `at` is one item of a list of three or more ("Wren, Gareth, Elin and Wren's
 * father are coming"): a list names several people or things at once, so a relative in it answers
 * no "who is X's ..." question (session 12, anchor32). Items are what commas and "and" / "or"
 * part in the word's clause; the items next to the word's own must be short (three words at most),
 * the list's last item may run on into the verb, and the word must open its item but for an owner
 * ("Wren's father"). "Wren, who farms in Devon, has a daughter" is no list: its middle is a clause.
 */
export function inList(text: string, at: number): boolean {
  const start = Math.max(...[...'.;!?:()'].map((c) => text.lastIndexOf(c, at - 1))) + 1
  const ends = [...'.;!?:()'].map((c) => text.indexOf(c, at)).filter((i) => i >= 0)
  const clause = text.slice(start, ends.length ? Math.min(...ends) : text.length)
  const items: Array<{ from: number; words: number }> = []
  const sep = /\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+/gi
  let from = 0
  for (const m of clause.matchAll(sep)) {
    items.push({ from, words: words(clause.slice(from, m.index)) })
    from = m.index + m[0].length
  }
  items.push({ from, words: words(clause.slice(from)) })
  const i = items.findLastIndex((x) => x.from <= at - start)
  if (i < 0 || items.length < 3 || words(clause.slice(items[i]!.from, at - start)) > 1) return false
  const short = (j: number): boolean => items[j]!.words <= 3
  let before = 0
  for (let j = i - 1; j >= 0 && short(j); j--) before++
  let after = 0
  for (let j = i + 1; j < items.length && (short(j) || j === items.length - 1); j++) after++
  return before + after >= 2 && (short(i) || i === items.length - 1)
}

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length
