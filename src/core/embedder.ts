/**
 * Turns texts into vectors. memweave's modules share this one interface: the fact store blends
 * similarity into retrieve() (GMP's guarantees do not depend on it, §4.4), and working memory uses it
 * to decide whether two observations are about the same thing (FR-001.3). Plug in a model
 * (`pipelineEmbedder` over a transformers.js pipeline, a remote service) or use the model-free
 * `hashEmbedder()`.
 */
export interface Embedder {
  /** Names the model; vectors made by a different id are recomputed. */
  readonly id: string
  /** One vector per text, same length for all. Must be deterministic for determinism of retrieve(). */
  embed(texts: readonly string[]): Promise<Float32Array[]>
}

/** Cosine similarity; 0 when either vector is all zeros. Compares the common prefix if lengths differ. */
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
