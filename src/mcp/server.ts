import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { ErrorCode, MemweaveError, isMemweaveError } from '../core/errors.js'
import type { Artifact, ArtifactStore } from '../artifacts/types.js'
import { knownFact } from '../facts/known-ref.js'
import type { Identity } from '../core/identity.js'
import type { FactStore } from '../facts/types.js'
import type { Pools } from '../pools/types.js'
import { registerPoolTools } from './pool-tools.js'
import { tool } from './tool-result.js'
import { conflictToWire, memoryToWire, wireFieldName } from '../gmp-http/protocol.js'

/**
 * An MCP server over one memweave store (Node only): the SMP tools of SMP §5.1 (`awp_artifact_*`,
 * named and shaped as AWP's own MCP server has them, plus `awp_artifact_merge`) and the GMP
 * operations (`gmp_*`, arguments and memories in GMP's JSON wire shape, WIRE.md), and LCS-004
 * pools (`pool_*`, src/mcp/pool-tools.ts). Every result is one JSON text block; an error is
 * `{"error": {"code", "message", "field"?}}` with `isError`. Arguments are strict: an unknown key
 * is refused (a misspelt `valid_from` must not become a fact valid from now).
 */

export interface McpServerOptions {
  readonly name?: string
  readonly version?: string
  /**
   * The agent this session acts for: it signs the facts `gmp_write` and `gmp_supersede` store, so
   * they name it as their author (`memweave mcp --agent`, src/mcp/agent-identity.ts). Default: the
   * memory's own identity. Artifacts and pools act as the memory's identity either way.
   */
  readonly identity?: Identity | null
}

/** What the tools need of a Memory. */
export interface McpMemory {
  readonly artifacts: ArtifactStore
  readonly facts: FactStore
  readonly pools: Pools
}

/** `\n<content>\n`: how AWP's `awp_artifact_write` lays a body out, so files written by either tool match. */
const bodyOf = (content: string): string => `\n${content}\n`

function artifactJson(a: Artifact): Record<string, unknown> {
  return {
    slug: a.slug, version: a.version, versionId: a.versionId, frontmatter: a.frontmatter, body: a.body.trim(),
    conflicted: a.conflicted, heads: a.heads,
  }
}

const confidence = z.number().min(0).max(1)

/**
 * Makes the server; connect it to a transport (`StdioServerTransport` for `memweave mcp`).
 * @example
 * const server = createMcpServer(await createMemory({ storage: fileStorage({ dir }) }))
 * await server.connect(new StdioServerTransport())
 */
export function createMcpServer(memory: McpMemory, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: options.name ?? 'memweave', version: options.version ?? '0.0.0' })
  const { artifacts, facts } = memory

  // ---- SMP §5.1 ----------------------------------------------------------------------------------

  server.registerTool('awp_artifact_read', {
    title: 'Read Knowledge Artifact',
    description: 'Read a knowledge artifact by slug: frontmatter (title, version, confidence, provenance) and Markdown body. "conflicted" is true when it has forked.',
    inputSchema: z.strictObject({
      slug: z.string().describe("Artifact slug (e.g. 'llm-context-research') or id ('artifact:llm-context-research')"),
      version: z.union([z.number().int().min(1), z.string()]).optional().describe('An earlier version number or version id (default: current)'),
    }),
  }, tool(async ({ slug, version }) => artifactJson(await artifacts.read(slug, version === undefined ? {} : { version }))))

  server.registerTool('awp_artifact_write', {
    title: 'Write Knowledge Artifact',
    description: 'Create or update a knowledge artifact. If it exists, the version goes up by one and provenance is appended; if new, it is created at version 1.',
    inputSchema: z.strictObject({
      slug: z.string().describe('Artifact slug (lowercase letters, digits, hyphens)'),
      title: z.string().optional().describe('Title (default for new artifacts: the slug in title case)'),
      content: z.string().describe('Markdown body content'),
      tags: z.array(z.string()).optional().describe('Categorization tags (replace the old ones on update)'),
      confidence: confidence.optional().describe('Confidence score (0.0-1.0)'),
      message: z.string().optional().describe('Commit message for provenance'),
      expectedVersion: z.number().int().min(1).optional().describe('Fail with CONFLICT unless the artifact is at this version'),
    }),
  }, tool(async ({ slug, title, content, tags, confidence: c, message, expectedVersion }) => {
    let existing = true
    try {
      await artifacts.read(slug)
    } catch (err) {
      if (!isMemweaveError(err) || err.code !== ErrorCode.NOT_FOUND || err.details.field !== 'slug') throw err
      existing = false
    }
    const a = existing
      ? await artifacts.commit(slug, { body: bodyOf(content), title, tags, confidence: c, message: message ?? 'Updated via awp_artifact_write', expectedVersion })
      : await artifacts.create(slug, { body: bodyOf(content), title, tags, confidence: c, message })
    return { slug: a.slug, version: a.version, versionId: a.versionId, created: !existing, conflicted: a.conflicted }
  }))

  server.registerTool('awp_artifact_list', {
    title: 'List Knowledge Artifacts',
    description: 'List all knowledge artifacts with metadata, optionally those with a tag',
    inputSchema: z.strictObject({ tag: z.string().optional().describe('Filter by tag (case-insensitive)') }),
  }, tool(async ({ tag }) => ({ artifacts: await artifacts.list(tag === undefined ? {} : { tag }) })))

  server.registerTool('awp_artifact_search', {
    title: 'Search Knowledge Artifacts',
    description: 'Search artifacts by title, tags or body content (case-insensitive), best match first',
    inputSchema: z.strictObject({
      query: z.string().describe('Search query'),
      limit: z.number().int().min(1).optional().describe('At most this many results'),
    }),
  }, tool(async ({ query, limit }) => ({ results: await artifacts.search(query, limit === undefined ? {} : { limit }) })))

  server.registerTool('awp_artifact_merge', {
    title: 'Merge Knowledge Artifacts',
    description: 'Additive merge (SMP §4.6): append the source body to the target with attribution, union authors and tags, take the minimum confidence. Merging an artifact into itself resolves a fork.',
    inputSchema: z.strictObject({
      target: z.string().describe('Target slug'),
      source: z.string().describe('Source slug (not modified)'),
      message: z.string().optional().describe('Commit message for provenance'),
      confidence: confidence.optional().describe('The merged confidence (default: the minimum of both)'),
    }),
  }, tool(async ({ target, source, message, confidence: c }) => artifactJson(await artifacts.merge(target, source, { message, confidence: c }))))

  // ---- GMP ---------------------------------------------------------------------------------------

  const writeOptions = {
    metadata: z.record(z.string(), z.unknown()).optional().describe('JSON metadata; subject, predicate and object make the fact structured'),
    valid_from: z.string().optional().describe('ISO 8601 start of validity (default: now)'),
    tenant_id: z.string().optional().describe('Tenant scope'),
  }
  const signer = options.identity ?? null
  const toWrite = (o: { metadata?: Record<string, unknown>; valid_from?: string; tenant_id?: string }) => ({
    metadata: o.metadata, validFrom: o.valid_from ?? null, tenantId: o.tenant_id ?? null, ...(signer ? { signingKey: signer } : {}),
  })
  // GMP errors name the store's option (validFrom); on this surface the argument is valid_from.
  const gmp = <A>(body: (args: A) => Promise<unknown>) =>
    tool<A>(async (args) => {
      try {
        return await body(args)
      } catch (err) {
        if (!isMemweaveError(err) || typeof err.details.field !== 'string') throw err
        const field = wireFieldName(err.details.field).replace(/^options\./, '')
        throw new MemweaveError(err.code, err.message, { ...err.details, field }, { cause: err })
      }
    })

  server.registerTool('gmp_write', {
    title: 'Write a Memory (GMP)',
    description: 'Store a fact. Returns its opaque ref.',
    inputSchema: z.strictObject({ content: z.string().describe('The fact, as text'), ...writeOptions }),
  }, gmp(async ({ content, ...o }) => ({ ref: await facts.write(content, toWrite(o)) })))

  server.registerTool('gmp_retrieve', {
    title: 'Retrieve Memories (GMP)',
    description: 'The current memories most relevant to a query, within a character budget.',
    inputSchema: z.strictObject({
      query: z.string().describe('What to look for'),
      budget_tokens: z.number().int().min(0).optional().describe('Total characters of content to return (default 4000)'),
      top_k: z.number().int().min(1).optional().describe('At most this many memories'),
      as_of: z.string().optional().describe('ISO 8601 valid-time instant to answer at'),
      tenant_id: z.string().optional().describe('Tenant scope'),
    }),
  }, gmp(async ({ query, budget_tokens, top_k, as_of, tenant_id }) => ({
    memories: (await facts.retrieve(query, { budgetTokens: budget_tokens, topK: top_k ?? null, asOf: as_of ?? null, tenantId: tenant_id ?? null })).map(memoryToWire),
  })))

  server.registerTool('gmp_supersede', {
    title: 'Supersede a Memory (GMP)',
    description: 'Write a fact that replaces an earlier one (by ref, of the same tenant). Returns the new ref. An unknown or already superseded ref is refused with a hint; nothing is written.',
    inputSchema: z.strictObject({ old_ref: z.string().describe('The ref being replaced'), content: z.string().describe('The new fact'), ...writeOptions }),
  }, gmp(async ({ old_ref, content, ...o }) => {
    // GMP §3.1 would make an unknown ref a fresh write; an agent's made-up ref is refused instead (issue 29).
    const old = await knownFact(facts, old_ref, 'supersede', { tenantId: o.tenant_id ?? null, field: 'old_ref' })
    return { ref: await facts.supersede(old.ref, content, toWrite(o)) }
  }))

  server.registerTool('gmp_delete', {
    title: 'Delete a Memory (GMP)',
    description: 'Hard-delete a fact by ref. An unknown ref is refused (NOT_FOUND, with a hint); nothing is deleted.',
    inputSchema: z.strictObject({ ref: z.string().describe('The ref to delete') }),
  }, gmp(async ({ ref }) => ({ deleted: await facts.delete((await knownFact(facts, ref, 'forget')).ref) })))

  server.registerTool('gmp_audit', {
    title: 'Audit Memories (GMP)',
    description: 'Every stored fact version, superseded ones included, in write order.',
    inputSchema: z.strictObject({}),
  }, gmp(async () => ({ memories: (await facts.audit()).map(memoryToWire) })))

  server.registerTool('gmp_conflicts', {
    title: 'List Contradictions (GMP)',
    description: 'Current contradictions between facts: pairs of refs that cannot both be true, with the reason. Settle one by gmp_supersede or gmp_delete.',
    inputSchema: z.strictObject({
      tenant_id: z.string().optional().describe('Tenant scope'),
      wait_for_judge: z.boolean().optional().describe('With a second-stage conflict judge: list once it has answered for the pairs it was asked about (default false: unanswered pairs are marked pending)'),
    }),
  }, gmp(async ({ tenant_id, wait_for_judge }) => ({ conflicts: (await facts.conflicts({ tenantId: tenant_id ?? null, waitForJudge: wait_for_judge === true })).map(conflictToWire) })))

  registerPoolTools(server, memory.pools)
  return server
}
