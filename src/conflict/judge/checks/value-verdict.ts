import type { Slot } from '../../read/slot.js'

/** How two slots of one family compare (slot-compare.ts; each kind's rules in times.ts, dates.ts, quantities.ts). */
export type Verdict = 'equal' | 'differ' | 'incomparable'

/** Two slots that disagree, for the reason shown to a person. */
export interface Clash {
  readonly kind: string
  readonly a: string
  readonly b: string
  /** The two slots, to look at what each is attached to. */
  readonly slots: readonly [Slot, Slot]
}
