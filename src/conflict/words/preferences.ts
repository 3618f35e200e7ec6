/**
 * Liking and disliking. They contradict only when they are about the same thing, which the
 * detector checks: "loves spicy food" vs "can't handle heat" needs the spice group too.
 */
export const LIKE = 'like likes liked love loves loved prefer prefers preferred want wants wanted enjoy enjoys adore fan favorite favourite always'
/** The disliking words that are verbs, in their base form (see STANCE_VERBS). */
const DISLIKE_VERBS = 'hate dislike detest loathe avoid refuse'
export const DISLIKE = `${DISLIKE_VERBS} hates hated dislikes detests avoids refuses allergic terrified scared afraid`

/** Phrases that say the same as a dislike ("can't stand", "won't eat", "can't handle"). */
export const DISLIKE_PHRASES: RegExp = /\b(?:can not|will not|does not|do not)\s+(?:stand|handle|do|eat|drink|tolerate|bear)\b|\bnot\s+a\s+fan\b|\bstrains?\b/gi

/**
 * The liking and disliking words that are verbs (not "favorite", "allergic", "fan"): a verb needs
 * someone before it who likes, so after a determiner it names a kind of thing ("a love letter").
 */
export const STANCE_VERBS = `like love prefer want enjoy adore ${DISLIKE_VERBS}`
