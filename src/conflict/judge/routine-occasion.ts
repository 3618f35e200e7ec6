import type { Reading } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'

/**
 * Whether two texts share only a routine occasion on one side: "riding every Thursday after school"
 * / "the school's heating engineer visits on Friday" (session 12, anchor32). A bare noun after
 * "after" or "before" ("after school", "before work", "after lunch") says when something is done,
 * not what the text is about, so a value clash between the two is of two things. A determiner
 * makes it an event the other text may tell of ("after the standup"): not this rule's.
 */
export function sharedOnlyAsOccasion(a: Reading, b: Reading, shared: readonly string[]): boolean {
  return shared.length > 0 && (shared.every((k) => onlyAsOccasion(a, k)) || shared.every((k) => onlyAsOccasion(b, k)))
}

function onlyAsOccasion(r: Reading, key: string): boolean {
  const hits = r.tokens.filter((t) => sameStem(t.stem, key))
  return hits.length > 0 && hits.every((t) => /\b(?:after|before)\s+$/i.test(r.norm.slice(Math.max(0, t.start - 8), t.start)))
}
