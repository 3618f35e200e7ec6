import { jsonSchema, tool, type Tool } from 'ai'
import { invalidArgument, isMemweaveError } from '../core/errors.js'
import { knownFact } from '../facts/known-ref.js'
import type { FactStore } from '../facts/types.js'
import type { Pools } from '../pools/types.js'
import { checkInput, toJsonSchema, type FlatSchema } from './schema.js'

/** What the tools need of a memory: `createMemory()`'s or `openMemory()`'s (the worker client) alike. */
export interface ToolMemory {
  readonly facts: FactStore
  readonly pools: Pools
}

export const MEMORY_TOOL_NAMES = ['remember', 'recall', 'supersede', 'forget', 'listConflicts', 'shareToPool'] as const
export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number]

export interface MemoryToolsOptions {
  /** Which tools to hand the model. Default: all of them. */
  readonly tools?: readonly MemoryToolName[]
  /** Characters of memory `recall` returns at most when the model asks for no budget. Default 2,000. */
  readonly budgetTokens?: number
  /** The tenant every tool reads and writes (GMP tenant isolation). Default: none. */
  readonly tenantId?: string | null
  /** Pools `shareToPool` may write into; others are refused before anything is written. Default: any the identity may write. */
  readonly pools?: readonly string[]
  /**
   * `recall` fills its budget with memories that match nothing once the matches are in (the
   * zero-score tail, by importance and recency), as `facts.retrieve` does. Default false: only
   * memories that match the query (`RetrieveOptions.matchesOnly`), so a model is not handed
   * unrelated facts as if they answered.
   */
  readonly includeUnmatched?: boolean
}

/**
 * What a tool returns when memweave refused the call: the library's own error code, for the model
 * to read, the argument at fault, and for a ref it does not know a hint saying what to call instead.
 * Nothing was written.
 */
export interface ToolFailure {
  readonly ok: false
  readonly error: {
    readonly code: string
    readonly message: string
    readonly field?: string
    readonly hint?: string
  }
}

type Input = Record<string, unknown>

interface Spec {
  readonly description: string
  readonly input: FlatSchema
  run(input: Input): Promise<unknown>
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
/** listConflicts names at most this many (the first, in the store's order). */
const CONFLICTS_LISTED = 50

/**
 * Memory tools for the Vercel AI SDK (`ai`): hand them to `generateText`/`streamText`/an `Agent`
 * and the model can remember, recall within a budget, supersede, forget (hard delete), list
 * contradictions and share into a pool. Every input is checked against its schema (unknown keys
 * refused); a call memweave refuses returns `{ ok: false, error: { code, message, field?, hint? } }`
 * with the library's error code instead of throwing, so the model can correct itself: a ref no
 * fact of the tools' tenant has (a model made it up) is NOT_FOUND with a hint to recall, and
 * nothing is written. `recall` returns only memories that match (see `includeUnmatched`).
 *
 * @throws MemweaveError INVALID_ARGUMENT for bad options.
 * @example
 * const { text } = await generateText({ model, tools: memoryTools(mem), stopWhen: stepCountIs(4), prompt })
 */
export function memoryTools(mem: ToolMemory, options: MemoryToolsOptions = {}): Record<MemoryToolName, Tool> {
  if (typeof mem !== 'object' || mem === null || typeof mem.facts !== 'object') throw invalidArgument('mem', 'must be a Memory (createMemory or openMemory)')
  const budget = options.budgetTokens ?? 2_000
  if (!Number.isInteger(budget) || budget <= 0) throw invalidArgument('budgetTokens', 'must be a positive integer')
  const wanted = options.tools ?? MEMORY_TOOL_NAMES
  for (const name of wanted) if (!MEMORY_TOOL_NAMES.includes(name)) throw invalidArgument('tools', `unknown tool "${String(name)}"; known: ${MEMORY_TOOL_NAMES.join(', ')}`)
  const tenantId = options.tenantId ?? null
  if (options.includeUnmatched !== undefined && typeof options.includeUnmatched !== 'boolean') throw invalidArgument('includeUnmatched', 'must be a boolean')
  const specs = toolSpecs(mem, budget, tenantId, options.pools ?? null, options.includeUnmatched === true)
  const tools = {} as Record<MemoryToolName, Tool>
  for (const name of wanted) {
    const spec = specs[name]
    tools[name] = tool({
      description: spec.description,
      inputSchema: jsonSchema<Input>(toJsonSchema(spec.input), { validate: (value) => checkInput(spec.input, value) }),
      execute: async (input: Input) => {
        try {
          return await spec.run(input)
        } catch (err) {
          if (isMemweaveError(err)) return toolFailure(err)
          throw err
        }
      },
    }) as Tool
  }
  return tools
}

/** A refusal as the model reads it (see ToolFailure). */
function toolFailure(err: { code: string; message: string; details: Readonly<Record<string, unknown>> }): ToolFailure {
  const { field, hint } = err.details
  return {
    ok: false,
    error: { code: err.code, message: err.message, ...(typeof field === 'string' ? { field } : {}), ...(typeof hint === 'string' ? { hint } : {}) },
  }
}

function toolSpecs(mem: ToolMemory, budget: number, tenantId: string | null, pools: readonly string[] | null, includeUnmatched: boolean): Record<MemoryToolName, Spec> {
  const structured = (input: Input) =>
    input['subject'] && input['predicate'] && input['object'] ? { subject: str(input['subject']), predicate: str(input['predicate']), object: str(input['object']) } : undefined
  const triple = {
    subject: { type: 'string', description: 'Optional: who or what the fact is about, e.g. "user"' },
    predicate: { type: 'string', description: 'Optional: the relation, e.g. "prefers_theme". A new value for the same subject and predicate contradicts the old one unless superseded.' },
    object: { type: 'string', description: 'Optional: the value, e.g. "dark"' },
  } as const
  return {
    remember: {
      description:
        'Store a fact in long-term memory so it can be recalled in later conversations. Write one self-contained sentence ' +
        '(e.g. "The user prefers dark mode"). Give subject/predicate/object as well when the fact has a clear structure.',
      input: { properties: { content: { type: 'string', description: 'The fact, one self-contained sentence' }, ...triple, validFrom: { type: 'string', description: 'Optional ISO date from which the fact holds' } }, required: ['content'] },
      async run(input) {
        const metadata = structured(input)
        const ref = await mem.facts.write(str(input['content'])!, { tenantId, validFrom: str(input['validFrom']) ?? null, ...(metadata ? { metadata } : {}) })
        return { ok: true, ref }
      },
    },
    recall: {
      description:
        'Search long-term memory before answering anything about the user, earlier conversations or stored facts. ' +
        'Returns the current facts that match, most relevant first, each with the ref needed to supersede or forget it ' +
        '(an empty list when nothing matches: try other words, or say you do not know).',
      input: {
        properties: {
          query: { type: 'string', description: 'What to look for, in plain words' },
          budgetTokens: { type: 'number', description: `Optional: at most this many characters of memories (default ${budget})`, minimum: 1, maximum: 100_000 },
          asOf: { type: 'string', description: 'Optional ISO date: what was true then instead of now' },
        },
        required: ['query'],
      },
      async run(input) {
        const hits = await mem.facts.retrieve(str(input['query'])!, {
          budgetTokens: typeof input['budgetTokens'] === 'number' ? Math.floor(input['budgetTokens']) : budget,
          asOf: str(input['asOf']) ?? null,
          tenantId,
          matchesOnly: !includeUnmatched,
        })
        return { ok: true, memories: hits.map((m) => ({ ref: m.ref, content: m.content, validFrom: m.validFrom, conflictsWith: m.conflictsWith })) }
      },
    },
    supersede: {
      description:
        'Replace a remembered fact that is no longer true with its new version (the old one stays in history for "what was true when" ' +
        'questions, but is no longer recalled as current). Use the ref returned by recall; an unknown or already superseded ' +
        'ref is refused with a hint, and nothing is written.',
      input: { properties: { ref: { type: 'string', description: 'The ref of the outdated fact (from recall)' }, content: { type: 'string', description: 'The new fact, one sentence' }, ...triple }, required: ['ref', 'content'] },
      async run(input) {
        const metadata = structured(input)
        // GMP would make an unknown ref a fresh write and leave the outdated fact current (issue 29).
        const old = await knownFact(mem.facts, str(input['ref'])!, 'supersede', { tenantId })
        const ref = await mem.facts.supersede(old.ref, str(input['content'])!, { tenantId, ...(metadata ? { metadata } : {}) })
        return { ok: true, ref }
      },
    },
    forget: {
      description:
        'Permanently delete a remembered fact (hard delete: it cannot be recalled again). Only when the user asks to forget it. ' +
        'Use the ref returned by recall; an unknown ref is refused with a hint.',
      input: { properties: { ref: { type: 'string', description: 'The ref of the fact to delete (from recall)' } }, required: ['ref'] },
      async run(input) {
        // Another tenant's fact is unknown to this tenant's tools, as it is to their recall.
        const fact = await knownFact(mem.facts, str(input['ref'])!, 'forget', { tenantId })
        return { ok: true, deleted: await mem.facts.delete(fact.ref) }
      },
    },
    listConflicts: {
      description: `List contradictions in memory (two current facts that cannot both be true), at most ${CONFLICTS_LISTED}. Ask the user which one holds, then supersede or forget the other.`,
      input: { properties: {}, required: [] },
      async run() {
        // A slot someone filled with thousands of objects holds millions of pairs: a model reads the first few.
        const conflicts = await mem.facts.conflicts({ tenantId, limit: CONFLICTS_LISTED })
        // With a second-stage judge the model sees whether one confirmed a pair or it stands on the model-free verdict.
        return { ok: true, conflicts: conflicts.map((c) => ({ refs: c.refs, reason: c.reason, subject: c.subject, predicate: c.predicate, ...(c.judge ? { judge: c.judge } : {}) })) }
      },
    },
    shareToPool: {
      description:
        'Share a structured fact with other agents through a memory pool they can read (it syncs to their devices). ' +
        'Needs the pool id and subject/predicate/object.',
      input: {
        properties: {
          pool: { type: 'string', description: 'The pool id' },
          // Required here (a pool memory is structured), so not the "Optional:" descriptions of remember's triple.
          subject: { type: 'string', description: 'Who or what the fact is about, e.g. "standup"' },
          predicate: { type: 'string', description: 'The relation, e.g. "starts_at". A new value for the same subject and predicate contradicts the old one.' },
          object: { type: 'string', description: 'The value, e.g. "9:30"' },
          context: { type: 'string', description: 'Optional: a sentence of context' },
        },
        required: ['pool', 'subject', 'predicate', 'object'],
      },
      async run(input) {
        const pool = str(input['pool'])!
        if (pools && !pools.includes(pool)) throw invalidArgument('pool', `this agent may share only into ${pools.join(', ') || 'no pool'}`)
        const memory = await mem.pools.write(pool, {
          type: 'KNOWLEDGE',
          content: { subject: str(input['subject'])!, predicate: str(input['predicate'])!, object: str(input['object'])!, context: str(input['context']) ?? null },
        })
        return { ok: true, id: memory.id }
      },
    },
  }
}
