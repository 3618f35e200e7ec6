// Verbs of a told event (issue 27, eleventh round): the past tense that makes an amount one
// occurrence's, and the verbs that carry an amount as its measure.

/**
 * Simple pasts that no ending shows and that read/subject.ts's IRREGULAR_PAST leaves out: those
 * that end in "n" (it skips participles such as "broken") and those spelled as the present.
 */
export const PAST_EVENT_EXTRA: ReadonlySet<string> = new Set(
  'ran won began swam drew flew threw hurt quit shut split put set let'.split(' '),
)

/**
 * Verbs that measure: the amount after them is what the thing cost, took or weighed, so two of
 * them ("paid $40" / "cost $45") answer one question, whichever verb each text uses.
 */
export const MEASURE_VERBS: ReadonlySet<string> = new Set(
  ('cost costed paid spent took lasted weighed measured charged earned made scored raised saved owed ' +
    'totaled totalled averaged priced valued billed got').split(' '),
)
