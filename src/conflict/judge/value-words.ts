import { valueSpans, type Reading } from '../read/reading.js'
import { sameStem } from '../read/same-stem.js'

/**
 * Whether every key two texts share stands, on both sides, only inside a value: the unit of a
 * measure ("75°F" / "55°F" share "F", "11 hrs" / "under 4 hrs" share "hrs"). A unit says what kind
 * of value a text gives, not what it is of, so texts that share nothing else speak of two things
 * ("the thermostat in the office" / "the cellar"). A counted noun is outside its count's text
 * ("2 dogs" / "3 dogs" still share "dogs"). cross28, issue 27.
 */
export function sharedOnlyInValues(a: Reading, b: Reading, shared: readonly string[]): boolean {
  return shared.length > 0 && shared.every((k) => onlyInValues(a, k) && onlyInValues(b, k))
}

function onlyInValues(r: Reading, key: string): boolean {
  const spans = valueSpans(r)
  const hits = r.tokens.filter((t) => sameStem(t.stem, key))
  // The value itself ("10k", "v2.3", "acct 88213") names the thing: only a word after the number is a unit.
  return hits.length > 0 && !/\d/.test(key) && hits.every((t) => spans.some(([s, e]) => t.start > s && t.end <= e))
}
