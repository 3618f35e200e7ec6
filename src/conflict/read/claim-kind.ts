import type { Reading } from './reading.js'
import { IRREGULAR_PAST } from './subject.js'
import { LIGHT_VERB_EVENT, PAST_EVENT_EXTRA, RECURRING, STATE_VERBS } from '../words/event-verbs.js'
import { ACTIVITY, CHANGE, PRESENT_VERB } from '../words/diary.js'

// What kind of claim a text makes (issue 27, event27), read from its shape, not its words: tense
// (a past verb, no present one), verb class (an action, not being, having, knowing or feeling
// toward) and aspect (once, or again and again). It answers one question for the judges: is what
// differs between two texts a value of one state ("lives in Paris" / "lives in Rome"), or the object,
// place or companion of two events, which accumulate ("took her niece to the aquarium" / "to the
// zoo")? store/diary.ts asks the first half of it (told as a moment) with the dates of a store; a
// pair of texts without dates asks the same reading here.

/** The kinds of claim: one occurrence, a change whose new state lasts, a recurring habit, a state. */
export type ClaimKind = 'event' | 'change' | 'habit' | 'state'

/**
 * Whether a word is a simple past: an -ed ending, an irregular past, or one of the pasts no ending
 * shows. The irregular list is of forms unlike their lemma, so it holds "goes" too: no past ends in -s.
 */
export const isPastVerb = (w: string): boolean => /^(?:was|were|had|did)$/.test(w) || /^\p{Ll}{3,}ed$/u.test(w) || (IRREGULAR_PAST.test(w) && !w.endsWith('s')) || PAST_EVENT_EXTRA.has(w)

/**
 * The kind of claim a reading makes. An event is told in the past with an action verb and no
 * present verb ("Jon painted his dog", "the package was delivered"); "was 7.2", "had a cat",
 * "lived in Leeds" are states told in the past. A change ("moved to", "started", "now") and a habit
 * ("every Sunday", "twice a week") are told apart first, since both say something that lasts.
 */
export function claimKind(r: Reading): ClaimKind {
  if (CHANGE.test(r.norm)) return 'change'
  if (RECURRING.test(r.norm)) return 'habit'
  if (PRESENT_VERB.test(r.norm) || ACTIVITY.test(r.norm) || r.past) return 'state'
  const verbs = r.tokens.filter((t) => !t.capital && isPastVerb(t.lower))
  // "had lunch", "had a party": a state verb made an event by a noun of something that happens.
  return verbs.some((t) => !STATE_VERBS.has(t.lower)) || (verbs.length > 0 && LIGHT_VERB_EVENT.test(r.norm)) ? 'event' : 'state'
}

// "was introduced by", "were built in", "was written by": a past participle after "was" / "were".
const PASSIVE = /\b(?:was|were)\s+(?:\w+ly\s+)?(?:\p{Ll}{3,}ed|\p{Ll}+(?:en|wn|ne)|built|made|sent|sold|told|held|found|bought|brought|taught|caught|left|lost|paid|put|set|shut|hit|cut|won|run)\b/u

/**
 * Whether a reading tells what was done to a thing (the passive: "the bug was introduced by commit
 * a1b2c3", "the house was built in 1920"). Such an event happens to its one thing once, so another
 * agent, place or date of it is another answer, unlike another object of someone's action.
 */
export function toldOfOneThing(r: Reading): boolean {
  return PASSIVE.test(r.norm)
}
