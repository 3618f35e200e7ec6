/**
 * Prototype (issue 31, strings32): a pool record held in its Y.Map as one JSON string instead of a
 * plain object. Yjs decodes a string value as one `readVarString`, an object field by field (lib0
 * `readAny`): a join of a big pool spends most of its Yjs time there.
 */

/** A records-map value as the object to check: a string is parsed (a string that is not JSON stays itself, and is malformed). */
export function recordFields(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value) as unknown
  } catch {
    return value
  }
}
