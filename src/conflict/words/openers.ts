/**
 * Capitalized words that open a sentence without naming anyone: pronouns, determiners,
 * conjunctions, prepositions, interjections. The subject-name reader (store/subject-name.ts) skips
 * them; it runs on every write, so this list stays small and imports nothing (the detector's
 * stopwords pull in the antonym lexicon).
 */
export const OPENERS: ReadonlySet<string> = new Set(
  (
    'a an the this that these those some any every each all both no not none another other such ' +
    'i me my mine we us our you your he him his she her they them their it its there here ' +
    'who what when where why how which whose ' +
    'and or but so then also yet if because since while after before until though although ' +
    'on in at by for from with to of about as into over under during ' +
    'last next first today yesterday tomorrow tonight now later soon once still just only even ' +
    'yes yeah no oh ah wow hey hi hello thanks thank ok okay well sure great good nice please sorry'
  ).split(' '),
)
