import { WEEKDAY_NAMES } from './weekdays.js'
import { MONTH_PATTERN } from './months.js'

// Tense and time of a statement that make two of them a sequence rather than two answers (issue 27,
// second round): a change planned from a date ("will open on Sundays starting in July") follows
// the state before it ("is currently closed on Sundays"); told as done ("now opens") it replaces it.

/** A future governing the word after it in its clause: "will open", "is going to close", "is set to reopen". */
export const FUTURE_BEFORE: RegExp = /\b(?:will|shall|'ll|(?:is|are|am)\s+(?:going|set|scheduled|due|planning)\s+to)(?:\s+[\p{L}'’-]+){0,2}?\s+$/iu

const PERIOD = `${MONTH_PATTERN}|spring|summer|autumn|fall|winter|\\d{4}`
/**
 * The date a planned change starts from: "starting in July", "beginning Monday", "as of March 1",
 * "effective next month", "from next week"; or "in July", "next spring", "after the holidays".
 * A bare weekday ("will open on Sunday") names when, not from when.
 */
export const START_DATE: RegExp = new RegExp(
  `\\b(?:(?:start(?:s|ing)?|beginning|as\\s+of|effective|from)\\s+(?:(?:in|on|early|mid|late|next|the\\s+end\\s+of)\\s+)?(?:${PERIOD}|next|${WEEKDAY_NAMES.join('|')}|\\d)` +
    `|(?:in|after|by)\\s+(?:early\\s+|mid-?\\s*|late\\s+)?(?:${PERIOD})|next\\s+(?:week|month|year|season|term|semester|${PERIOD}))\\b`,
  'i',
)

/**
 * What is sought, not stated: a pole word named as a noun ("opening", "closure", "approval") after
 * "for" ("collected 400 signatures for Sunday opening", "pushed for the closure"): the state is
 * asked for, so it is the start of a sequence, not its outcome.
 */
export const SOUGHT_BEFORE: RegExp = /\b(?:for|toward|towards)\s+(?:[\p{L}'’-]+\s+){0,2}$/iu
/** The noun endings `SOUGHT_BEFORE` asks of the pole word. */
export const NOUN_FORM: RegExp = /(?:ing|ure|ion|al)$/i
