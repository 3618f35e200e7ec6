// What a person has, in closed groups (issue 27, eighth round): the nouns a "has two X" / "has
// no Y" pair speaks of.

/**
 * A general noun (singular) and the kinds it covers: "no pets" denies "two dogs", "no kids" denies
 * "a son". A noun also denies itself ("no car" / "a car"). A kind is matched by its singular or
 * its plural in -s; "children" and "kids" are read as "child".
 */
export const KINDS: Readonly<Record<string, string>> = {
  pet: 'dog puppy cat kitten hamster rabbit parrot bird fish turtle retriever labrador',
  child: 'son daughter baby toddler',
  sibling: 'brother sister',
  car: '',
}

