import { MONTH_PATTERN } from './months.js'

// What a diary rule reads (issue 27, twelfth round, src/conflict/store/diary.ts): how a statement is
// told in time. A store of observations is a diary of one person's events, plans and feelings at
// many dates; these words say which statements are moments, and which still speak across time.

/** A present or future verb: a text with one states something now or next, not only a past moment. */
export const PRESENT_VERB: RegExp = /\b(?:is|are|am|has|have|does|do|will|can|must|should|shall|needs?|wants?)\b/i

/**
 * Told as lasting across time, whatever the dates: "still", "no longer", "never", "always",
 * "anymore". Two statements with one of these can contradict however far apart they were written.
 */
export const ACROSS_TIME: RegExp = /\b(?:still|no\s+longer|never|always|anymore|any\s+more|ever\s+since)\b/i

/**
 * Told as a change: the new state holds from then on, so it can contradict a statement at another
 * date ("moved to Berlin" / "lives in Paris"; "turned 36 in May" / "is 34"). Verbs of moving, joining,
 * leaving a role, becoming; a level moved to a value ("cut her dose to", "raised to"); "now", "since",
 * "again".
 */
export const CHANGE: RegExp = new RegExp(
  String.raw`\b(?:mov(?:ed|es|ing)|relocat\w*|switch\w*|chang(?:ed|es|ing)|became|becomes|turn(?:ed|s)\s+(?:\d|thirty|forty|fifty|sixty|seventy|eighty|ninety|twenty)|join\w*|start(?:ed|s)|began|quit|resign\w*|retir\w*|married|divorced|transferr\w*|upgrad\w*|downgrad\w*|migrat\w*|reschedul\w*|postpon\w*|reassign\w*|renam\w*|rebook\w*|now|since|again|no\s+more)\b` +
    String.raw`|\b(?:cut|raised|lowered|reduced|increased|decreased|dropped|fell|rose|went\s+(?:up|down)|bumped|pushed)\b[^.;,]*\bto\b`,
  'i',
)

/**
 * An activity in progress, a plan or a feeling: "are looking at flats", "is leading a redesign",
 * "is thinking about", "plans to", "is not happy about". Each is true at its date and says nothing of
 * another date. Not an -ing word that names where someone lives or works ("is living", "is working
 * at"), which is a state.
 */
export const ACTIVITY: RegExp = new RegExp(
  String.raw`\b(?:is|are|am)\s+(?:not\s+)?(?:\w+ly\s+)?(?!(?:living|working|staying|based|renting|dating|using)\b)\w{2,}ing\b` +
    String.raw`|\b(?:plans?|planning|hopes?|hoping|wants?|wanted|would\s+like|thinking|considering|going)\s+(?:to|about|of)\b` +
    String.raw`|\b(?:is|are|am|was|were|feels?|felt)\s+(?:not\s+|so\s+|very\s+|really\s+|a\s+bit\s+)?(?:happy|unhappy|excited|worried|nervous|proud|sad|upset|glad|thrilled|scared|anxious|stressed|grateful|disappointed|frustrated|relieved|hopeful|tired|exhausted|overwhelmed|curious|angry|lonely|bored)\b`,
  'i',
)

/**
 * Words that name an occasion: a day, a part of one, a week, a month, a clock time. Two moments that
 * name the same one ("passed ... last month" / "failed ... last month", "today's 07:52" / "... today")
 * speak of one occasion, whatever dates they were written at.
 */
export const OCCASION_NAME: RegExp =
  new RegExp(String.raw`\b(?:today|tonight|tomorrow|yesterday|(?:last|this|next|that)\s+(?:week(?:end)?|month|year|night|morning|afternoon|evening|time|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:${MONTH_PATTERN})|q[1-4]|\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2})\b`, 'gi')
