import { NEGATING_PREFIXES } from '../words/negation.js'
import type { Unit } from '../read/claim.js'

/** Two units fill the same slot: same canonical word, same value kind, one polarity group, or a negating prefix apart. */
export function sameSlot(a: Unit, b: Unit): boolean {
  if (a.kind !== b.kind) return false
  if (a.canon === b.canon) return true
  if (a.kind === 'value') return false
  return sharedGroup(a, b) !== null || prefixNegated(a, b) !== 0
}

/** The first polarity group both units belong to. */
export function sharedGroup(a: Unit, b: Unit): string | null {
  for (const p of a.polarity) if (b.polarity.some((q) => q.group === p.group)) return p.group
  return null
}

/** 1 when `b` is `a` with a negating prefix ("unlocked"/"locked"), -1 the other way round, else 0. */
export function prefixNegated(a: Unit, b: Unit): number {
  const [x, y] = [a.stem, b.stem]
  const [lx, ly] = [a.surface.toLowerCase(), b.surface.toLowerCase()]
  for (const p of NEGATING_PREFIXES) {
    if ((y === p + x || ly === p + lx) && x.length >= 3) return 1
    if ((x === p + y || lx === p + ly) && y.length >= 3) return -1
  }
  return 0
}

export interface Alignment {
  /** Index pairs (into a, into b) in order, longest common subsequence under `sameSlot`. */
  readonly pairs: ReadonlyArray<readonly [number, number]>
  /** Unmatched stretches between consecutive pairs: `gaps[k]` lies before `pairs[k]` (the last one after all pairs). */
  readonly gaps: ReadonlyArray<{ readonly a: readonly number[]; readonly b: readonly number[] }>
}

/** Aligns two unit sequences (they are short: an observation is a sentence or two). */
export function align(a: readonly Unit[], b: readonly Unit[]): Alignment {
  const n = a.length
  const m = b.length
  const w = m + 1
  const dp = new Uint16Array((n + 1) * w)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      dp[i * w + j] = sameSlot(a[i]!, b[j]!) ? dp[(i + 1) * w + j + 1]! + 1 : Math.max(dp[(i + 1) * w + j]!, dp[i * w + j + 1]!)
    }
  }
  const pairs: Array<[number, number]> = []
  const gaps: Array<{ a: number[]; b: number[] }> = [{ a: [], b: [] }]
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (sameSlot(a[i]!, b[j]!) && dp[i * w + j] === dp[(i + 1) * w + j + 1]! + 1) {
      pairs.push([i, j])
      gaps.push({ a: [], b: [] })
      i++
      j++
    } else if (dp[(i + 1) * w + j]! >= dp[i * w + j + 1]!) {
      gaps.at(-1)!.a.push(i++)
    } else {
      gaps.at(-1)!.b.push(j++)
    }
  }
  while (i < n) gaps.at(-1)!.a.push(i++)
  while (j < m) gaps.at(-1)!.b.push(j++)
  return { pairs, gaps }
}
