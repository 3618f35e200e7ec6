// Words and patterns that mark how a statement stands: in the past or the present, restricted
// ("only") or universal ("any"), added to another ("also").

/** Markers that put a statement in the past: it is not a claim about now. */
export const PAST_MARKERS: RegExp = /\b(?:used to|grew up|formerly|previously|originally|back then|in the past|ex-|former|at (?:his|her|their|my) (?:last|old|previous) (?:job|company|employer))\b/i
/** Markers that put a statement in the present. */
export const PRESENT_MARKERS: RegExp = /\b(?:now|these days|currently|nowadays|today|at the moment|since)\b/i

/**
 * One day's occasion of what is usually so: "took almost two hours today", "cost $60 yesterday"
 * (ninth round). Said in the simple past, against the usual amount in the present, it is one
 * occasion, not another answer.
 */
export const ONE_OCCASION: RegExp = /\b(?:today|yesterday|tonight|last night|this (?:morning|afternoon|evening))\b/i
/** What is usual over many occasions ("usually scores 3", "about 5 most mornings"), against one dated occasion (next34). */
export const USUAL: RegExp = /\b(?:usually|normally|typically|generally|mostly|on average|as a rule|most (?:days|mornings|evenings|nights|weeks))\b/i
/** A verb in the simple past, the irregular ones an amount is told with among them ("took", "cost"). */
export const PAST_VERB: RegExp = /\b(?:was|were|had|did|took|cost|ran|went|came|got|spent|paid|made|\w{3,}ed)\b/i

/** Restriction to one member ("only accepts wire", "the only admin", "X only"). */
// Not "read-only", "invite-only": a compound names a mode, it restricts nothing else.
export const EXCLUSIVE: RegExp = /(?<!-)\b(?:only|sole|solely|exclusively)\b/i
/**
 * "Only that Zainab has been teaching ...", "Only because the bus was late": a clause opened so
 * answers "anything new?" or "why?" with one piece of news or one reason; it keeps no one member
 * of a kind (store29, issue 27).
 */
export const ONLY_OPENS_ANSWER: RegExp = /^\s*only\s+(?:that|because)\b/i
/** Universal choice, the opposite of a restriction ("any day", "whenever"). */
export const UNIVERSAL: RegExp = /\b(?:any\s+(?:day|time|one|of|language)|whenever|whatever|whichever|anytime|every\s+day|either)\b/i
/** Words that add to what was said rather than replace it. */
export const ADDITIVE: RegExp = /\b(?:also|too|as well|additionally|plus|in addition)\b/i

/** Markers that one observation adds to another rather than replacing it ("also speaks French"). */
export const ADDITIVE_WORDS: ReadonlySet<string> = new Set(['also', 'too', 'additionally', 'another', 'besides', 'aswell'])

/**
 * Words after which an -ing word names an activity, not a state of progress, beside the words of
 * liking and disliking (words/preferences.ts): "started running", "activities like running", "good
 * at running" (seventh round). A process still running stands after "is", "still" or a noun ("the
 * backup is still running").
 */
export const ACTIVITY_BEFORE: RegExp = /^(?:start|stop|tr[iy]|miss)\w*$|^(?:began|begin|quit|took|go|goes|went|as|at|about|for|of|from|by|including|and|or)$/

/**
 * The way back of a trip: "the train back from Paris", "flying back", "the return flight" (eighth
 * round). A time or date of the way back and one of the way out are two legs, not one value twice.
 * Not "back" alone, nor "back to" ("pushed back to 3pm" moves the same event).
 */
export const RETURN_LEG: RegExp = /\b(?:back\s+(?:from|home)|return(?:ing)?\s+(?:flight|train|bus|trip)|(?:fl[yie]\w*|driv\w*|head\w*|com\w*|go\w*|get\w*)\s+back|returns?\s+from)\b/i

/**
 * When in a day or week a habit holds: "in the morning", "after lunch", "with dinner", "on
 * weekends" (eighth round). Group 1 is the preposition, group 2 the word; `OCCASION_OF` folds
 * meals into the part of the day they stand for, so "at breakfast" and "in the morning" are one.
 */
export const OCCASION_WORD: RegExp = /\b(morning|afternoon|evening|night|breakfast|lunch|dinner|weekend|weekday)s?\b/i
export const OCCASION: RegExp = new RegExp(String.raw`\b(in the|at|after|before|for|during|over|with|on|every)\s+(?:the\s+)?` + OCCASION_WORD.source.slice(2), 'gi')
export const OCCASION_OF: Readonly<Record<string, string>> = { breakfast: 'morning', dinner: 'evening', 'after lunch': 'afternoon' }
