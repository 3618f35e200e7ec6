/**
 * The second-stage conflict judge: a model asked about the pairs the model-free detector proposes.
 * Kept apart from src/conflict (the model-free detector) so that the worker of a page without a
 * judge loads none of this, and memweave/ai can build a judge without the detector.
 */

/** What a judge says of one pair, in the vocabulary of natural-language inference. */
export type JudgeLabel = 'contradiction' | 'entailment' | 'neutral'

/** A judge's answer for one pair of texts. */
export interface JudgeVerdict {
  /** `contradiction`: both cannot hold; `entailment`: one says the other; `neutral`: both can hold. */
  readonly label: JudgeLabel
  /** How sure the judge is of its label, in [0, 1]. */
  readonly confidence: number
}

/**
 * Judges pairs of texts for contradiction with a model: `nliConflictJudge` (a transformers.js NLI
 * pipeline you host) or `llmConflictJudge` from memweave/ai (any AI SDK model). Write your own by
 * answering one verdict per pair, in order.
 */
export interface ConflictJudge {
  /**
   * Names the model and its setup, e.g. `'Xenova/nli-deberta-v3-xsmall'`. Verdicts are stored under
   * it: change it when the model or its prompt changes, and every pair is asked again.
   */
  readonly id: string
  judge(pairs: ReadonlyArray<readonly [string, string]>, options?: { readonly signal?: AbortSignal }): Promise<readonly JudgeVerdict[]>
}

/** The `conflictJudge` option of createMemory and openMemory. */
export interface ConflictJudgeOptions {
  readonly judge: ConflictJudge
  /** Pairs of one written fact or observation the judge is asked about at most; the others keep the model-free verdict. Default 3. */
  readonly maxPairsPerWrite?: number
  /** Judge calls in flight at once. Default 2. */
  readonly concurrency?: number
  /** Pairs per judge call. Default 8. */
  readonly batchSize?: number
  /** A call that has not answered after this many ms counts as failed. Default 20,000. */
  readonly timeoutMs?: number
  /** Times a failed pair is asked again (at a later read, never in a loop). Default 2. */
  readonly retries?: number
  /**
   * Free-text pairs the model-free detector scores at this confidence or above are put to
   * the judge (0.2 to 1). Default: the listing threshold (`minConfidence` of `conflicts()`, 0.8), so
   * the judge only clears false alarms. Lower it and a pair below the listing threshold is listed
   * when, and only when, the judge calls it a contradiction: the model raises recall as well as
   * precision, at more calls (still at most `maxPairsPerWrite` per write, the surest pairs first).
   * Working memory likewise: a pair of observations in the band is asked at `getConflicts()`, and
   * recorded as a conflict on the judge's contradiction (docs/conflicts.md).
   */
  readonly minCandidateConfidence?: number
}

/**
 * Where a listed free-text conflict stands with the judge (present only when a judge is set):
 * `judged` (the judge said contradiction; pairs it called entailment or neutral are not listed),
 * `pending` (asked, no answer yet: the model-free verdict stands), `unjudged` (not asked: over
 * `maxPairsPerWrite`, or its calls failed `retries + 1` times: the model-free verdict stands).
 */
export type JudgeMark =
  | { readonly id: string; readonly status: 'judged'; readonly label: JudgeLabel; readonly confidence: number }
  | { readonly id: string; readonly status: 'pending' }
  | { readonly id: string; readonly status: 'unjudged'; readonly why: 'bound' | 'failed' }
