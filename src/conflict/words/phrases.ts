/**
 * Phrasal verbs and set phrases that say what a one-word verb says, rewritten to it so the
 * attribute a value is attached to reads the same on both sides: "gets in at 9:15" is "arrives
 * at 9:15", "open until 9pm" is "closes at 9pm", "starting to learn Rust" is being a beginner.
 */
export const PHRASAL_VERBS: ReadonlyArray<readonly [RegExp, string | ((m: string) => string)]> = [
  [/\b(?:gets|got|get|getting)\s+in(?=\s+(?:at|around|about|by|on|before|after|early|late|\d))/gi, 'arrives'],
  [/\b(?:touch(?:es|ed|ing)?)\s+down\b/gi, 'lands'],
  [/\b(?:kicks|kicked|kick|kicking)\s+off\b/gi, 'starts'],
  // "the lease runs out in September": it expires then.
  [/\b(?:runs|ran|run|running)\s+out\b(?!\s+of\b)/gi, 'expires'],
  [/\b(?:showed|shows|show|showing|turned|turns|turn|turning)\s+up\b/gi, 'came'],
  // "doesn't open till 6" is "opens at 6".
  [/\b(?:does|do|will|is|are)\s+not\s+open\s+(?:until|till|til|before)\s+(?=(?:\d|noon))/gi, 'opens at '],
  [/\b(?:takes|took|take|taking)\s+off(?=\s+(?:at|around|about|by|on|before|after|\d))/gi, 'departs'],
  [/\b(?:is\s+|are\s+|stays\s+|stay\s+)?open(?:ed)?\s+(?:until|till|til|to|through)\s+(?=(?:\d|noon|midnight))/gi, 'closes at '],
  [/\b(?:is\s+|are\s+)?open(?:ed)?\s+from\s+(?=\d)(?![^,.;]*\b(?:to|until|till|–|-)\b)/gi, 'opens at '],
  // "has never written a line of Rust", "never used Figma": no experience at all.
  [/\b(?:has|have|had)\s+never\s+(?:written|used|touched|done|played|worked\s+with|coded\s+in|programmed\s+in|driven|cooked|skied|swum)\b/gi, (m) => `beginner, ${m.replace(/^\w+\s+/, '')}`],
  // "has been to Rome (once)" is a visit, not where someone is: the experiential perfect of "be"
  // with "to" (sixth round: "Gina has been to Rome once" against "Gina lost her job at Door Dash").
  [/\b(?:has|have|had|'s|'ve|'d)\s+(?:never\s+|ever\s+|already\s+|once\s+|twice\s+)?been\s+to\b(?=\s+(?:the\s+)?\p{Lu})/giu, (m) => m.replace(/been\s+to$/i, 'visited')],
  // Ways of saying when someone is at their best: a night owl is late, an early bird early.
  [/\bnight\s+owl\b|\bevening\s+person\b/gi, 'late'],
  [/\bearly\s+(?:bird|riser)\b|\bmorning\s+person\b/gi, 'early'],
  [/\b(?:just\s+)?(?:starting|started|beginning|began|begun|learning)\s+to\s+learn\b|\b(?:is|am|are)\s+(?:still\s+)?learning\b|\bnew\s+to\b|\b(?:knows?|speaks?)\s+(?:only\s+)?(?:a\s+few|a\s+couple\s+of|some\s+basic)\s+words\b|\b(?:speaks?|knows?|reads?)\s+(?:some|a\s+little|a\s+bit\s+of|basic)\b(?!\s+(?:of\s+)?(?:every|each|all)\b)/gi, 'beginner'],
]

/**
 * Multi-word expressions rewritten before tokenizing, so each becomes one unit. Applied
 * case-insensitively on word boundaries, longest first.
 */
export const PHRASES: ReadonlyArray<readonly [RegExp, string]> = ([
  ['no longer', 'nolonger'],
  ['not any longer', 'nolonger'],
  ['on time', 'ontime'],
  ['on-site', 'onsite'],
  ['on site', 'onsite'],
  ['in person', 'onsite'],
  ['in-person', 'onsite'],
  ['in the office', 'onsite'],
  ['turned on', 'enabled'],
  ['switched on', 'enabled'],
  ['turned off', 'disabled'],
  ['switched off', 'disabled'],
  ['gets in', 'arrives'],
  ['got in', 'arrived'],
  ['get in', 'arrive'],
  ['came out', 'released'],
  ['comes out', 'released'],
  ['come out', 'release'],
  ['kicks off', 'starts'],
  ['kick off', 'start'],
  ['takes place', 'held'],
  ['took place', 'held'],
  ['take place', 'held'],
  ['as well', 'aswell'],
  // "next to the post office" says where, not which one of a series (ninth round).
  ['next to', 'beside'],
  ['up and running', 'up'],
] as const).map(([from, to]) => [new RegExp(`\\b${from.replace(/[-\s]/g, '[-\\s]')}\\b`, 'gi'), to] as const)

/**
 * "on" and "off" as states ("the heater is on"): only after a state verb and at the end of a
 * clause, because everywhere else they are prepositions.
 */
export const ON_OFF: readonly [RegExp, (m: string, verb: string, state: string) => string] = [
  /\b(is|are|was|were|be|been|stays?|stayed|remains?|remained|left|kept)\s+(on|off)\b(?=\s*$|\s*[.,;!?]|\s+(?:now|again|today|tonight|all\s+day|at\s+night)\b)/gi,
  (_m, verb, state) => `${verb} ${state.toLowerCase() === 'on' ? 'enabled' : 'disabled'}`,
]

/** English contractions that hide a negation or a verb. */
export const CONTRACTIONS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bcan['’]t\b/gi, 'can not'],
  [/\bcannot\b/gi, 'can not'],
  [/\bwon['’]t\b/gi, 'will not'],
  [/\bshan['’]t\b/gi, 'shall not'],
  [/n['’]t\b/gi, ' not'],
]
