import type { LabelScore, PairClassifier } from '../../src/index.js'

/**
 * A stand-in for a transformers.js NLI cross-encoder (`pipeline('text-classification', model)`),
 * with its call shape and output: `{ text, text_pair }` inputs, `{ top_k: null }`, one list of
 * label scores per input (a single input unwrapped). It says contradiction only for pairs one of
 * whose texts contains one of `contradicts`' words and the other does not, each mentioning `topic`;
 * everything else is entailment. It counts the pairs it was asked about.
 */
export function fakeNliPipeline(rule: { topic: string; negation: string }, labels = ['CONTRADICTION', 'ENTAILMENT', 'NEUTRAL']): PairClassifier & { pairs: number } {
  const fn = (async (inputs: Array<{ text: string; text_pair: string }>) => {
    fn.pairs += inputs.length
    const out = inputs.map(({ text, text_pair }): LabelScore[] => {
      const on = (t: string): boolean => t.toLowerCase().includes(rule.topic)
      const neg = (t: string): boolean => new RegExp(`\\b${rule.negation}\\b`, 'i').test(t)
      const c = on(text) && on(text_pair) && neg(text) !== neg(text_pair) ? 0.94 : 0.03
      return [
        { label: labels[1]!, score: (1 - c) * 0.8 },
        { label: labels[0]!, score: c },
        { label: labels[2]!, score: (1 - c) * 0.2 },
      ]
    })
    return out.length === 1 ? out[0]! : out
  }) as unknown as PairClassifier & { pairs: number }
  fn.pairs = 0
  return fn
}
