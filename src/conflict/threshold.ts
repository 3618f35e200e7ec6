/**
 * The free-text detector's confidence scale, apart from the detector so the fact store can read it
 * without loading the detector's word lists (they load on the first read of conflicts).
 *
 * A verdict's confidence is in [0, 1]. It says how sure the model-free rules are that the two
 * texts make claims about one subject and one attribute whose values cannot both hold
 * (docs/conflicts.md, "Confidence").
 */

/** A pair is a conflict, and listed by `facts.conflicts()`, at this confidence or above. */
export const DEFAULT_CONFLICT_THRESHOLD = 0.6

/**
 * Pairs judged at this confidence or above are kept by the fact store, so `conflicts({
 * minConfidence })` can list them down to here; the lowest `minConfidence` accepted.
 */
export const KEEP_CONFIDENCE = 0.2
