/**
 * Phrases the claim frame (../claim-frame.ts) reads a time or a change of amount by. General
 * English function phrases, not words of any example.
 */

/** A statement told as over before another: "lived in Austin before that", "was vegetarian for ten years". */
export const OVER_BEFORE: RegExp = /\b(?:before (?:that|then)|at the time|back in \d{4}|for (?:\d+|two|three|four|five|six|seven|eight|nine|ten|many|several) years)\b/i

/** A statement about what comes next: "next service is due in September", "the upcoming release". */
export const AHEAD: RegExp = /\b(?:next|upcoming|due|will|going to|tomorrow)\b/i

/** An amount said as a change, not a total: "hired 2 more engineers", "another 3 desks", "5 extra seats". */
export const DELTA: RegExp = /\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:more|extra|additional|new)\b|\b(?:another|an additional|an extra)\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b/i

/**
 * An amount said as a change by a verb of rising or falling and "by": "will increase by 6 million
 * euros", "prices went up by 5%", "cut by a third". Not "fills up by 9" (a time).
 */
export const CHANGE_BY: RegExp = /\b(?:increas|decreas|ris|rose|grow|grew|fall|fell|drop|declin|climb|jump|rais|reduc|cut|shr[iu]nk|doubl|tripl)[a-z]*\s+by\b|\b(?:go|goes|went|gone|going|is|are|was|were)\s+(?:up|down)\s+by\b/i

/** A rule that forbids: "must not feed the ducks", "shouldn't share", "is not allowed to park". */
export const FORBIDS: RegExp = /\b(?:must|should|shall|may)\s+not\b|\b(?:mustn't|shouldn't|shan't)\b|\bnot\s+(?:be\s+)?(?:allowed|permitted)\s+to\b/i

/** Any modal or rule word: a text without one tells what is or was, not what must be. */
export const MODAL: RegExp = /\b(?:must|mustn't|should|shouldn't|shall|may|might|can|can't|cannot|could|couldn't|will|won't|would|wouldn't|allowed|permitted|need to|needs to|have to|has to|never)\b/i

/** Negated verbs that say eagerness or surprise, not that something is not: "can't wait 'til my studio opens", "couldn't believe it". */
export const EAGER: RegExp = /\b(?:can not|cannot|can't|could not|couldn't)\s+(?:wait|believe|help)\b/i

/** Determiners that bring in a new one of a kind, or none in particular: "went to a pride parade", "another interview", "any dance comps". */
export const INDEFINITE: RegExp = /^(?:a|an|another|any|some)$/i

/** Words that follow a noun without being a noun it modifies ("a local comp last year", "a comp near me"), beside the function words. */
export const AFTER_NOUN: RegExp = /^(?:last|next|near|ago)$/

/** Words that place a date inside its month or season, part of the value ("in early March", "by late July"): stems. */
export const DATE_QUALIFIER: RegExp = /^(?:earli|early|late|mid|middl)$/
