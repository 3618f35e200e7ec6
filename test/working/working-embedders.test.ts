import { describe, expect, test } from 'vitest'
import {
  AgentRole, cosine, createMemory, hashEmbedder, isMemweaveError, memoryStorage, pipelineEmbedder, type Embedder,
  type FeatureExtractor,
} from '../../src/index.js'
import { hashVector } from '../../src/working/hash-embedder.js'

/**
 * A stand-in for transformers.js `pipeline('feature-extraction', model)`: same call shape, same
 * output shape (a Tensor-like `{ data, dims, tolist }`): `[batch, dim]` when pooled, else
 * `[batch, tokens, dim]` padded with zero vectors. Token vectors come from the hash embedder.
 */
function fakePipeline(dim = 64): FeatureExtractor & { calls: Array<{ texts: string[]; options: unknown }> } {
  const calls: Array<{ texts: string[]; options: unknown }> = []
  const fn = (async (texts: string[], options: { pooling: string; normalize: boolean }) => {
    calls.push({ texts, options })
    const tokens = texts.map((t) => t.toLowerCase().split(/\s+/).filter(Boolean))
    if (options.pooling === 'none') {
      const t = Math.max(1, ...tokens.map((x) => x.length))
      const data = new Float32Array(texts.length * t * dim)
      tokens.forEach((words, i) => words.forEach((w, j) => data.set(hashVector(w, dim), (i * t + j) * dim)))
      return { data, dims: [texts.length, t, dim], tolist: () => [] }
    }
    const data = new Float32Array(texts.length * dim)
    tokens.forEach((words, i) => {
      const v = new Float32Array(dim)
      for (const w of words) hashVector(w, dim).forEach((x, k) => (v[k]! += x / words.length))
      data.set(v, i * dim)
    })
    return { data, dims: [texts.length, dim], tolist: () => [] }
  }) as unknown as FeatureExtractor & { calls: Array<{ texts: string[]; options: unknown }> }
  fn.calls = calls
  return fn
}

/** The contract every Embedder meets (STYLE 20). */
function embedderContract(name: string, make: () => Embedder): void {
  describe(`Embedder contract: ${name}`, () => {
    test('one finite vector per text, all the same length, deterministic, empty input allowed', async () => {
      const e = make()
      expect(typeof e.id).toBe('string')
      const texts = ['the meeting is at 3pm', 'the meeting is at 4pm', '', 'Ünïcödé text ✓']
      const [a, b] = [await e.embed(texts), await make().embed(texts)]
      expect(a).toHaveLength(texts.length)
      expect(new Set(a.map((v) => v.length)).size).toBe(1)
      for (const v of a) expect([...v].every(Number.isFinite)).toBe(true)
      expect(a.map((v) => [...v])).toEqual(b.map((v) => [...v]))
      expect(await e.embed([])).toEqual([])
    })

    test('similar texts are closer than unrelated ones', async () => {
      const [x, y, z] = await make().embed(['team meeting tomorrow', 'meeting of the team', 'garbage collection pauses'])
      expect(cosine(x!, y!)).toBeGreaterThan(cosine(x!, z!))
    })
  })
}

embedderContract('hashEmbedder()', () => hashEmbedder())
embedderContract('pipelineEmbedder(mean pooling by the pipeline)', () => pipelineEmbedder(fakePipeline(), { id: 'fake/minilm' }))
embedderContract('pipelineEmbedder(token vectors pooled here)', () => pipelineEmbedder(fakePipeline(), { id: 'fake/minilm', pooling: 'none' }))

describe('pipelineEmbedder (transformers.js-style feature extraction)', () => {
  test('asks the pipeline for mean pooling and normalization, in batches, and returns unit vectors', async () => {
    const pipe = fakePipeline(32)
    const e = pipelineEmbedder(pipe, { id: 'Xenova/all-MiniLM-L6-v2', batchSize: 2 })
    const out = await e.embed(['a b', 'c', 'd e f'])
    expect(pipe.calls.map((c) => c.texts)).toEqual([['a b', 'c'], ['d e f']])
    expect(pipe.calls[0]!.options).toEqual({ pooling: 'mean', normalize: true })
    for (const v of out) expect(Math.hypot(...v)).toBeCloseTo(1, 5)
    expect(e.id).toBe('Xenova/all-MiniLM-L6-v2#mean+norm')
  })

  test('mean-pools [batch, tokens, dim] output itself', async () => {
    const pipe = fakePipeline(16)
    const pooled = await pipelineEmbedder(pipe, { id: 'm', normalize: false }).embed(['x y'])
    const tokens = await pipelineEmbedder(pipe, { id: 'm', normalize: false, pooling: 'none' }).embed(['x y'])
    expect([...tokens[0]!].map((x) => +x.toFixed(6))).toEqual([...pooled[0]!].map((x) => +x.toFixed(6)))
  })

  test('accepts one output per text (arrays or tensors), rejects a wrong shape', async () => {
    const perText: FeatureExtractor = async (texts) => texts.map((t) => ({ data: Float32Array.of(t.length, 1), dims: [2] }))
    expect((await pipelineEmbedder(perText, { id: 'p', normalize: false }).embed(['ab', 'abc'])).map((v) => [...v])).toEqual([[2, 1], [3, 1]])
    const wrong: FeatureExtractor = async () => ({ data: new Float32Array(6), dims: [3, 2] })
    await expect(pipelineEmbedder(wrong, { id: 'w' }).embed(['only one'])).rejects.toMatchObject({ code: 'INTERNAL' })
    expect(() => pipelineEmbedder(undefined as never, { id: 'x' })).toThrow(/extractor/)
    try {
      pipelineEmbedder(fakePipeline(), { id: '' })
    } catch (err) {
      expect(isMemweaveError(err) && err.code).toBe('INVALID_ARGUMENT')
    }
  })

  test('working memory runs on a pipeline embedder, and on two tabs with different embedders', async () => {
    const storage = memoryStorage()
    const tab1 = await createMemory({ storage })
    const tab2 = await createMemory({ storage, working: { embedder: pipelineEmbedder(fakePipeline(), { id: 'fake/minilm' }) } })
    const [w1, w2] = [await tab1.working.open('t'), await tab2.working.open('t')]
    const a = await w1.addObservation({ content: 'The offsite is on Tuesday', sourceAgentId: 'a', beliefType: 'FACT' })
    // tab2 cannot use the vector tab1 stored (another embedder): it embeds a's topic itself and checks after its commit.
    const b = await w2.addObservation({ content: 'The offsite is on Thursday', sourceAgentId: 'b', beliefType: 'FACT' })
    const conflicts = await w1.getConflicts()
    expect(conflicts.map((c) => [c.a.id, c.b.id])).toEqual([[a.id, b.id]])
    expect((await w2.getContextForAgent('r', AgentRole.RESEARCHER)).map((o) => o.conflictsWith.length)).toEqual([1, 1])
    await tab1.close()
    await tab2.close()
  })
})
