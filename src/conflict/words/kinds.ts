// What a person has, in closed groups (issue 27, eighth round): the nouns a "has two X" / "has
// no Y" pair speaks of. The states a person is in (married/single) are antonym groups (antonyms.ts).

/**
 * A general noun (singular) and the kinds it covers: "no pets" denies "two dogs", "no kids" denies
 * "a son". A noun also denies itself ("no car" / "a car"). A kind is matched by its singular or
 * its plural in -s; "children" and "kids" are read as "child".
 */
export const KINDS: Readonly<Record<string, string>> = {
  pet: 'dog puppy cat kitten hamster rabbit parrot bird goldfish turtle snake lizard retriever labrador terrier spaniel',
  child: 'son daughter baby boy girl toddler',
  sibling: 'brother sister',
  car: '',
}

/**
 * Antonym groups (antonyms.ts) whose poles are lasting states of a person, one at a time: "I'm
 * married" / "I'm single". Not moods or moments ("I'm late" / "I'm early" are two days).
 */
export const LASTING_STATES: ReadonlySet<string> = new Set(['marital', 'handedness'])
