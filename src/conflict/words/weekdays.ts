/**
 * The days of the week as the value readers key them: three letters, Sunday first, so a day's
 * index is JavaScript's `Date.getDay()`. One list for every reader (attachment, values, slots, the
 * weekday rule), which each kept a copy before issue 27. The patterns that find weekdays in text
 * ("wednes", "thurs", plurals) stay with their readers, since each reads a different shape.
 */
export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const

/** The days' full names, Monday first as the class of weekdays lists them (words/classes.ts). */
export const WEEKDAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
