import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'
import { fileStorage } from '../../src/node/file-adapter.js'
import { CLI_BIN, REPO_ROOT, ensureBuilt } from '../helpers/processes.js'

// Issue 17, MCP: pool and conflict tools with the library's error codes, strict arguments, and two
// `memweave mcp` processes on one --dir (the second attaches to the first) — through the built
// command over stdio with the official SDK client.
const BUILT = ['dist/src/cli/mcp.js', 'dist/src/mcp/server.js', 'dist/src/mcp/pool-tools.js']
let dir: string

beforeAll(async () => {
  await ensureBuilt(BUILT)
  dir = await mkdtemp(join(tmpdir(), 'memweave-mcp-tools-'))
}, 180_000)
afterAll(() => rm(dir, { recursive: true, force: true }))

async function connect(storeDir: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp', '--dir', storeDir], stderr: 'pipe', cwd: REPO_ROOT })
  let err = ''
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const client = new Client({ name: 'memweave-test', version: '0.0.0' })
  await client.connect(transport)
  return { client, stderr: () => err }
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; body: any; text: string }> {
  const result = await client.callTool({ name, arguments: args })
  const text = (result.content as Array<{ text: string }>)[0]!.text
  let body: unknown = null
  try {
    body = JSON.parse(text)
  } catch {
    body = null
  }
  return { isError: result.isError === true, body, text }
}

test('a second memweave mcp on the same --dir attaches to the first: both agents share one memory, and the second outlives the first client', async () => {
  const storeDir = join(dir, 'shared')
  const first = await connect(storeDir)
  const second = await connect(storeDir)
  expect((await call(second.client, 'gmp_write', { content: 'written by the second agent' })).isError).toBe(false)
  const seen = await call(first.client, 'gmp_audit')
  expect(seen.body.memories.map((m: { content: string }) => m.content)).toEqual(['written by the second agent'])
  await first.client.close()
  expect((await call(second.client, 'gmp_write', { content: 'still here' })).isError).toBe(false)
  expect((await call(second.client, 'gmp_audit')).body.memories).toHaveLength(2)
  await second.client.close()
}, 60_000)

test('when the directory is held by something that accepts no attachment, the MCP handshake fails with the reason', async () => {
  const storeDir = join(dir, 'held')
  const holder = await createMemory({ storage: fileStorage({ dir: storeDir }) })
  try {
    await expect(connect(storeDir)).rejects.toThrow(/process \d+ holds the store in .* and is not a memweave mcp that accepts attachments/)
  } finally {
    await holder.close()
  }
}, 60_000)

test('unknown argument keys are refused and nothing is written', async () => {
  const { client } = await connect(join(dir, 'strict'))
  const r = await call(client, 'gmp_write', { content: 'Aria lives in Rome', valid_form: '2020-01-01' })
  expect(r.isError).toBe(true)
  expect(r.text).toContain('valid_form')
  expect((await call(client, 'gmp_audit')).body.memories).toEqual([])
  expect((await call(client, 'pool_create', { name: 'x', owner: 'me' })).isError).toBe(true)
  await client.close()
}, 60_000)

test('pool tools: create, write, query, conflicts, resolve, forget; gmp_conflicts; errors carry the library codes', async () => {
  const { client } = await connect(join(dir, 'pools'))
  const pool = (await call(client, 'pool_create', { name: 'team' })).body.pool.id as string
  expect((await call(client, 'pool_list')).body.pools.map((p: { id: string }) => p.id)).toEqual([pool])
  const a = (await call(client, 'pool_write', { pool, subject: 'standup', predicate: 'starts_at', object: '9:30' })).body.memory.id as string
  const b = (await call(client, 'pool_write', { pool, subject: 'standup', predicate: 'starts_at', object: '10:00' })).body.memory.id as string
  const listing = (await call(client, 'pool_conflicts', { pool })).body as { total: number; conflicts: Array<{ id: string; memories: string[]; size: number }> }
  const conflicts = listing.conflicts
  expect(conflicts).toHaveLength(1)
  // Issue 26: each conflict once as a group, with the total and the group's size.
  expect([listing.total, conflicts[0]!.size]).toEqual([1, 2])
  expect(new Set(conflicts[0]!.memories)).toEqual(new Set([a, b]))
  // The pool's facts show up as GMP facts too, with the same contradiction.
  expect((await call(client, 'gmp_conflicts')).body.conflicts).toHaveLength(1)
  const kept = await call(client, 'pool_resolve', { conflict: conflicts[0]!.id, winner: b })
  expect(kept.isError).toBe(false)
  expect((await call(client, 'pool_conflicts', { pool })).body.conflicts).toEqual([])
  expect((await call(client, 'pool_query', { pool, subject: 'standup' })).body.memories.map((m: { content: { object: string } }) => m.content.object)).toContain('10:00')
  expect((await call(client, 'pool_forget', { memory: b })).isError).toBe(false)
  const refused = await call(client, 'pool_share', { pool, agent: 'not-a-did', write: true })
  expect(refused.isError).toBe(true)
  expect(refused.body.error.code).toBe('INVALID_ARGUMENT')
  const unknown = await call(client, 'pool_query', { pool: '0123456789abcdef0123456789abcdef' })
  expect(unknown.body.error.code).toBe('NOT_FOUND')
  await client.close()
}, 60_000)
