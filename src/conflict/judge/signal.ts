import type { Reading } from '../read/reading.js'

/** One reason two related observations cannot both hold now. */
export interface Signal {
  readonly kind: 'value' | 'negation' | 'antonym' | 'preference' | 'substitution' | 'exclusive' | 'diet'
  readonly reason: string
  /** For substitutions: the names differ in a modifier of the subject (Alice's / Bob's, staging / production). */
  readonly modifier?: boolean
  /** For substitutions: a modifier and a name both differ. */
  readonly twice?: boolean
  /** For values: how many kinds of value differ, and whether one of them is a period (last year / this year). */
  readonly kinds?: number
  readonly period?: boolean
  /** For values: where each clashing value stands in its reading's `norm` (-1: not known). */
  readonly at?: readonly [number, number]
  /** For a name against a name: where each stands in its reading's `norm` (the confidence asks whether it is a value there). */
  /** For negations: the shared word is a noun on one side and a verb on the other ("the PhD program" / "never programmed"). */
  readonly otherSense?: boolean
  /** For negations: the negation reaches another object than the one the other side states (negation-object.ts, rule 31). */
  readonly otherObject?: boolean
  readonly names?: readonly [{ readonly text: string; readonly start: number }, { readonly text: string; readonly start: number }]
  /**
   * For substitutions: two names in two roles (judge/name-role.ts), a home and a trip, a person and
   * a place. Never a flag itself, but still a difference: beside another one it tells two subjects
   * or two events apart, and no other check may flag these two names.
   */
  readonly roles?: boolean
}

/** Whether one text speaks of the past and the other of the present, so their values are both true. */
export function differentTimes(a: Reading, b: Reading): boolean {
  return a.past !== b.past || (a.present && !b.present && b.simplePast) || (b.present && !a.present && a.simplePast)
}
