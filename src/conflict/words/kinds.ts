// What a person has, in closed groups (issue 27, eighth round): the nouns a "has two X" / "has
// no Y" pair speaks of. The states a person is in (married/single) are antonym groups (antonyms.ts).

/**
 * A general noun and the kinds it covers: "no pets" denies "two dogs", "no kids" denies "a son".
 * Each line: the general noun (singular) and its kinds. A noun also denies itself ("no car" / "a car").
 */
export const KINDS: Readonly<Record<string, readonly string[]>> = {
  pet: ['dog', 'puppy', 'cat', 'kitten', 'hamster', 'rabbit', 'bunny', 'parrot', 'bird', 'goldfish', 'turtle', 'tortoise', 'snake', 'lizard', 'ferret', 'retriever', 'labrador', 'beagle', 'poodle', 'terrier', 'spaniel', 'collie', 'dachshund', 'pug', 'husky', 'chihuahua'],
  child: ['kid', 'son', 'daughter', 'baby', 'boy', 'girl', 'toddler', 'stepson', 'stepdaughter'],
  sibling: ['brother', 'sister', 'stepbrother', 'stepsister'],
  car: [],
  vehicle: ['car', 'truck', 'van', 'minivan', 'suv', 'motorcycle', 'motorbike', 'scooter'],
}

/** Another word for a general noun: "no kids" is no children. */
export const GENERAL_ALIAS: Readonly<Record<string, string>> = { kid: 'child', automobile: 'car' }

/** Irregular plurals of the nouns above. */
export const PLURALS: Readonly<Record<string, string>> = { children: 'child', puppies: 'puppy', babies: 'baby', bunnies: 'bunny', huskies: 'husky', kids: 'kid' }

/**
 * Antonym groups (antonyms.ts) whose poles are lasting states of a person, one at a time: "I'm
 * married" / "I'm single". Not moods or moments ("I'm late" / "I'm early" are two days).
 */
export const LASTING_STATES: ReadonlySet<string> = new Set(['marital', 'handedness'])
