import { spawn } from 'node:child_process'
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FIXTURES_DIR } from './artifacts-helpers.js'
import { CLI_BIN, REPO_ROOT, ensureBuilt, runCliProcess } from '../helpers/processes.js'
const BUILT = ['dist/src/cli/mcp.js', 'dist/src/mcp/server.js', 'dist/src/cli/artifact.js']

interface Connected {
  readonly client: Client
  readonly stderr: () => string
  close(): Promise<void>
}

/** `node bin/memweave.js mcp --dir <dir>` with the SDK's client over stdio. */
async function connect(dir: string): Promise<Connected> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp', '--dir', dir], stderr: 'pipe', cwd: REPO_ROOT })
  let err = ''
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const client = new Client({ name: 'memweave-test', version: '0.0.0' })
  await client.connect(transport)
  return { client, stderr: () => err, close: () => client.close() }
}

/** Calls a tool and parses its one JSON text block. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: any }> {
  const result = await client.callTool({ name, arguments: args })
  const content = result.content as Array<{ type: string; text: string }>
  return { isError: result.isError === true, body: JSON.parse(content[0]!.text) }
}

describe('memweave mcp (the built command, over stdio with the official SDK client)', () => {
  let dir: string

  beforeAll(async () => {
    await ensureBuilt(BUILT)
    dir = await mkdtemp(join(tmpdir(), 'memweave-mcp-'))
  }, 180_000)

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  test('SMP artifact tools and GMP tools over one durable store', async () => {
    const s = await connect(dir)
    const { client } = s
    const names = (await client.listTools()).tools.map((t) => t.name).sort()
    expect(names).toEqual([
      'awp_artifact_list', 'awp_artifact_merge', 'awp_artifact_read', 'awp_artifact_search', 'awp_artifact_write',
      'gmp_audit', 'gmp_conflicts', 'gmp_delete', 'gmp_retrieve', 'gmp_supersede', 'gmp_write',
      'pool_conflicts', 'pool_create', 'pool_forget', 'pool_list', 'pool_query', 'pool_resolve', 'pool_share', 'pool_write',
    ])

    // awp_artifact_write creates, then updates (SMP §5.1 "Create or Update").
    const w1 = await call(client, 'awp_artifact_write', { slug: 'patterns', title: 'Patterns', content: 'Initial findings.', confidence: 0.65, tags: ['coordination'], message: 'Initial.' })
    expect(w1).toMatchObject({ isError: false, body: { slug: 'patterns', version: 1, created: true, conflicted: false } })
    const w2 = await call(client, 'awp_artifact_write', { slug: 'patterns', content: 'Initial findings.\n\nUpdate: deeper review.', confidence: 0.78, message: 'Updated.' })
    expect(w2.body).toMatchObject({ version: 2, created: false })
    const read = await call(client, 'awp_artifact_read', { slug: 'patterns' })
    expect(read.body.body).toBe('Initial findings.\n\nUpdate: deeper review.')
    expect(read.body.frontmatter).toMatchObject({ id: 'artifact:patterns', title: 'Patterns', version: 2, confidence: 0.78, tags: ['coordination'] })
    expect(read.body.frontmatter.provenance.map((p: { action: string }) => p.action)).toEqual(['created', 'updated'])
    const did = read.body.frontmatter.authors[0]
    expect(did).toMatch(/^did:key:z6Mk/) // the store's own identity, kept in <dir>/identity.json
    expect((await call(client, 'awp_artifact_read', { slug: 'patterns', version: 1 })).body.body).toBe('Initial findings.')

    await call(client, 'awp_artifact_write', { slug: 'other-notes', content: 'Coordination needs heartbeats.', tags: ['ops'] })
    expect((await call(client, 'awp_artifact_list', {})).body.artifacts.map((a: { slug: string }) => a.slug)).toEqual(['other-notes', 'patterns'])
    expect((await call(client, 'awp_artifact_list', { tag: 'OPS' })).body.artifacts.map((a: { slug: string }) => a.slug)).toEqual(['other-notes'])
    expect((await call(client, 'awp_artifact_search', { query: 'coordination' })).body.results.map((r: { slug: string }) => r.slug)).toEqual(['patterns', 'other-notes'])
    const merged = await call(client, 'awp_artifact_merge', { target: 'patterns', source: 'other-notes', message: 'fold in' })
    expect(merged.body).toMatchObject({ version: 3, frontmatter: { tags: ['coordination', 'ops'], confidence: 0.78 } })
    expect(merged.body.body).toMatch(/\n---\n\*Merged from artifact:other-notes \(version 1\) on \S+\*\n\nCoordination needs heartbeats\.$/)

    // Errors are structured: code and field.
    expect(await call(client, 'awp_artifact_write', { slug: '../escape', content: 'x' })).toEqual({ isError: true, body: { error: expect.objectContaining({ code: 'INVALID_ARGUMENT', field: 'slug' }) } })
    expect((await call(client, 'awp_artifact_write', { slug: 'patterns', content: 'x', expectedVersion: 1 })).body.error).toMatchObject({ code: 'CONFLICT', field: 'expectedVersion' })
    expect((await call(client, 'awp_artifact_read', { slug: 'nope' })).body.error).toMatchObject({ code: 'NOT_FOUND' })
    expect((await call(client, 'awp_artifact_search', { query: '' })).body.error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'query' })

    // GMP over the same store.
    const { ref } = (await call(client, 'gmp_write', { content: 'Aria lives in Rome', metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })).body
    expect(typeof ref).toBe('string')
    const retrieved = (await call(client, 'gmp_retrieve', { query: 'where does Aria live', top_k: 1 })).body.memories
    expect(retrieved).toMatchObject([{ ref, content: 'Aria lives in Rome', superseded_by: null }])
    expect(retrieved[0].source.public_key).toEqual(expect.any(String))
    const { ref: moved } = (await call(client, 'gmp_supersede', { old_ref: ref, content: 'Aria lives in Milan' })).body
    expect((await call(client, 'gmp_retrieve', { query: 'Aria' })).body.memories.map((m: { content: string }) => m.content)).toEqual(['Aria lives in Milan'])
    expect((await call(client, 'gmp_audit')).body.memories.map((m: { ref: string; superseded_by: string | null }) => [m.ref, m.superseded_by])).toEqual([[ref, moved], [moved, null]])
    expect((await call(client, 'gmp_write', { content: 'x', valid_from: 'not a date' })).body.error).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'valid_from' })
    expect((await call(client, 'gmp_delete', { ref: moved })).body).toEqual({ deleted: true })
    // Issue 29: a ref no fact has (deleted, or made up) is refused over MCP, where GMP's own API answers false.
    expect((await call(client, 'gmp_delete', { ref: moved })).body.error).toMatchObject({ code: 'NOT_FOUND', field: 'ref' })

    await s.close()
    expect(s.stderr()).toBe('')
    await expect.poll(async () => (await readdir(dir)).includes('LOCK'), { timeout: 5000 }).toBe(false)

    // Everything survives a restart on the same directory, under the same identity.
    const again = await connect(dir)
    const after = await call(again.client, 'awp_artifact_read', { slug: 'patterns' })
    expect(after.body.version).toBe(3)
    expect(after.body.frontmatter.authors).toEqual([did])
    expect((await call(again.client, 'gmp_audit')).body.memories.map((m: { content: string }) => m.content)).toEqual(['Aria lives in Rome'])
    const identity = JSON.parse(await readFile(join(dir, 'identity.json'), 'utf8')) as { did: string }
    expect(identity.did).toBe(did)
    await again.close()
  }, 60_000)

  test('a second server on a directory in use attaches to the first instead of failing (test/mcp/mcp-tools.test.ts covers it in depth)', async () => {
    const first = await connect(dir)
    const second = await connect(dir)
    expect((await call(second.client, 'gmp_audit')).body.memories.map((m: { content: string }) => m.content)).toEqual(
      (await call(first.client, 'gmp_audit')).body.memories.map((m: { content: string }) => m.content),
    )
    await second.close()
    await first.close()
  }, 30_000)

  test('issue 13: an 11 MiB message is answered with a JSON-RPC error and the server keeps serving (the SDK transport exited 0)', async () => {
    const own = await mkdtemp(join(tmpdir(), 'memweave-mcp-big-'))
    const s = await connect(own)
    expect((await call(s.client, 'awp_artifact_write', { slug: 'kept', content: 'Stored before.', message: 'm' })).isError).toBe(false)
    const huge = call(s.client, 'awp_artifact_write', { slug: 'huge', content: 'x'.repeat(11 * 1024 * 1024), message: 'm' })
    await expect(huge).rejects.toMatchObject({ code: -32600, message: expect.stringMatching(/over the limit of 10485760 bytes/), data: { code: 'INVALID_ARGUMENT', field: 'message' } })
    // The same process answers the next request, and what was stored is still there.
    expect((await call(s.client, 'awp_artifact_read', { slug: 'kept' })).body.body).toBe('Stored before.')
    expect((await call(s.client, 'awp_artifact_read', { slug: 'huge' })).isError).toBe(true)
    await s.close()
    // A raw client: an oversized notification (no id) and a line that is not JSON get errors with
    // id null, and the request after them is answered.
    const child = spawn(process.execPath, [CLI_BIN, 'mcp', '--dir', own], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stdin.write(`{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"${'y'.repeat(11 * 1024 * 1024)}"}}\n`)
    child.stdin.write('not json\n')
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) + '\n')
    await expect.poll(() => out.split('\n').filter(Boolean).length, { timeout: 15_000 }).toBe(3)
    const lines = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: unknown; error?: { code: number } })
    expect(lines.map((l) => [l.id, l.error?.code])).toEqual([[null, -32600], [null, -32700], [7, undefined]])
    child.stdin.end()
    expect(await new Promise((ok) => child.once('exit', ok))).toBe(0)
    await rm(own, { recursive: true, force: true })
  }, 60_000)

  test('the built artifact command: exit codes 0, 1, 2', async () => {
    const run = (args: string[]) => runCliProcess(['artifact', ...args], { cwd: dir })
    expect(await run(['validate', FIXTURES_DIR])).toMatchObject({ code: 0, stdout: '7 file(s) checked, 0 invalid\n' })
    expect((await run(['read', 'missing'])).code).toBe(1)
    expect((await run(['create'])).code).toBe(2)
    expect((await run(['validate', join(dir, 'nope')])).code).toBe(2)
  }, 30_000)
})
