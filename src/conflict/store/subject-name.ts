import { OPENERS } from '../words/openers.js'

// Who a fact is about, read cheaply on every write (issue 27, session 10): the store keeps a count
// of facts per subject (facts/free-text-conflicts.ts), so it must not load the detector. A name
// that opens the text ("Abena's A1C was 7.2", "Gina owns a store") or, in a chat turn, the
// speaker when the turn speaks of itself ("Abena: My A1C came back 6.4"). Anything else (a
// pronoun, "The library ...") names no one this reader can tell, and counts for no subject.

/** At least this share of a store's free-text facts that open with a name must open with one name for it to be a hub (store/hub-subject.ts) ... */
export const HUB_SHARE = 0.2
/** ... and at least this many, so a small store (or a pair set) has no hub. */
export const HUB_MIN_FACTS = 10

const SPEAKER = /^([\p{Lu}][\p{L}'’-]*):\s+/u
const FIRST_PERSON = /^(?:i|i'm|i’m|i've|i’ve|i'll|i’ll|i'd|i’d|my|me)\b/i
const OPENING_NAME = /^([\p{Lu}][\p{Ll}-]*[\p{Ll}])(?:['’]s?)?(?=[\s,.;:!?]|$)/u
// hub33: notes about one role ("The user paid ...", "My client wants ...") open with a common
// noun after a determiner. It is kept with its determiner ("the user"), never equal to a name, and
// "The bakery opens at 7" is counted too: only a share of the store makes a subject a hub.
const OPENING_NOUN = /^([Tt]he|[Mm]y|[Oo]ur)\s+(\p{Ll}[\p{Ll}-]*\p{Ll})(?:['’]s?)?(?=[\s,.;:!?]|$)/u

/** The first name a text is about, or the noun after its opening determiner ("the user"), lower case; null when it opens with neither. */
export function subjectName(text: string): string | null {
  let rest = text.trimStart()
  const speaker = SPEAKER.exec(rest)
  if (speaker) {
    rest = rest.slice(speaker[0].length)
    if (FIRST_PERSON.test(rest)) return speaker[1]!.toLowerCase()
  }
  const noun = OPENING_NOUN.exec(rest)
  if (noun) return `${noun[1]!.toLowerCase()} ${noun[2]!}`
  const m = OPENING_NAME.exec(rest)
  if (!m) return null
  const name = m[1]!.toLowerCase()
  return OPENERS.has(name) ? null : name
}
