import type { LanguageModel, LanguageModelMiddleware } from 'ai'
import { invalidArgument } from '../core/errors.js'
import type { FactStore, FactMemory } from '../facts/types.js'
import type { Pools } from '../pools/types.js'
import { extractFacts, type Exchange } from './memory-extraction.js'

/** What the middleware needs of a memory: `createMemory()`'s or `openMemory()`'s (the worker client) alike. */
export interface MiddlewareMemory {
  readonly facts: FactStore
  /** Read only to learn a listed pool's tenant (`pools` option). */
  readonly pools: Pick<Pools, 'info'>
}

/** Which step of the middleware failed (`onError`). */
export type MemoryStep = 'recall' | 'remember'

export interface MemoryRecallOptions {
  /** Characters of memory put into the prompt at most (GMP's budget; the store counts characters). Default 1,000. */
  readonly budgetTokens?: number
  /** Fill the budget with memories that match nothing once the matches are in. Default false (see memoryTools' `includeUnmatched`). */
  readonly includeUnmatched?: boolean
}

export interface MemoryRememberOptions {
  /**
   * The model that reads the exchange and answers, as structured output, what is worth keeping.
   * Default: the wrapped model itself (the call goes to it directly, not through this middleware).
   */
  readonly model?: LanguageModel
  /** At most this many facts kept from one exchange (the first the model lists). Default 5. */
  readonly maxFacts?: number
  /** Replaces the extraction instructions (the system prompt of the extraction call). */
  readonly instructions?: string
}

export interface MemoryMiddlewareOptions {
  /** The tenant recall reads and remember writes (GMP tenant isolation). Default: none. */
  readonly tenantId?: string | null
  /**
   * Pools whose memories recall may bring in (a pool memory is also a fact in its pool's tenant,
   * docs/pools.md): listed pools are read in their tenants too, and other pools' memories are left
   * out. Default: every pool memory in `tenantId`. `[]`: no pool memory at all.
   */
  readonly pools?: readonly string[]
  /** Recall before each generation, into the prompt as a system message. `false` turns it off. Default on. */
  readonly recall?: MemoryRecallOptions | false
  /** Remember after each generation that ends in text. `false` turns it off. Default on. */
  readonly remember?: MemoryRememberOptions | false
  /**
   * Called when a memory step fails (the store refused, the extraction model failed or answered
   * outside the schema). The generation goes on regardless: without the memories (recall), or
   * with its answer returned as it is (remember). Default: a one-line `console.warn`.
   */
  readonly onError?: (error: unknown, step: MemoryStep) => void
}

type Params = Parameters<NonNullable<LanguageModelMiddleware['wrapGenerate']>>[0]['params']
type PromptMessage = Params['prompt'][number]
type GenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>
type StreamResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapStream']>>>
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never

const HEADER =
  'What you remember from earlier conversations (current facts, most relevant first; use them when they help, ' +
  'they may be out of date; a fact marked "contradicted" has another remembered fact saying otherwise):'

/**
 * A memory middleware for any AI SDK model (`wrapLanguageModel({ model, middleware })`), the
 * pattern of mem0's AI SDK provider, over a memweave memory:
 * - **recall** before each generation: the memories that match the user's last message, within
 *   `budgetTokens` characters, tenant- and pool-aware, go into the prompt as one system message;
 * - **remember** after each generation that ends in text: a model (the same one, or
 *   `remember.model`) reads the exchange and the recalled facts and answers, as structured output,
 *   the facts worth keeping, each new or replacing one recalled fact. A replacement is a
 *   `facts.supersede` of that fact; anything else a `facts.write`, so the conflict rules apply (a
 *   new value for a remembered one that was not marked as replacing it is flagged, not merged).
 * Both for `generateText` and `streamText` (the stream ends once remembering is done).
 *
 * A failing memory step never fails the generation: it is reported to `onError` and the model
 * answers without memories, or its answer is returned as it is. Cost: one `retrieve` per
 * generation (per listed pool tenant) and one extra model call per answer in text.
 *
 * @throws MemweaveError INVALID_ARGUMENT for a bad memory or options.
 * @example
 * import { generateText, wrapLanguageModel } from 'ai'
 * import { memoryMiddleware } from 'memweave/ai'
 * const model = wrapLanguageModel({ model: openai('gpt-4.1-mini'), middleware: memoryMiddleware(mem) })
 * const { text } = await generateText({ model, prompt: 'I moved to Milan last week.' })
 */
export function memoryMiddleware(mem: MiddlewareMemory, options: MemoryMiddlewareOptions = {}): LanguageModelMiddleware {
  if (typeof mem !== 'object' || mem === null || typeof mem.facts !== 'object' || mem.facts === null) throw invalidArgument('mem', 'must be a FactMemory (createMemory or openMemory)')
  const o = checkOptions(options)
  const poolTenants = new Map<string, string | null>()

  /** The memories for this query: the tenant's own facts and the allowed pools' memories. */
  const recallFor = async (query: string): Promise<FactMemory[]> => {
    const tenants: Array<string | null> = [o.tenantId]
    for (const pool of o.pools ?? []) {
      // A pool's tenant is part of its id (derivePoolId): one lookup per pool for the middleware's life.
      if (!poolTenants.has(pool)) poolTenants.set(pool, (await mem.pools.info(pool)).tenantId)
      const t = poolTenants.get(pool)!
      if (!tenants.includes(t)) tenants.push(t)
    }
    const budget = Math.floor(o.budgetTokens / tenants.length)
    const lists = await Promise.all(tenants.map((tenantId) => mem.facts.retrieve(query, { budgetTokens: budget, tenantId, matchesOnly: !o.includeUnmatched })))
    return lists.flat().filter((m) => {
      const pool = m.metadata['pool']
      if (typeof pool !== 'string') return m.tenantId === o.tenantId
      return o.pools === null || o.pools.includes(pool)
    })
  }

  const fail = (error: unknown, step: MemoryStep): void => {
    try {
      o.onError(error, step)
    } catch {
      // An onError that throws must not fail the generation either.
    }
  }

  /** Recalls for the prompt's last user message; the memories and the prompt to send. */
  const before = async (params: Params): Promise<{ params: Params; recalled: FactMemory[] | null; query: string }> => {
    const query = lastUserText(params.prompt)
    if (query === '' || !o.recall) return { params, recalled: null, query }
    try {
      const recalled = await recallFor(query)
      return { params: recalled.length > 0 ? { ...params, prompt: withMemories(params.prompt, recalled) } : params, recalled, query }
    } catch (err) {
      fail(err, 'recall')
      return { params, recalled: null, query }
    }
  }

  const after = async (model: LanguageModel, query: string, recalled: FactMemory[] | null, answer: string, signal: AbortSignal | undefined): Promise<void> => {
    if (!o.remember || query === '' || answer.trim() === '') return
    try {
      // Only the tenant's own facts may be replaced: a pool memory's record is its truth, not its fact (docs/pools.md).
      const known = (recalled ?? (await recallFor(query))).filter((m) => typeof m.metadata['pool'] !== 'string')
      const exchange: Exchange = { user: query, assistant: answer, known: known.map((m) => m.content) }
      const facts = await extractFacts(o.rememberModel ?? model, exchange, { instructions: o.instructions, maxFacts: o.maxFacts, signal })
      const seen = new Set(known.map((m) => normalize(m.content)))
      const replaced = new Set<number>()
      for (const f of facts) {
        if (seen.has(normalize(f.content))) continue
        seen.add(normalize(f.content))
        const metadata = f.triple ? { metadata: f.triple } : {}
        // One successor per fact: a second would be a competing supersession; it is written as a fact of its own.
        const old = f.replaces !== null && !replaced.has(f.replaces) ? known[f.replaces] : undefined
        if (old) {
          replaced.add(f.replaces!)
          await mem.facts.supersede(old.ref, f.content, { tenantId: o.tenantId, ...metadata })
        } else {
          await mem.facts.write(f.content, { tenantId: o.tenantId, ...metadata })
        }
      }
    } catch (err) {
      fail(err, 'remember')
    }
  }

  return {
    specificationVersion: 'v3',
    async wrapGenerate({ params, model }) {
      const b = await before(params)
      const result = await model.doGenerate(b.params)
      if (!hasToolCall(result.content)) await after(model as LanguageModel, b.query, b.recalled, textOf(result.content), params.abortSignal)
      return result
    },
    async wrapStream({ params, model }) {
      const b = await before(params)
      const result = await model.doStream(b.params)
      let answer = ''
      let calledTool = false
      const remembering = new TransformStream<StreamPart, StreamPart>({
        transform(part, controller) {
          const p = part as { type: string; delta?: unknown }
          if (p.type === 'text-delta' && typeof p.delta === 'string') answer += p.delta
          else if (p.type === 'tool-call') calledTool = true
          controller.enqueue(part)
        },
        // The caller reads every part first; the stream ends once what was worth keeping is stored.
        async flush() {
          if (!calledTool) await after(model as LanguageModel, b.query, b.recalled, answer, params.abortSignal)
        },
      })
      return { ...result, stream: result.stream.pipeThrough(remembering) }
    },
  } as LanguageModelMiddleware
}

interface Checked {
  readonly tenantId: string | null
  readonly pools: readonly string[] | null
  readonly recall: boolean
  readonly budgetTokens: number
  readonly includeUnmatched: boolean
  readonly remember: boolean
  readonly rememberModel: LanguageModel | null
  readonly maxFacts: number
  readonly instructions: string | null
  readonly onError: (error: unknown, step: MemoryStep) => void
}

function checkOptions(options: MemoryMiddlewareOptions): Checked {
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
  const { tenantId = null, pools, recall = {}, remember = {}, onError } = options
  if (tenantId !== null && (typeof tenantId !== 'string' || tenantId === '')) throw invalidArgument('tenantId', 'must be a non-empty string or null')
  if (pools !== undefined && (!Array.isArray(pools) || pools.some((p) => typeof p !== 'string' || p === ''))) throw invalidArgument('pools', 'must be an array of pool ids')
  if (recall !== false && (typeof recall !== 'object' || recall === null)) throw invalidArgument('recall', 'must be an object or false')
  if (remember !== false && (typeof remember !== 'object' || remember === null)) throw invalidArgument('remember', 'must be an object or false')
  const budgetTokens = recall === false ? 1_000 : recall.budgetTokens ?? 1_000
  if (!Number.isInteger(budgetTokens) || budgetTokens < 1) throw invalidArgument('recall.budgetTokens', 'must be a positive integer')
  const includeUnmatched = recall === false ? false : recall.includeUnmatched ?? false
  if (typeof includeUnmatched !== 'boolean') throw invalidArgument('recall.includeUnmatched', 'must be a boolean')
  const r = remember === false ? {} : remember
  const maxFacts = r.maxFacts ?? 5
  if (!Number.isInteger(maxFacts) || maxFacts < 1 || maxFacts > 100) throw invalidArgument('remember.maxFacts', 'must be an integer from 1 to 100')
  if (r.model !== undefined && (r.model === null || (typeof r.model !== 'string' && typeof r.model !== 'object'))) throw invalidArgument('remember.model', 'must be an AI SDK language model')
  if (r.instructions !== undefined && (typeof r.instructions !== 'string' || r.instructions.trim() === '')) throw invalidArgument('remember.instructions', 'must be a non-empty string')
  if (onError !== undefined && typeof onError !== 'function') throw invalidArgument('onError', 'must be a function')
  return {
    tenantId, pools: pools ?? null, recall: recall !== false, budgetTokens, includeUnmatched,
    remember: remember !== false, rememberModel: r.model ?? null, maxFacts, instructions: r.instructions ?? null,
    onError: onError ?? ((error, step) => console.warn(`memweave/ai memoryMiddleware: ${step} failed, the generation went on without it: ${error instanceof Error ? error.message : String(error)}`)),
  }
}

/** The text of the prompt's last user message: what recall looks for and remember reads. */
function lastUserText(prompt: readonly PromptMessage[]): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!
    if (m.role !== 'user') continue
    return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n').trim()
  }
  return ''
}

/** The prompt with the memories as one system message after the caller's own system messages. */
function withMemories(prompt: readonly PromptMessage[], memories: readonly FactMemory[]): PromptMessage[] {
  const lines = memories.map((m) => {
    const pool = typeof m.metadata['pool'] === 'string' ? ' (shared in a pool)' : ''
    const contradicted = m.conflictsWith.length > 0 ? ' (contradicted)' : ''
    return `- ${m.content}${pool}${contradicted}`
  })
  const message = { role: 'system', content: `${HEADER}\n${lines.join('\n')}` } as PromptMessage
  const at = prompt.findIndex((m) => m.role !== 'system')
  return at === -1 ? [...prompt, message] : [...prompt.slice(0, at), message, ...prompt.slice(at)]
}

function textOf(content: GenerateResult['content']): string {
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('')
}

function hasToolCall(content: GenerateResult['content']): boolean {
  return content.some((p) => p.type === 'tool-call')
}

const normalize = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase()
