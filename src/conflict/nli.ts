import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { ConflictJudge, JudgeLabel, JudgeVerdict } from '../conflict-judge/types.js'

/** One label and its probability, as a transformers.js text-classification pipeline returns it. */
export interface LabelScore {
  readonly label: string
  readonly score: number
}

/**
 * A text-classification pipeline over sentence pairs, as transformers.js builds it for a
 * natural-language-inference (NLI) cross-encoder:
 * `const nli = await pipeline('text-classification', 'Xenova/nli-deberta-v3-xsmall')`.
 * Called with `{ text, text_pair }` inputs and `{ top_k: null }` (every label), it resolves to one
 * list of label scores per input (a single input may come back unwrapped).
 */
export type PairClassifier = (
  inputs: Array<{ text: string; text_pair: string }>,
  options: { top_k: null },
) => Promise<LabelScore[][] | LabelScore[]>

export interface NliJudgeOptions {
  /** Names the model, e.g. `'Xenova/nli-deberta-v3-xsmall'`; shown in reasons. */
  readonly id: string
  /** Contradiction probability at or above which a pair conflicts. Default 0.5. */
  readonly threshold?: number
  /**
   * NLI is directional (premise -> hypothesis); a contradiction is not. Judge both orders and take
   * the larger contradiction probability. Default true (twice the model calls).
   */
  readonly symmetric?: boolean
  /** Which label means contradiction. Default: a label containing "contra" (`CONTRADICTION`, `contradiction`). */
  readonly contradictionLabel?: string | ((label: string) => boolean)
  /** Pairs per pipeline call. Default 16. */
  readonly batchSize?: number
}

/** The model's answer for one pair: a `JudgeVerdict` (what the second-stage judge of createMemory reads) with the contradiction probability. */
export interface NliVerdict extends JudgeVerdict {
  readonly conflict: boolean
  /** Probability of contradiction (the larger of both orders when symmetric). */
  readonly score: number
  readonly reason: string
}

/** Judges pairs of texts for contradiction with a model; usable as `conflictJudge: { judge }` of createMemory/openMemory. */
export interface NliConflictJudge extends ConflictJudge {
  readonly id: string
  judge(pairs: ReadonlyArray<readonly [string, string]>): Promise<NliVerdict[]>
}

/**
 * Wraps an NLI cross-encoder that the caller builds and hosts (memweave downloads nothing and
 * does not depend on transformers.js). Use it where a model is available and a few milliseconds per
 * pair are affordable: as the second-stage judge of a Memory (`createMemory({ conflictJudge: { judge } })`),
 * which asks it about the pairs the model-free detector proposes, or on your own pairs. A pair is
 * `contradiction` at or above `threshold`, else `entailment` when the model's entailment label
 * outscores its neutral one (first order), else `neutral`; confidence is the contradiction
 * probability for a contradiction, one minus it otherwise. How to pick a model: docs/conflicts.md.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a missing classifier, id or a bad option; from
 *   judge(), INTERNAL when the pipeline's output has no contradiction label or the wrong length.
 * @example
 * import { pipeline } from '@huggingface/transformers'
 * const nli = await pipeline('text-classification', 'Xenova/nli-deberta-v3-xsmall')
 * const judge = nliConflictJudge(nli, { id: 'Xenova/nli-deberta-v3-xsmall' })
 * const [v] = await judge.judge([['standup is at 9:30', 'standup moved to 10']])
 */
export function nliConflictJudge(classifier: PairClassifier, options: NliJudgeOptions): NliConflictJudge {
  if (typeof classifier !== 'function') throw invalidArgument('classifier', 'must be a text-classification pipeline (a function)')
  if (typeof options?.id !== 'string' || options.id === '') throw invalidArgument('id', 'must name the model')
  const threshold = options.threshold ?? 0.5
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) throw invalidArgument('threshold', 'must be a number in [0, 1]')
  const batchSize = options.batchSize ?? 16
  if (!Number.isInteger(batchSize) || batchSize < 1) throw invalidArgument('batchSize', 'must be a positive integer')
  const symmetric = options.symmetric ?? true
  const want = options.contradictionLabel ?? ((l: string) => /contra/i.test(l))
  const isContradiction = typeof want === 'string' ? (l: string) => l === want : want

  async function scores(inputs: Array<{ text: string; text_pair: string }>): Promise<Array<{ contra: number; entails: boolean }>> {
    const out: Array<{ contra: number; entails: boolean }> = []
    for (let i = 0; i < inputs.length; i += batchSize) {
      const batch = inputs.slice(i, i + batchSize)
      const raw = await classifier(batch, { top_k: null })
      const rows = batch.length === 1 && isLabelList(raw) ? [raw] : raw
      if (!Array.isArray(rows) || rows.length !== batch.length || !rows.every(isLabelList)) {
        throw new MemweaveError(ErrorCode.INTERNAL, `NLI pipeline ${options.id}: expected one list of label scores per pair`)
      }
      for (const labels of rows as LabelScore[][]) {
        const hit = labels.find((l) => isContradiction(l.label))
        if (!hit) throw new MemweaveError(ErrorCode.INTERNAL, `NLI pipeline ${options.id}: no contradiction label among ${labels.map((l) => l.label).join(', ')}`)
        const entail = labels.find((l) => /entail/i.test(l.label))?.score ?? 0
        const neutral = labels.find((l) => /neutral/i.test(l.label))?.score ?? 0
        out.push({ contra: hit.score, entails: entail > neutral })
      }
    }
    return out
  }

  return {
    id: options.id,
    async judge(pairs) {
      const forward = await scores(pairs.map(([a, b]) => ({ text: a, text_pair: b })))
      const backward = symmetric ? await scores(pairs.map(([a, b]) => ({ text: b, text_pair: a }))) : forward
      return forward.map((f, i) => {
        const score = Math.max(f.contra, backward[i]!.contra)
        const conflict = score >= threshold
        const label: JudgeLabel = conflict ? 'contradiction' : f.entails ? 'entailment' : 'neutral'
        const confidence = conflict ? score : 1 - score
        return { conflict, score, label, confidence, reason: `${options.id}: contradiction probability ${score.toFixed(2)}${conflict ? '' : ` (below ${threshold})`}` }
      })
    },
  }
}

function isLabelList(x: unknown): x is LabelScore[] {
  return Array.isArray(x) && x.every((l) => typeof l === 'object' && l !== null && typeof (l as LabelScore).label === 'string' && typeof (l as LabelScore).score === 'number')
}
