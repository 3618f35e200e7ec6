import type { Signal } from './signal.js'

// The detector's verdict types, apart from the detector so that the confidence (confidence.ts),
// which the detector calls, can name them without the two importing each other.

/** The free-text detector's answer for one pair. */
export interface TextConflictVerdict {
  readonly conflict: boolean
  /** What kind of contradiction, or why none: `unrelated` when no key entity is shared. */
  readonly kind: Signal['kind'] | 'unrelated' | 'none'
  /** For a person: what disagrees, and the entities the two texts share. */
  readonly reason: string
  /** Key entities (names, identifiers, uncommon words) both texts mention. */
  readonly shared: readonly string[]
  /** How sure the rules are that the texts contradict, in [0, 1]; `conflict` is this at or above the threshold. */
  readonly confidence: number
}

/** Which check found a contradiction (text-detector.ts asks them in this order); `weekday-rule` is the rule against a weekday (dayRule). */
export type CheckName = 'value' | 'negation' | 'antonym' | 'substitution' | 'exclusive' | 'diet' | 'complement' | 'identifier' | 'order' | 'prefix' | 'stance' | 'place' | 'weekday-rule' | 'possession' | 'job'

/** What the checks say before the confidence is weighed: whether a contradiction signal fired, and which check. */
export type RawVerdict = Omit<TextConflictVerdict, 'confidence'> & { readonly check?: CheckName; readonly signal?: Signal }
