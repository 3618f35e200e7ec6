/**
 * The months, one list for every reader (issue 27: slots, reading, sequence, diary and labels each
 * wrote the pattern, slightly differently). Keys are three letters, January first, so a month's
 * number is its index plus one.
 */
export const MONTH_KEYS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const

/** A month's number (1-12) from its name or abbreviation ("March", "mar", "Sept."), 0 for none. */
export const monthNumber = (name: string): number => (MONTH_KEYS as readonly string[]).indexOf(name.slice(0, 3).toLowerCase()) + 1

/**
 * A month's name or abbreviation, to be matched as a whole word and without regard to case
 * ("jan", "January", "sept", "September"). Exact names only: a prefix would swallow names
 * ("Marta", "Marcus", "Janet", "Augusta"). No group of its own: a reader that captures wraps it.
 */
export const MONTH_PATTERN = 'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?'

/**
 * The claim reader's months (read/extract-values.ts), capitalized: it reads any text, where "may"
 * is a verb and "march" a walk, so a month alone must be written as a name ("May", "Mar.").
 * The free-text readers need no capital: they look for a month beside a day or a year.
 */
export const CAPITALIZED_MONTH_PATTERN = '(?:January|February|March|April|May|June|July|August|September|October|November|December|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\\.?)'
