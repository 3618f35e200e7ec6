import { generateObject, jsonSchema, type LanguageModel } from 'ai'
import { ErrorCode, MemweaveError } from '../core/errors.js'

/** One exchange as the extraction reads it: the user's message, the answer, and what was recalled for it. */
export interface Exchange {
  readonly user: string
  readonly assistant: string
  /** The recalled facts' texts, shown to the model as M1, M2, ... so it names them without copying a ref. */
  readonly known: readonly string[]
}

/** A fact worth keeping: its text, a structure when the model gave all three parts, and which known fact it replaces. */
export interface ExtractedFact {
  readonly content: string
  readonly triple: { readonly subject: string; readonly predicate: string; readonly object: string } | null
  /** Index into `Exchange.known`, or null for a new fact. */
  readonly replaces: number | null
}

const SYSTEM = [
  'You keep the long-term memory of an AI assistant. From one exchange between a user and the assistant, list the facts',
  'worth remembering in later conversations: what the user says about themselves, their preferences, plans, people, work',
  'and things, and decisions they confirm. Each fact is one self-contained sentence naming who it is about ("The user',
  'lives in Milan", not "I live in Milan"). Leave out greetings, questions, the assistant\'s own suggestions, and facts the',
  'remembered list already says. When a fact changes a remembered one (a move, a new preference, a corrected date), set',
  '"replaces" to that remembered fact\'s id (M1, M2, ...). Give subject, predicate and object only when the fact has a',
  'clear structure (e.g. "user", "lives_in", "Milan"). Answer {"facts": []} when nothing is worth keeping.',
].join(' ')

interface Answer {
  facts: Array<{ content: string; subject?: string; predicate?: string; object?: string; replaces?: string | null }>
}

const ANSWER_SCHEMA = jsonSchema<Answer>({
  type: 'object',
  properties: {
    facts: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          content: { type: 'string', description: 'The fact, one self-contained sentence' },
          subject: { type: 'string' },
          predicate: { type: 'string' },
          object: { type: 'string' },
          replaces: { type: ['string', 'null'], description: 'The id (M1, M2, ...) of the remembered fact this one replaces, or null' },
        },
        required: ['content'],
        additionalProperties: false,
      },
    },
  },
  required: ['facts'],
  additionalProperties: false,
})

/** A model's stray long answer is not a memory: longer facts are refused with the others. */
const MAX_FACT_CHARS = 2_000

/**
 * Asks `model` for the facts of an exchange as structured output (generateObject with a JSON
 * schema). The first `maxFacts` are kept; a `replaces` id the list does not have is dropped (the
 * fact is then new, and the conflict rules judge it against the others).
 *
 * @throws MemweaveError INTERNAL when the model answers outside the schema; the AI SDK's errors when the call fails.
 */
export async function extractFacts(
  model: LanguageModel, exchange: Exchange, options: { readonly instructions: string | null; readonly maxFacts: number; readonly signal: AbortSignal | undefined },
): Promise<ExtractedFact[]> {
  const known = exchange.known.length === 0 ? '(none)' : exchange.known.map((t, i) => `M${i + 1}: ${t}`).join('\n')
  const { object } = await generateObject({
    model,
    schema: ANSWER_SCHEMA,
    system: options.instructions ?? SYSTEM,
    prompt: `Remembered facts:\n${known}\n\nThe exchange:\nUser: ${exchange.user}\nAssistant: ${exchange.assistant}`,
    maxRetries: 1,
    ...(options.signal ? { abortSignal: options.signal } : {}),
  })
  // The schema is a request, not a guarantee: a model may still answer outside it.
  const facts = (object as Partial<Answer> | null)?.facts
  if (!Array.isArray(facts)) throw outside(object)
  const out: ExtractedFact[] = []
  for (const f of facts.slice(0, options.maxFacts)) {
    if (typeof f !== 'object' || f === null || typeof f.content !== 'string' || f.content.length > MAX_FACT_CHARS) throw outside(object)
    const content = f.content.trim()
    if (content === '') continue
    const parts = [f.subject, f.predicate, f.object]
    const triple = parts.every((p) => typeof p === 'string' && p.trim() !== '') ? { subject: f.subject!.trim(), predicate: f.predicate!.trim(), object: f.object!.trim() } : null
    const id = typeof f.replaces === 'string' ? /^M(\d+)$/i.exec(f.replaces.trim()) : null
    const index = id ? Number(id[1]) - 1 : -1
    out.push({ content, triple, replaces: index >= 0 && index < exchange.known.length ? index : null })
  }
  return out
}

function outside(object: unknown): MemweaveError {
  return new MemweaveError(ErrorCode.INTERNAL, `memoryMiddleware: the extraction model answered ${JSON.stringify(object).slice(0, 200)}, not a list of facts`)
}
