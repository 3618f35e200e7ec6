/**
 * Negation, one list for the whole detector (issue 27: the free-text reader and working memory's
 * claim comparator each kept a list, and the two disagreed). Matched on lower-cased tokens after
 * contractions are expanded ("doesn't" -> "does not").
 */
const NEGATION_WORDS = ['not', 'no', 'never', 'none', 'nothing', 'nobody', 'neither', 'nor', 'without'] as const

/**
 * The free-text reader's negators: the list, and "zero" ("zero downtime" says there is none).
 * Not the claim comparator's: its number reader (read/numbers.ts) takes "zero" as the number 0,
 * so to it "zero open bugs" / "3 open bugs" differ in a value; the list stays as it was so its
 * verdicts do not move.
 */
export const NEGATORS: ReadonlySet<string> = new Set([...NEGATION_WORDS, 'zero'])

/**
 * The claim comparator's negators: the list, and the two one-word markers its own rewriting can
 * leave: "nolonger" (its phrase list rewrites "no longer" to it, words/phrases.ts) and "cannot".
 * The free-text reader rewrites "no longer" to "not" and "cannot" to "can not" itself, so it does
 * not look for either marker; they stay off its list so nothing it reads changes.
 */
export const CLAIM_NEGATORS: ReadonlySet<string> = new Set([...NEGATION_WORDS, 'nolonger', 'cannot'])

/** Prefixes that negate the word they attach to ("unlocked", "insecure", "irreversible"). */
export const NEGATING_PREFIXES: readonly string[] = ['un', 'in', 'im', 'ir', 'il', 'dis', 'non']
