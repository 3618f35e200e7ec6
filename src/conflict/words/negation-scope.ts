import { stem } from '../read/stem.js'

/**
 * What a negation is said of (issue 27, negation scope). A negator governs the verb right after it
 * and that verb's object; these lists name the verbs that take the negation for themselves, so the
 * words after them are not denied. Matched on stems.
 */
// Bare forms: a stem covers the inflections ("regretted", "forgot", "told"; "tried" has its own).
const stems = (words: string): ReadonlySet<string> => new Set(words.split(' ').map(stem))

/**
 * Verbs of attitude or aspect. Before another verb they take the negation: "does not regret
 * opening his pharmacy" says he opened it; "didn't mind waiting", "never forgot to call", "hasn't
 * started packing", "didn't try to fix it". Only before a verb ("-ing", or "to" and a verb): "never
 * tried sushi" still denies the sushi.
 */
export const ATTITUDE_VERBS: ReadonlySet<string> = stems('regret mind forget start begin try tried attempt bother')

/** Telling apart: "can't tell a godwit from a sandpiper" denies telling them apart, not the godwit. Only with "from" or "apart" after. */
export const TELLING_APART: ReadonlySet<string> = stems('tell distinguish')

/**
 * Change verbs. A negated change asserts that nothing changed ("have not changed their Lisbon
 * booking": the booking stands), so only the change is denied. Not "move" or "switch": "hasn't
 * moved to Berlin" denies the place.
 */
export const CHANGE_VERBS: ReadonlySet<string> = stems('change alter modify amend adjust update edit revise reschedule')

/** Particles of a phrasal verb: "get out of a chair" is not the "out" of "out of habit" unless the verb is the same. */
export const PARTICLES: ReadonlySet<string> = new Set(['out', 'up', 'off', 'down', 'away', 'back', 'over'])

/**
 * Verbs of coming to know. Denied, they deny what someone knew, not what is: "I didn't know you were
 * doing a PhD" says the PhD is so; "Norman didn't know about it" says what Norman knew (store29,
 * issue 27). "Know" does so before a clause or "about" only: before an object or "how to"
 * ("doesn't know Spanish", "doesn't know how to drive") it still denies a skill. Realising and
 * noticing take no skill, so they always do.
 */
export const KNOWING_VERBS: ReadonlySet<string> = stems('know knew')
export const REALISING_VERBS: ReadonlySet<string> = stems('realise realize notice')

/** What opens the clause or topic after "know": a subject pronoun, "that", "about", a wh-word. */
export const KNOWN_CLAUSE = /^(?:i|you|he|she|it|we|they|that|about|what|who|where|when|why|whether|if)$/

/**
 * Verbs of saying, and words of being sure. Denied, they deny a saying or a certainty, not what
 * would be said: "I'm not claiming the bridge is unsafe" leaves the bridge open, as does "not sure
 * the bridge is safe" (public30, issue 27: ProSeCCo's "is not saying that ..."). Always, whatever
 * follows: what a saying takes is the thing said.
 */
export const SAYING_WORDS: ReadonlySet<string> = stems('say says said saying claim suggest imply argue insist pretend sure certain convinced')

/** Universal quantifiers. Denied ("not all", "not every"), only the universal is: "not all vans are electric" grants that some are. */
export const UNIVERSAL = /^(?:all|every|everyone|everybody|everything|each)$/

/** Verbs of remembering. Denied, they deny a memory, not what is remembered: "can't remember the trip" says nothing against the trip. Kept with the saying words' rule. */
export const REMEMBERING_VERBS: ReadonlySet<string> = stems('remember remembers remembering recall recalls recalling recollect')
