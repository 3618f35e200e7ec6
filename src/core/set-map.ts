/** A map of sets (an index from a key to the ids under it), kept without empty sets. */

/** The set under `key`, made empty when there is none. */
export function setOf<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let s = map.get(key)
  if (!s) map.set(key, (s = new Set()))
  return s
}

/** Takes `value` out of the set under `key`, and the set out of the map once it is empty. */
export function deleteFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const s = map.get(key)
  if (s?.delete(value) && s.size === 0) map.delete(key)
}
