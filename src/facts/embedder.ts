/**
 * Turns texts into vectors for semantic ranking. memweave needs none: the default ranking is
 * lexical. Plug one in (a transformers.js pipeline, a remote model) to blend semantic similarity
 * into retrieve(); GMP's guarantees (which facts are candidates) do not depend on it (§4.4).
 */
export interface Embedder {
  /** Names the model; vectors made by a different id are recomputed. */
  readonly id: string
  /** One vector per text, same length for all. Must be deterministic for determinism of retrieve(). */
  embed(texts: readonly string[]): Promise<Float32Array[]>
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0, na = 0, nb = 0
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a[i]!, y = b[i]!
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}
