/**
 * The first index of `list`, sorted by `compare`, whose element does not compare below `x`
 * (`list.length` when every element does): where `x` is, or would be inserted, by halving.
 */
export function lowerBound<T, X>(list: readonly T[], x: X, compare: (item: T, x: X) => number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(list[mid]!, x) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}
