import type { Embedder } from '../core/embedder.js'
import { invalidArgument } from '../core/errors.js'

export interface HashEmbedderOptions {
  /** Vector length. Default 512. */
  readonly dimensions?: number
}

/**
 * A model-free, deterministic embedder: hashed word unigrams and bigrams plus character trigrams
 * within words (so "collected" is near "collection"), signed feature hashing, L2-normalized.
 * It needs no download and no network, runs in any runtime, and embeds a sentence in
 * microseconds. It measures shared wording, not meaning: pair it with the conflict detector's
 * word lists (which supply synonyms and antonyms), or plug in a real model with `pipelineEmbedder`.
 *
 * @throws MemweaveError INVALID_ARGUMENT when `dimensions` is not an integer in [16, 65536].
 * @example
 * const embedder = hashEmbedder()
 * const [a, b] = await embedder.embed(['team sync moved', 'the team sync was moved'])
 */
export function hashEmbedder(options: HashEmbedderOptions = {}): Embedder {
  const dim = options.dimensions ?? 512
  if (!Number.isInteger(dim) || dim < 16 || dim > 65536) throw invalidArgument('dimensions', 'must be an integer in [16, 65536]')
  return {
    id: `memweave-hash-v1-${dim}`,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      return texts.map((t) => hashVector(t, dim))
    },
  }
}

const WEIGHT_WORD = 1
const WEIGHT_BIGRAM = 0.6
const WEIGHT_TRIGRAM = 0.3

/** The vector hashEmbedder returns for one text, synchronously. */
export function hashVector(text: string, dim: number): Float32Array {
  const v = new Float32Array(dim)
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  const add = (feature: string, weight: number): void => {
    const h = fnv1a(feature)
    v[h % dim]! += h & 0x80000000 ? -weight : weight
  }
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    add(`w ${w}`, WEIGHT_WORD)
    if (i > 0) add(`b ${words[i - 1]} ${w}`, WEIGHT_BIGRAM)
    const padded = `<${w}>`
    for (let k = 0; k + 3 <= padded.length; k++) add(`c ${padded.slice(k, k + 3)}`, WEIGHT_TRIGRAM)
  }
  let norm = 0
  for (let i = 0; i < dim; i++) norm += v[i]! * v[i]!
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm)
    for (let i = 0; i < dim; i++) v[i]! *= inv
  }
  return v
}

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}
