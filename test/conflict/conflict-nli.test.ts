import { describe, expect, test } from 'vitest'
import { isMemweaveError, nliConflictJudge, type LabelScore, type PairClassifier } from '../../src/index.js'

/**
 * A stand-in for a transformers.js NLI cross-encoder: "contradiction" when exactly one side says
 * "not", and only in the direction premise-without-not -> hypothesis-with-not, so symmetry shows.
 * It records its calls so batching can be checked.
 */
function fakeNli(labels = ['CONTRADICTION', 'ENTAILMENT', 'NEUTRAL']): PairClassifier & { calls: number[] } {
  const calls: number[] = []
  const fn = (async (inputs: Array<{ text: string; text_pair: string }>) => {
    calls.push(inputs.length)
    const out = inputs.map(({ text, text_pair }): LabelScore[] => {
      const c = !/\bnot\b/.test(text) && /\bnot\b/.test(text_pair) ? 0.9 : 0.05
      return [
        { label: labels[0]!, score: c },
        { label: labels[1]!, score: (1 - c) / 2 },
        { label: labels[2]!, score: (1 - c) / 2 },
      ]
    })
    // transformers.js unwraps a single input's result.
    return out.length === 1 ? out[0]! : out
  }) as unknown as PairClassifier & { calls: number[] }
  fn.calls = calls
  return fn
}

describe('NLI conflict judge over a user-provided pipeline', () => {
  test('flags a contradiction in either order (symmetric by default), with a reason naming the model', async () => {
    const judge = nliConflictJudge(fakeNli(), { id: 'fake/nli' })
    const [forward, backward, same] = await judge.judge([
      ['the API supports pagination', 'the API does not support pagination'],
      ['the API does not support pagination', 'the API supports pagination'],
      ['the API supports pagination', 'pagination is supported'],
    ])
    expect(forward).toMatchObject({ conflict: true, score: 0.9 })
    expect(backward).toMatchObject({ conflict: true, score: 0.9 })
    expect(same!.conflict).toBe(false)
    expect(forward!.reason).toMatch(/fake\/nli: contradiction probability 0\.90/)
  })

  test('one direction only when symmetric is false; the threshold is respected', async () => {
    const oneWay = nliConflictJudge(fakeNli(), { id: 'fake', symmetric: false })
    const [v] = await oneWay.judge([['it does not rain', 'it rains']])
    expect(v!.conflict).toBe(false)
    const strict = nliConflictJudge(fakeNli(), { id: 'fake', threshold: 0.95 })
    const [w] = await strict.judge([['it rains', 'it does not rain']])
    expect(w).toMatchObject({ conflict: false, score: 0.9 })
    expect(w!.reason).toMatch(/below 0\.95/)
  })

  test('batches pipeline calls and maps model-specific labels', async () => {
    const nli = fakeNli(['contradiction', 'entailment', 'neutral'])
    const judge = nliConflictJudge(nli, { id: 'fake', batchSize: 2, symmetric: false })
    const verdicts = await judge.judge(Array.from({ length: 5 }, (_, i) => [`x${i} holds`, `x${i} does not hold`] as const))
    expect(verdicts.every((v) => v.conflict)).toBe(true)
    expect(nli.calls).toEqual([2, 2, 1])
    const indexed = nliConflictJudge(fakeNli(['LABEL_0', 'LABEL_1', 'LABEL_2']), { id: 'fake', contradictionLabel: 'LABEL_0' })
    expect((await indexed.judge([['a is on', 'a is not on']]))[0]!.conflict).toBe(true)
  })

  test('coded errors: bad arguments at construction, unusable pipeline output at judge time', async () => {
    const code = (f: () => unknown): string | undefined => {
      try {
        f()
      } catch (err) {
        return isMemweaveError(err) ? `${err.code}:${String(err.details.field)}` : 'other'
      }
      return undefined
    }
    expect(code(() => nliConflictJudge(undefined as never, { id: 'x' }))).toBe('INVALID_ARGUMENT:classifier')
    expect(code(() => nliConflictJudge(fakeNli(), { id: '' }))).toBe('INVALID_ARGUMENT:id')
    expect(code(() => nliConflictJudge(fakeNli(), { id: 'x', threshold: 2 }))).toBe('INVALID_ARGUMENT:threshold')
    const noLabel = nliConflictJudge(fakeNli(['A', 'B', 'C']), { id: 'x' })
    await expect(noLabel.judge([['a', 'b']])).rejects.toMatchObject({ code: 'INTERNAL' })
    const wrongLength = nliConflictJudge((async () => [[{ label: 'CONTRADICTION', score: 1 }]]) as PairClassifier, { id: 'x' })
    await expect(wrongLength.judge([['a', 'b'], ['c', 'd']])).rejects.toMatchObject({ code: 'INTERNAL' })
  })
})
