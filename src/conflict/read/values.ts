/**
 * Typed values found in an observation (times, dates, money, quantities...), normalized so that
 * equal amounts written differently compare equal: "3pm" = "15:00", "$5" = "five dollars",
 * "2 hours" = "120 minutes", "March 5, 2025" = "2025-03-05".
 */
export type Value =
  /** Minutes after midnight; several candidates when the text leaves am/pm open ("at 9"). */
  | { readonly type: 'time'; readonly minutes: readonly number[] }
  | { readonly type: 'date'; readonly y?: number; readonly m?: number; readonly d?: number; readonly wd?: number; readonly q?: number }
  /** "this week" (offset 0), "next month" (1), "yesterday" (day, -1). */
  | { readonly type: 'reldate'; readonly unit: string; readonly offset: number }
  | { readonly type: 'money'; readonly amount: number; readonly currency: string | null; readonly per: string | null }
  | { readonly type: 'percent'; readonly value: number }
  /** A physical quantity in base units: seconds, bytes, metres, grams. */
  | { readonly type: 'measure'; readonly dim: 'duration' | 'size' | 'length' | 'mass' | 'volume' | 'pressure' | 'power' | 'energy' | 'area'; readonly base: number; readonly per: string | null }
  /** A bare number and what it counts ("3 nodes", "Node 18"); `ordinal` for "4th floor". */
  | { readonly type: 'count'; readonly value: number; readonly unit: string; readonly ordinal: boolean; readonly per: string | null }
  | { readonly type: 'version'; readonly parts: readonly number[] }

export interface FoundValue {
  readonly value: Value
  /** The text it was read from, for conflict reasons. */
  readonly text: string
  readonly start: number
  readonly end: number
}

/** Values with the same key fill the same kind of slot and can be compared. */
export function valueKey(v: Value): string {
  switch (v.type) {
    case 'measure':
      return `measure:${v.dim}`
    case 'count':
      return `${v.ordinal ? 'ord' : 'count'}:${v.unit}`
    default:
      return v.type
  }
}

export type Comparison = 'equal' | 'differ' | 'incomparable'

const near = (a: number, b: number, rel = 0.005): boolean => a === b || Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b))

/** Compares two values of the same key. */
/** The calendar parts two dates can be compared on (year, month, day, weekday, quarter). */
export interface DateParts {
  readonly y?: number
  readonly m?: number
  readonly d?: number
  readonly wd?: number
  readonly q?: number
}

/** Two dates agree when every part both give is the same; with no part in common they cannot be compared. */
export function compareDateParts(a: DateParts, b: DateParts): Comparison {
  let shared = 0
  for (const k of ['y', 'm', 'd', 'wd', 'q'] as const) {
    if (a[k] === undefined || b[k] === undefined) continue
    shared++
    if (a[k] !== b[k]) return 'differ'
  }
  return shared ? 'equal' : 'incomparable'
}

export function compareValues(a: Value, b: Value): Comparison {
  if (valueKey(a) !== valueKey(b)) return 'incomparable'
  switch (a.type) {
    case 'time': {
      const bm = (b as typeof a).minutes
      return a.minutes.some((m) => bm.includes(m)) ? 'equal' : 'differ'
    }
    case 'date':
      return compareDateParts(a, b as typeof a)
    case 'reldate': {
      const o = b as typeof a
      if (a.unit !== o.unit) return 'incomparable'
      return a.offset === o.offset ? 'equal' : 'differ'
    }
    case 'money': {
      const o = b as typeof a
      if (a.per && o.per && a.per !== o.per) return 'incomparable'
      if (a.currency && o.currency && a.currency !== o.currency) return 'differ'
      return near(a.amount, o.amount, 1e-9) ? 'equal' : 'differ'
    }
    case 'percent':
      return near(a.value, (b as typeof a).value, 1e-9) ? 'equal' : 'differ'
    case 'measure': {
      const o = b as typeof a
      if (a.per && o.per && a.per !== o.per) return 'incomparable'
      return near(a.base, o.base) ? 'equal' : 'differ'
    }
    case 'count': {
      const o = b as typeof a
      if (a.per && o.per && a.per !== o.per) return 'incomparable'
      return near(a.value, o.value, 1e-9) ? 'equal' : 'differ'
    }
    case 'version': {
      const o = (b as typeof a).parts
      const n = Math.max(a.parts.length, o.length)
      for (let i = 0; i < n; i++) if ((a.parts[i] ?? 0) !== (o[i] ?? 0)) return 'differ'
      return 'equal'
    }
  }
}
