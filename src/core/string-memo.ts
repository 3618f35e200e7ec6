/**
 * A function of a string, remembered for the strings it has seen. Texts that recur (words, names,
 * subjects, predicates) are worked out once; the memory is bounded (cleared whole when full, so a
 * stream of unique strings such as ids cannot grow it without limit), and a string longer than
 * `longest` (a sentence, seldom said twice) is worked out each time rather than kept as a miss.
 * `compute` must not return undefined (it would be worked out again on every call).
 */
export function memoByString<T>(compute: (s: string) => T, options: { readonly max?: number; readonly longest?: number } = {}): (s: string) => T {
  const max = options.max ?? 50_000
  const longest = options.longest ?? Infinity
  const memo = new Map<string, T>()
  return (s) => {
    if (s.length > longest) return compute(s)
    let v = memo.get(s)
    if (v === undefined) {
      v = compute(s)
      if (memo.size >= max) memo.clear()
      memo.set(s, v)
    }
    return v
  }
}
