import { generateObject, jsonSchema, type LanguageModel } from 'ai'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import type { ConflictJudge, JudgeVerdict } from '../conflict-judge/types.js'

/** Bump when the prompt or the schema changes: verdicts are stored under the judge's id, so a new version asks again. */
const PROMPT_VERSION = 'p1'

const LABELS: ReadonlyArray<JudgeVerdict['label']> = ['contradiction', 'entailment', 'neutral']

const SYSTEM = [
  'You check an AI agent\'s memory for contradictions. You get two statements the agent stored.',
  'Answer "contradiction" only if both cannot be true at the same time: the same subject, the same attribute, incompatible values',
  '(a meeting at 9:30 and the same meeting at 10; a room that has a projector and the same room without one).',
  'Different people, items, numbers of a list, tickets, steps, versions or times of life are not a contradiction; neither is a',
  'greeting, a question, a plan, an opinion or a change told as a change. Answer "entailment" if one statement says what the',
  'other says, else "neutral". confidence is how sure you are, from 0 to 1.',
].join(' ')

const VERDICT_SCHEMA = jsonSchema<{ label: JudgeVerdict['label']; confidence: number }>({
  type: 'object',
  properties: {
    label: { type: 'string', enum: ['contradiction', 'entailment', 'neutral'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['label', 'confidence'],
  additionalProperties: false,
})

export interface LlmConflictJudgeOptions {
  /** Any AI SDK language model (`openai('gpt-4.1-mini')`, `anthropic(...)`, a local one), or a gateway model id. */
  readonly model: LanguageModel
  /**
   * Names the judge in stored verdicts and reasons. Default `llm:<provider>/<modelId>/p1` (p1: this
   * prompt's version). Change it when you change the model's settings: every pair is asked again.
   */
  readonly id?: string
  /** Replaces the instructions (the system prompt); give the judge a new `id` with them. */
  readonly instructions?: string
  /** Retries of one model call by the AI SDK on a transient error. Default 1 (the stage asks again later anyway). */
  readonly maxRetries?: number
}

/**
 * A second-stage conflict judge over the agent's own language model (any AI SDK model): for each
 * pair the model-free detector proposes it asks the model for a structured verdict
 * (`{ label: 'contradiction' | 'entailment' | 'neutral', confidence }`, generateObject with a JSON
 * schema), one call per pair, the pairs of one batch one after another. Pass it as
 * `createMemory({ conflictJudge: { judge: llmConflictJudge({ model }) } })` or to openMemory.
 *
 * Privacy: both texts of every pair asked about go to the model's provider. Cost: one model call
 * per pair, at most `maxPairsPerWrite` pairs per write (docs/conflicts.md, "A second-stage judge").
 *
 * @throws MemweaveError INVALID_ARGUMENT without a model, or with an empty id or instructions; from judge(),
 *   INTERNAL when the model answers outside the schema, and the AI SDK's errors when a call fails.
 * @example
 * import { openai } from '@ai-sdk/openai'
 * import { llmConflictJudge } from 'memweave/ai'
 * const mem = await createMemory({ conflictJudge: { judge: llmConflictJudge({ model: openai('gpt-4.1-mini') }) } })
 */
export function llmConflictJudge(options: LlmConflictJudgeOptions): ConflictJudge {
  const model = options?.model
  if (model === undefined || model === null || (typeof model !== 'string' && typeof model !== 'object')) throw invalidArgument('model', 'must be an AI SDK language model')
  const id = options.id ?? `llm:${modelName(model)}/${PROMPT_VERSION}`
  if (typeof id !== 'string' || id === '') throw invalidArgument('id', 'must be a non-empty string')
  const system = options.instructions ?? SYSTEM
  if (typeof system !== 'string' || system.trim() === '') throw invalidArgument('instructions', 'must be a non-empty string')
  const maxRetries = options.maxRetries ?? 1
  return {
    id,
    async judge(pairs, call = {}) {
      const out: JudgeVerdict[] = []
      for (const [a, b] of pairs) {
        const { object } = await generateObject({
          model,
          schema: VERDICT_SCHEMA,
          system,
          prompt: `Statement A: ${a}\nStatement B: ${b}`,
          maxRetries,
          ...(call.signal ? { abortSignal: call.signal } : {}),
        })
        // The schema is a request, not a guarantee: a model may still answer outside it.
        const { label, confidence } = (object ?? {}) as Partial<JudgeVerdict>
        if (!LABELS.includes(label as JudgeVerdict['label']) || typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1)) {
          throw new MemweaveError(ErrorCode.INTERNAL, `${id}: the model answered ${JSON.stringify(object)}, not a verdict`)
        }
        out.push({ label: label!, confidence })
      }
      return out
    },
  }
}

function modelName(model: LanguageModel): string {
  if (typeof model === 'string') return model
  const m = model as { provider?: unknown; modelId?: unknown }
  return `${typeof m.provider === 'string' ? m.provider : 'model'}/${typeof m.modelId === 'string' ? m.modelId : 'unknown'}`
}
