import type { Zone } from './time-zones.js'

/**
 * The values a free-text observation states, normalized so they compare by meaning: clock times
 * carry the text's time zone, quantities are in base units (°C, bytes, bit/s, m/s, metres,
 * seconds), relative dates are resolved against a date the text states. A slot's `kind` says
 * which slots can be compared at all.
 */
/** A bound rather than a value: `max` for "under 6 hours", `min` for "at least 12". */
export type Bound = 'max' | 'min'

export type Slot =
  | { readonly kind: 'time'; readonly minutes: readonly number[]; readonly zone: Zone | null; readonly text: string; readonly edge?: 'start' | 'end' }
  | { readonly kind: 'span'; readonly start: readonly number[]; readonly end: readonly number[]; readonly zone: Zone | null; readonly text: string }
  /** A calendar date, or with `end` a range of days ("May 12–14": m 5, d 12, end 5/14). */
  | { readonly kind: 'date'; readonly y?: number; readonly m?: number; readonly d?: number; readonly wd?: number; readonly q?: number; readonly end?: { readonly m: number; readonly d: number }; readonly wds?: readonly number[]; readonly text: string }
  | { readonly kind: 'reldate'; readonly unit: string; readonly offset: number; readonly text: string }
  | { readonly kind: 'money'; readonly amount: number; readonly currency: string | null; readonly per?: string | null; readonly bound?: Bound; readonly text: string }
  | { readonly kind: 'percent'; readonly value: number; readonly text: string }
  /** A quantity; `bases` holds each reading (1 GB is 10^9 or 2^30 bytes). */
  /** With `range`, `bases` are the two ends of a range ("10-15 min"). */
  | { readonly kind: 'measure'; readonly dim: string; readonly bases: readonly number[]; readonly bound?: Bound; readonly range?: boolean; readonly text: string }
  | { readonly kind: 'count'; readonly value: number; readonly unit: string; readonly bound?: Bound; readonly text: string }
  | { readonly kind: 'freq'; readonly value: number; readonly per: string; readonly text: string }
  | { readonly kind: 'version'; readonly parts: readonly number[]; readonly text: string }

export interface Slots {
  readonly slots: readonly Slot[]
  /** Where each slot starts in the normalized text (same order as `slots`; -1 for resolved dates). */
  readonly at: ReadonlyMap<Slot, number>
  /** The text hedges its amounts ("about", "~", "just under"): compare with a tolerance. */
  readonly approximate: boolean
}
