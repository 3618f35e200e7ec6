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

/**
 * Verbs of a state, not of an event, in any tense (issue 27, event27): "lived in Leeds", "owned a
 * Volvo", "loved jazz", "worked at Google" say what held over a time, so two of them with two
 * values can contradict; "painted a lake", "took her niece to the zoo" tell one occurrence each.
 * A verb class, not a list of any text's words: being, having, knowing, feeling toward, holding a
 * place or a role.
 */
export const STATE_VERBS: ReadonlySet<string> = new Set(
  ('be was were been is are am have has had own owned belong belonged know knew known live lived ' +
    'love loved like liked hate hated prefer preferred enjoy enjoyed want wanted need needed believe believed ' +
    'seem seemed remain remained stay stayed work worked reside resided contain contained cost weigh weighed ' +
    'mean meant consist consisted depend depended deserve deserved resemble resembled exist existed lack lacked ' +
    'did do does used based called named').split(' '),
)

/**
 * Nouns that name one occasion of a life, said with "the" or someone's ("the wedding", "her
 * graduation", "our honeymoon"): two events told of it are told of one occasion, so their details
 * can contradict. A class of occasions, not any text's words.
 */
export const OCCASION_NOUNS: RegExp =
  /\b(?:the|his|her|their|my|our|your|\w+['’]s)\s+(?:\w+\s+)?(?:wedding|funeral|birthday|graduation|anniversary|honeymoon|ceremony|party|reunion|trip|vacation|holiday|journey|visit|exam|test|interview|surgery|operation|race|marathon|match|game|final|concert|show|premiere|launch|debut|recital|audition|competition|tournament|election|date|move|farewell|send-off)\b/gi

/**
 * What makes one occurrence of a kind of event the only one: "first", "last" (not "last week"),
 * "only", "one-time", "once" ("her first marathon", "the last time", "the only trip").
 */
export const ONE_OF_A_KIND: RegExp =
  /\b(?:first|only|one-time|(?:very\s+)?last(?!\s+(?:week(?:end)?|month|year|night|morning|afternoon|evening|(?:mon|tues|wednes|thurs|fri|satur|sun)day)))\b/i

/** Words that say an event recurs: a habit, not one occurrence ("every Sunday", "twice a week", "usually"). */
export const RECURRING: RegExp =
  /\b(?:every|each|usually|often|always|sometimes|regularly|weekly|daily|monthly|nightly|(?:once|twice|\w+\s+times)\s+(?:a|an|per)\s+\w+|on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days|mornings|evenings|weekends)\b/i

/**
 * "had" with a noun of something that happens is an event, not a possession: "had lunch at
 * Nando's", "had a party", "had coffee with Ana" (a light verb), against "had a cat". Meals,
 * gatherings and sessions: a class of nouns, not any text's words.
 */
export const LIGHT_VERB_EVENT: RegExp =
  /\b(?:had|took|gave|threw|hosted)\s+(?:a\s+|an\s+|the\s+|his\s+|her\s+|their\s+|my\s+|our\s+)?(?:\w+\s+)?(?:breakfast|brunch|lunch|dinner|supper|coffee|drinks?|picnic|barbecue|bbq|party|meeting|chat|call|session|lesson|class|walk|swim|nap|bath|shower|trip|ride|tour|break)\b/i
