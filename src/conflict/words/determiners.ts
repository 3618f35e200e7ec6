/**
 * Determiners: the words that open a noun phrase ("the", "my", "this"). One list for the detector
 * (issue 27: seven readers and checks each kept a slightly different copy). The parts are named
 * so that a set a rule needs is built from them, and a set that differs says why beside it.
 * Matched on lower-cased tokens; the clitic "s" of "the council's" is a token of its own and not
 * listed here (judge/verb-object.ts adds it where it means "one particular thing").
 */
const ARTICLES = ['the', 'a', 'an'] as const
export const POSSESSIVE_WORDS = ['my', 'your', 'our', 'their', 'his', 'her', 'its'] as const
export const POSSESSIVES: ReadonlySet<string> = new Set(POSSESSIVE_WORDS)
const NEAR = ['this', 'that'] as const
const PLURAL_DEMONSTRATIVES = ['these', 'those'] as const

/**
 * The determiners of one thing: articles, possessives, "this", "that". What most rules mean by "a
 * determiner before a noun" ("the 8:15 train", "my 3pm call", "the cancellation of").
 */
export const DETERMINER_WORDS: readonly string[] = [...ARTICLES, ...POSSESSIVE_WORDS, ...NEAR]
export const DETERMINERS: ReadonlySet<string> = new Set(DETERMINER_WORDS)

/**
 * Determiners of one particular thing, or things: not "a", "an", "any" ("never cooked a meal"
 * denies every meal; "never cooked the meal" one).
 */
export const DEFINITE: ReadonlySet<string> = new Set(['the', ...POSSESSIVE_WORDS, ...NEAR, ...PLURAL_DEMONSTRATIVES])

/**
 * Determiners and quantifiers a noun phrase may open with, of one thing or many: what a rule skips
 * to reach a phrase's noun or a subject's ("all the notes", "each room", "both teams"), and what
 * tells a verb from a noun before it ("request a room", "squash the commits").
 */
export const QUANTIFIED_DETERMINERS: ReadonlySet<string> = new Set([...DETERMINER_WORDS, ...PLURAL_DEMONSTRATIVES, 'some', 'any', 'all', 'every', 'each', 'both'])

/**
 * Words after which the next word is a noun (read/part-of-speech.ts): not "that", which also
 * opens a clause whose next word is a verb ("a class that programs"); nor "some", "any", "all",
 * "both", which also stand alone before a verb ("they all program").
 */
export const NOUN_MARKERS: ReadonlySet<string> = new Set([...ARTICLES, ...POSSESSIVE_WORDS, 'this', ...PLURAL_DEMONSTRATIVES, 'every', 'each'])

/** A list as a regular expression's alternatives, longest first (so "an" is tried before "a"). */
export const alternatives = (words: Iterable<string>): string => [...words].sort((x, y) => y.length - x.length).join('|')
