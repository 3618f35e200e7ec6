import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { MemoryType, MergeStrategy, type Pools } from '../pools/types.js'
import { tool } from './tool-result.js'

// The library's own lists, so the tools can never offer a value mem.pools refuses.
const MEMORY_TYPES = Object.values(MemoryType) as [MemoryType, ...MemoryType[]]
const STRATEGIES = Object.values(MergeStrategy) as [MergeStrategy, ...MergeStrategy[]]
/** pool_conflicts shows at most this many memories of a group (its `size` says how many it has). */
const MEMBERS_SHOWN = 50

/**
 * LCS-004 pools over MCP (`pool_*`): create, share, write, query, forget, and the pool's
 * contradictions (list and resolve). Same behaviour and error codes as `mem.pools`: the server acts
 * as the store's identity, so a pool it does not own or cannot write answers PERMISSION_DENIED.
 */
export function registerPoolTools(server: McpServer, pools: Pools): void {
  server.registerTool('pool_create', {
    title: 'Create a Memory Pool',
    description: 'Create a memory pool this agent owns, to share structured memories with other agents. Returns its id.',
    inputSchema: z.strictObject({ name: z.string().optional().describe('A name people recognise') }),
  }, tool(async ({ name }) => ({ pool: await pools.create(name === undefined ? {} : { name }) })))

  server.registerTool('pool_list', {
    title: 'List Memory Pools',
    description: 'The pools this agent knows: id, name, owner, size.',
    inputSchema: z.strictObject({}),
  }, tool(async () => ({ pools: await pools.list() })))

  server.registerTool('pool_share', {
    title: 'Share a Memory Pool',
    description: 'Give another agent (by did:key) read access, or read and write access, to a pool this agent owns.',
    inputSchema: z.strictObject({
      pool: z.string().describe('The pool id'),
      agent: z.string().describe("The other agent's did:key"),
      write: z.boolean().optional().describe('Also let it write (default false: read only)'),
    }),
  }, tool(async ({ pool, agent, write }) => {
    await pools.share(pool, agent, { write: write ?? false })
    return { shared: true }
  }))

  server.registerTool('pool_write', {
    title: 'Write to a Memory Pool',
    description: 'Add a structured memory (subject, predicate, object) to a pool; it syncs to every member.',
    inputSchema: z.strictObject({
      pool: z.string().describe('The pool id'),
      type: z.enum(MEMORY_TYPES).optional().describe('The kind of memory (default KNOWLEDGE)'),
      subject: z.string(), predicate: z.string(), object: z.union([z.string(), z.number(), z.boolean()]),
      context: z.string().optional().describe('A sentence of context'),
      confidence: z.number().min(0).max(1).optional().describe('0..1 (default 1)'),
    }),
  }, tool(async ({ pool, type, subject, predicate, object, context, confidence }) => ({
    memory: await pools.write(pool, { type: type ?? 'KNOWLEDGE', content: { subject, predicate, object, context: context ?? null }, ...(confidence === undefined ? {} : { confidence }) }),
  })))

  server.registerTool('pool_query', {
    title: 'Query a Memory Pool',
    description: 'Current memories of a pool, optionally of one subject or predicate, most important first.',
    inputSchema: z.strictObject({
      pool: z.string().describe('The pool id'),
      subject: z.string().optional(), predicate: z.string().optional(),
      limit: z.number().int().min(1).optional().describe('At most this many'),
    }),
  }, tool(async ({ pool, subject, predicate, limit }) => ({ memories: await pools.query(pool, { subject, predicate, limit }) })))

  server.registerTool('pool_forget', {
    title: 'Forget a Pool Memory',
    description: "Hard-delete a pool memory on every member's device. Only its author or the pool owner may.",
    inputSchema: z.strictObject({ memory: z.string().describe('The memory id') }),
  }, tool(async ({ memory }) => ({ forgotten: await pools.forget(memory) })))

  server.registerTool('pool_conflicts', {
    title: 'List Pool Contradictions',
    description:
      'Contradictions in a pool, each once as a group (the memories of one subject and predicate that cannot all hold, ' +
      'or updates competing for one memory) with a suggested resolution; `total` says how many there are. ' +
      `A group lists at most ${MEMBERS_SHOWN} of its memories (\`size\` says how many it has); resolving it settles them all.`,
    inputSchema: z.strictObject({
      pool: z.string().describe('The pool id'),
      limit: z.number().int().min(1).max(100).optional().describe('At most this many groups (default 20)'),
      offset: z.number().int().min(0).optional().describe('Skip this many groups first'),
    }),
  }, tool(async ({ pool, limit, offset }) => {
    // A group of 20,000 would be a reply no agent can read: its first memories and its size.
    const page = await pools.conflictGroups(pool, { limit: limit ?? 20, offset })
    return { total: page.total, conflicts: page.groups.map((g) => ({ ...g, memories: g.memories.slice(0, MEMBERS_SHOWN), size: g.memories.length })) }
  }))

  server.registerTool('pool_resolve', {
    title: 'Resolve a Pool Contradiction',
    description: 'Settle a contradiction: keep one memory (winner; every other one of the group is superseded), merge them with a strategy, or take the suggestion.',
    inputSchema: z.strictObject({
      conflict: z.string().describe('The conflict id (from pool_conflicts)'),
      winner: z.string().optional().describe('The memory id to keep'),
      strategy: z.enum(STRATEGIES).optional().describe('Merge both with this strategy instead'),
    }),
  }, tool(async ({ conflict, winner, strategy }) => ({
    memory: await pools.resolve(conflict, winner !== undefined ? { winner } : strategy !== undefined ? { strategy } : 'suggested'),
  })))
}
