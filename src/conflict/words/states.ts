// What the store-date rule for states reads (issue 27, src/conflict/store/states.ts): how the later
// of two statements written months apart says that a state changed, and which values drift on their
// own over time. Not the diary's CHANGE (words/diary.ts): store/states.ts says why.

/**
 * News of a change, said by the later statement in words of the time between: "has since",
 * "these days", "a new job", "got internet", "healed", "back to", "instead", "after all", "no
 * longer", "stopped", "took up", "more than before". Each says the earlier state held and
 * this one holds from then on.
 */
export const NEWS_OF_CHANGE: RegExp = new RegExp(
  [
    String.raw`\b(?:has|have|had)\s+since\b|\bsince\s+then\b|\bthese\s+days\b|\bnowadays\b|\blately\b|\bfinally\b|\bat\s+last\b`,
    String.raw`\b(?:a|an|my|his|her|their|our|your)\s+new\b`,
    String.raw`\b(?:got(?!\s+\w+(?:ed|en)\b)|bought|adopted|healed|recovered|graduated|promoted|stopped|gave\s+up|took\s+up|picked\s+up)\b`,
    String.raw`\bback\s+(?:to|on|in|at|home)\b|\binstead\b|\bafter\s+all\b|\bno\s+longer\b|\banymore\b|\bany\s+more\b|\bused\s+to\b|\bwent\s+from\b|\b(?:up|down)\s+from\b`,
    String.raw`\b(?:more|less|fewer|bigger|smaller|higher|lower|heavier|lighter|longer|shorter|better|worse)\b[^.;]*\bthan\s+(?:before|it\s+used\s+to|(?:s?he|they|we|i)\s+used\s+to|last\s+(?:year|month|time)|a\s+(?:year|month)\s+ago)\b`,
  ].join('|'),
  'i',
)

/**
 * Told as lasting by the later statement: "still", "never", "always", "ever". So do "no change", "staying",
 * "remains", "for now". Against an earlier state, these deny a change rather than report one ("Ana moved to Lisbon" / "Ana still lives in
 * Porto"), so the pair keeps its flag whatever else the later statement says.
 */
export const LASTING: RegExp = /\b(?:still|never|always|ever(?!\s+since)|no\s+change|unchanged|staying|stays|remains?|for\s+now)\b/i



/**
 * An age stated of someone: "is 14", "turned sixteen", "aged 7", "14 years old", "age 9", where
 * nothing but an end, "years" or a joining word follows the number (not "is 14 kg", "turned 36 pages").
 * The number's source is the first group; read/numbers.ts parses it.
 */
export function agePatterns(number: string): RegExp[] {
  return [
    new RegExp(String.raw`\b(?:is|am|are|turned|turns|aged|age)\s+(${number})(?=\s*(?:$|[.,;!?)]|years?\b|and\b|now\b|this\b|next\b|last\b|soon\b|today\b|tomorrow\b|in\b|on\b|but\b|so\b))`, 'i'),
    new RegExp(String.raw`\b(${number})[-\s]years?[-\s]old\b`, 'i'),
  ]
}

/** A recurring price: present tense or a rate ("costs", "charges", "a month", "per night", "rent", "fee"). */
export const RECURRING_PRICE: RegExp = /\b(?:costs?|charges?|is\s+priced|sells?\s+for|rent|fee|subscription|salary|pays?|earns?|makes?)\b|\b(?:a|per|an|each|every)\s+(?:month|year|week|night|day|hour)\b|\/(?:mo|month|yr|year|wk|night|hr)\b/i

/**
 * A level told as the result of its change: "cut her dose to", "fell to", "went up to", "is down
 * to", "raised to". The value after "to" is where the level now stands, so an earlier value is where
 * it stood (change27). Not "moved to" or "pushed to": those move a date or a place, and a correction
 * told so is what pair sets label a contradiction (store/states.ts).
 */
export const LEVEL_RESULT: RegExp =
  /\b(?:cut|reduced|lowered|raised|increased|decreased|dropped|fell|rose|(?:went|came|is|are|was|were|has\s+gone|have\s+gone)\s+(?:up|down)|bumped(?:\s+(?:up|down))?|doubled|halved|tapered)\b[^.;]*?\bto\s*$/i

/**
 * A value told as holding from a date ahead: "from June", "starting 1 July", "as of next month".
 * The earlier value holds until then, so the two are a change announced, not two answers.
 * Not "from now on" or "starting Monday": how an instruction is corrected (store/states.ts).
 */
export function fromDate(monthPattern: string): RegExp {
  return new RegExp(String.raw`\b(?:from|starting|as\s+of|beginning|effective)\s+(?:(?:early|mid|late|the\s+(?:start|end|middle)\s+of)[-\s]+)?(?:(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?:${monthPattern})\b|next\s+(?:month|year|season|spring|summer|autumn|fall|winter)\b)`, 'i')
}

/**
 * What is measured again and again, each reading true at its date: a lab value, a weight, a
 * dose, a score, a balance. Two readings months apart are two readings, not two answers.
 */
export const REPEATED_READING: RegExp =
  /\b(?:a1c|hba1c|blood\s+(?:pressure|sugar|test)|cholesterol|glucose|bmi|weight|weighs?|weighed|heart\s+rate|pulse|psa|iron|vitamin\s+d|score|dose|dosage|balance|credit\s+score|reading|level)\b/i

/** Told as a reading taken at its moment: "was", "came back", "measured", "weighed", "tested at". */
export const READING_TAKEN: RegExp = /\b(?:was|were|came\s+back|measured|weighed|tested|read|scored|clocked)\b/i
