/**
 * A map that keeps at most `limit` entries, the oldest dropped first. The detector reads each text
 * once per store scan and meets it again for every neighbour; the bound keeps a long-lived
 * detector's memory flat however many texts pass through it.
 */
export class BoundedCache<K, V> {
  readonly #map = new Map<K, V>()
  readonly #limit: number

  constructor(limit: number) {
    this.#limit = limit
  }

  /** The value kept for `key`, made by `make` and kept when missing. */
  get(key: K, make: (key: K) => V): V {
    let v = this.#map.get(key)
    if (v === undefined) {
      v = make(key)
      if (this.#map.size >= this.#limit) this.#map.delete(this.#map.keys().next().value!)
      this.#map.set(key, v)
    }
    return v
  }
}
