/**
 * The free-text detector's confidence scale, apart from the detector so the fact store can read it
 * without loading the detector's word lists (they load on the first read of conflicts).
 *
 * A verdict's confidence is in [0, 1]. It says how sure the model-free rules are that the two
 * texts make claims about one subject and one attribute whose values cannot both hold
 * (docs/conflicts.md, "Confidence").
 */

/**
 * A pair is a conflict, and listed by `facts.conflicts()`, at this confidence or above. 0.8 since
 * issue 27's twelfth round (was 0.6): the checks' bases were raised to 0.85-0.9 so a flag with no
 * weak reading clears it, and one weak reading (a plan, a guessed subject, long texts, ...) takes a
 * flag under it; chosen on dev data only (docs/conflicts.md, "Confidence").
 */
export const DEFAULT_CONFLICT_THRESHOLD = 0.8

/**
 * Pairs judged at this confidence or above are kept by the fact store, so `conflicts({
 * minConfidence })` can list them down to here; the lowest `minConfidence` accepted.
 */
export const KEEP_CONFIDENCE = 0.2
