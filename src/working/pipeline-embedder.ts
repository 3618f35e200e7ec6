import type { Embedder } from '../core/embedder.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'

/** What a transformers.js `Tensor` looks like from outside: flat data and its shape. */
export interface TensorLike {
  readonly data: ArrayLike<number>
  readonly dims: readonly number[]
}

/**
 * A feature-extraction pipeline as transformers.js builds it:
 * `const extractor = await pipeline('feature-extraction', 'Xenova/all-MiniLM-L6-v2')`.
 * Called with a batch of texts and `{ pooling, normalize }`, it resolves to a tensor of shape
 * `[batch, dim]` when pooled, `[batch, tokens, dim]` when not.
 */
export type FeatureExtractor = (
  texts: string[],
  options: { pooling: 'mean' | 'cls' | 'none'; normalize: boolean },
) => Promise<TensorLike | ArrayLike<number>[] | TensorLike[]>

export interface PipelineEmbedderOptions {
  /** Names the model, e.g. `'Xenova/all-MiniLM-L6-v2'`; stored vectors made under another id are recomputed. */
  readonly id: string
  /** Passed to the pipeline. Default `'mean'`. With `'none'` this adapter mean-pools the token vectors itself. */
  readonly pooling?: 'mean' | 'cls' | 'none'
  /** L2-normalize each vector. Default true. */
  readonly normalize?: boolean
  /** Texts per pipeline call. Default 32. */
  readonly batchSize?: number
}

/**
 * Wraps a transformers.js-style feature-extraction pipeline that the caller builds and hosts
 * (memweave does not depend on transformers.js or download anything). Mean pooling and
 * normalization are asked of the pipeline; when it returns token vectors (`[batch, tokens, dim]`,
 * e.g. with `pooling: 'none'`), they are mean-pooled and normalized here.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a missing extractor or id; from embed(), INTERNAL
 *   when the pipeline returns a shape that is not one vector per text.
 * @example
 * import { pipeline } from '@huggingface/transformers'
 * const extractor = await pipeline('feature-extraction', 'Xenova/all-MiniLM-L6-v2')
 * const mem = await createMemory({ working: { embedder: pipelineEmbedder(extractor, { id: 'Xenova/all-MiniLM-L6-v2' }) } })
 */
export function pipelineEmbedder(extractor: FeatureExtractor, options: PipelineEmbedderOptions): Embedder {
  if (typeof extractor !== 'function') throw invalidArgument('extractor', 'must be a feature-extraction pipeline (a function)')
  if (typeof options?.id !== 'string' || options.id === '') throw invalidArgument('id', 'must name the model')
  const pooling = options.pooling ?? 'mean'
  const normalize = options.normalize ?? true
  const batchSize = options.batchSize ?? 32
  if (!Number.isInteger(batchSize) || batchSize < 1) throw invalidArgument('batchSize', 'must be a positive integer')
  return {
    id: `${options.id}#${pooling}${normalize ? '+norm' : ''}`,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = []
      for (let i = 0; i < texts.length; i += batchSize) {
        const batch = texts.slice(i, i + batchSize)
        const result = await extractor(batch, { pooling, normalize })
        const rows = toRows(result, batch.length)
        for (const row of rows) out.push(normalize ? l2(row) : row)
      }
      return out
    },
  }
}

function bad(message: string): MemweaveError {
  return new MemweaveError(ErrorCode.INTERNAL, `feature-extraction pipeline: ${message}`)
}

/** One vector per text from a tensor ([n, d] or [n, t, d]) or a list of per-text outputs. */
function toRows(result: unknown, n: number): Float32Array[] {
  if (isTensor(result)) {
    const { data, dims } = result
    if (dims.length === 2 && dims[0] === n) return split(data, n, dims[1]!)
    if (dims.length === 3 && dims[0] === n) return meanPool(data, n, dims[1]!, dims[2]!)
    if (dims.length === 1 && n === 1) return [Float32Array.from(data)]
    throw bad(`expected dims [${n}, dim] or [${n}, tokens, dim], got [${dims.join(', ')}]`)
  }
  if (Array.isArray(result) && result.length === n) {
    return result.map((r) => {
      if (isTensor(r)) return toRows(r.dims.length === 1 ? { data: r.data, dims: [1, r.dims[0]!] } : r, 1)[0]!
      return Float32Array.from(r as ArrayLike<number>)
    })
  }
  throw bad('expected a tensor or one output per text')
}

function isTensor(x: unknown): x is TensorLike {
  return typeof x === 'object' && x !== null && 'data' in x && 'dims' in x && Array.isArray((x as TensorLike).dims)
}

function split(data: ArrayLike<number>, n: number, d: number): Float32Array[] {
  const out: Float32Array[] = []
  for (let i = 0; i < n; i++) out.push(Float32Array.from({ length: d }, (_, k) => data[i * d + k]!))
  return out
}

function meanPool(data: ArrayLike<number>, n: number, t: number, d: number): Float32Array[] {
  const out: Float32Array[] = []
  for (let i = 0; i < n; i++) {
    const v = new Float32Array(d)
    for (let j = 0; j < t; j++) for (let k = 0; k < d; k++) v[k]! += data[(i * t + j) * d + k]! / t
    out.push(v)
  }
  return out
}

function l2(v: Float32Array): Float32Array {
  let s = 0
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!
  if (s === 0) return v
  const inv = 1 / Math.sqrt(s)
  return v.map((x) => x * inv)
}
