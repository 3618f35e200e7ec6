/** Stems match when equal, or when one extends the other by a suffix the stemmer kept ("allerg"/"allergi"). */
export function sameStem(x: string, y: string): boolean {
  if (x === y) return true
  const [s, l] = x.length <= y.length ? [x, y] : [y, x]
  return s.length >= 5 && l.startsWith(s)
}

/** Whether `set` holds a stem matching `s`. */
export function hasStem(set: Iterable<string>, s: string): boolean {
  for (const x of set) if (sameStem(x, s)) return true
  return false
}
