import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { CLI_BIN, REPO_ROOT, ensureBuilt } from '../helpers/processes.js'

// Issue 29, item 1: several `memweave mcp` processes on one --dir, as MCP hosts start them
// (together), with their holder killed mid-call, and each agent signing as itself. Through the
// built command over stdio with the official SDK client.
const BUILT = ['dist/src/cli/mcp.js', 'dist/src/mcp/shared-dir.js']
let dir: string

beforeAll(async () => {
  await ensureBuilt(BUILT)
  dir = await mkdtemp(join(tmpdir(), 'memweave-mcp-shared-'))
}, 240_000)
afterAll(() => rm(dir, { recursive: true, force: true }))

interface Agent {
  readonly client: Client
  readonly transport: StdioClientTransport
  readonly stderr: () => string
}

/** Spawns `memweave mcp --dir D [...extra]` now (synchronously) and resolves once its handshake is done. */
function start(storeDir: string, extra: readonly string[] = []): { spawned: Agent; ready: Promise<Agent> } {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'mcp', '--dir', storeDir, ...extra], stderr: 'pipe', cwd: REPO_ROOT })
  let err = ''
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const client = new Client({ name: 'memweave-test', version: '0.0.0' })
  const agent: Agent = { client, transport, stderr: () => err }
  // Client.connect calls transport.start(), which spawns before its first await.
  const ready = client.connect(transport).then(() => agent)
  return { spawned: agent, ready }
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}, timeout = 30_000): Promise<{ isError: boolean; body: any }> {
  const result = await client.callTool({ name, arguments: args }, undefined, { timeout })
  const text = (result.content as Array<{ text: string }>)[0]!.text
  return { isError: result.isError === true, body: JSON.parse(text) }
}

/** Until the directory's processes are gone: the store's lock file is removed on a clean exit. */
async function released(storeDir: string): Promise<void> {
  await expect.poll(() => existsSync(join(storeDir, 'LOCK')) || existsSync(join(storeDir, 'mcp.lock')), { timeout: 20_000, interval: 50 }).toBe(false)
}

/**
 * Both processes of a pair are spawned in one synchronous step (well within 10 ms of each other):
 * what an MCP host does with two servers configured on one directory. Before issue 29 the second's
 * handshake was refused in most runs ("does not accept attachments (connect ENOENT …/mcp.sock)").
 */
async function pairRun(storeDir: string, run: number): Promise<void> {
  const a = start(storeDir)
  const b = start(storeDir)
  const settled = await Promise.allSettled([a.ready, b.ready])
  const failures = settled.flatMap((s, i) => (s.status === 'rejected' ? [`process ${i}: ${String(s.reason)} ${[a, b][i]!.spawned.stderr()}`] : []))
  expect(failures, `run ${run} on ${storeDir}`).toEqual([])
  const [x, y] = [a.spawned, b.spawned]
  expect((await call(x.client, 'gmp_write', { content: `run ${run}: first process` })).isError).toBe(false)
  expect((await call(y.client, 'gmp_write', { content: `run ${run}: second process` })).isError).toBe(false)
  const seen = (await call(y.client, 'gmp_audit')).body.memories.map((m: { content: string }) => m.content)
  expect(seen).toEqual(expect.arrayContaining([`run ${run}: first process`, `run ${run}: second process`]))
  await Promise.all([x.client.close(), y.client.close()])
  await released(storeDir)
}

test('issue 29: two memweave mcp processes spawned together on a new directory both complete the handshake and serve tools (20 runs)', async () => {
  for (let run = 0; run < 20; run++) await pairRun(join(dir, `new-${run}`), run)
}, 600_000)

test('issue 29: two memweave mcp processes spawned together on an existing directory both complete the handshake and serve tools (20 runs)', async () => {
  const storeDir = join(dir, 'existing')
  const seed = await start(storeDir).ready
  for (let i = 0; i < 50; i++) await call(seed.client, 'gmp_write', { content: `an earlier fact, number ${i}` })
  await seed.client.close()
  await released(storeDir)
  for (let run = 0; run < 20; run++) await pairRun(storeDir, run)
}, 600_000)

test('issue 29: a call in flight when the serving process dies ends with a CLOSED error, and the next call is served by the process that took over', async () => {
  const storeDir = join(dir, 'killed')
  const holder = await start(storeDir).ready
  const attached = await start(storeDir).ready
  expect((await call(attached.client, 'gmp_write', { content: 'before the holder died' })).isError).toBe(false)
  const pid = holder.transport.pid!
  // Frozen, the holder reads nothing more: the call below is in flight when it dies.
  process.kill(pid, 'SIGSTOP')
  // A timeout far above what the relay needs: a call that hangs (60 s before) fails here as a timeout.
  const pending = call(attached.client, 'gmp_audit', {}, 25_000).then(
    () => 'answered',
    (err: { code?: number; data?: { code?: string }; message: string }) => err,
  )
  await new Promise((ok) => setTimeout(ok, 500))
  process.kill(pid, 'SIGKILL')
  const outcome = await pending
  // Either the relay answered it as lost with the holder (CLOSED), or it reached the new holder first.
  if (typeof outcome !== 'string') {
    expect(outcome).toMatchObject({ data: { code: 'CLOSED' } })
    expect(outcome.message).toMatch(/stopped during this call/)
  }
  const after = await call(attached.client, 'gmp_audit')
  expect(after.body.memories.map((m: { content: string }) => m.content)).toEqual(['before the holder died'])
  expect((await call(attached.client, 'gmp_write', { content: 'after the takeover' })).isError).toBe(false)
  await holder.client.close().catch(() => undefined)
  await attached.client.close()
  await released(storeDir)
}, 120_000)

test('issue 29: agents sharing a directory sign as their own identities (--agent), so a conflict between them shows two authors', async () => {
  const storeDir = join(dir, 'agents')
  const pair = [start(storeDir, ['--agent', 'alice']), start(storeDir, ['--agent', 'bob'])]
  const [alice, bob] = await Promise.all(pair.map((p) => p.ready))
  const a = (await call(alice!.client, 'gmp_write', { content: 'The standup starts at 9:30', metadata: { subject: 'standup', predicate: 'starts_at', object: '9:30' } })).body.ref as string
  const b = (await call(bob!.client, 'gmp_write', { content: 'The standup starts at 10:00', metadata: { subject: 'standup', predicate: 'starts_at', object: '10:00' } })).body.ref as string
  const conflicts = (await call(alice!.client, 'gmp_conflicts')).body.conflicts as Array<{ refs: string[] }>
  expect(conflicts).toHaveLength(1)
  expect(new Set(conflicts[0]!.refs)).toEqual(new Set([a, b]))
  const memories = (await call(bob!.client, 'gmp_audit')).body.memories as Array<{ ref: string; source: { public_key: string; written_by: string } }>
  const keyOf = (ref: string): string => memories.find((m) => m.ref === ref)!.source.public_key
  expect(keyOf(a)).not.toBe(keyOf(b))
  // Each key is the one kept for that agent in the directory, and a restart signs with it again.
  const files = await Promise.all(['alice', 'bob'].map(async (n) => JSON.parse(await readFile(join(storeDir, 'agents', `${n}.json`), 'utf8')) as { did: string }))
  expect(files[0]!.did).not.toBe(files[1]!.did)
  await Promise.all([alice!.client.close(), bob!.client.close()])
  await released(storeDir)
  const again = await start(storeDir, ['--agent', 'alice']).ready
  const c = (await call(again.client, 'gmp_write', { content: 'Alice again' })).body.ref as string
  const all = (await call(again.client, 'gmp_audit')).body.memories as Array<{ ref: string; source: { public_key: string } }>
  expect(all.find((m) => m.ref === c)!.source.public_key).toBe(keyOf(a))
  // Without --agent: the directory's own identity, neither agent's.
  await again.client.close()
  await released(storeDir)
  const plain = await start(storeDir).ready
  const d = (await call(plain.client, 'gmp_write', { content: 'no agent named' })).body.ref as string
  const last = (await call(plain.client, 'gmp_audit')).body.memories as Array<{ ref: string; source: { public_key: string } }>
  expect([keyOf(a), keyOf(b)]).not.toContain(last.find((m) => m.ref === d)!.source.public_key)
  await plain.client.close()
  await released(storeDir)
}, 120_000)

test('an --agent name that is not a plain name is a usage error (nothing is created)', async () => {
  const storeDir = join(dir, 'bad-agent')
  const { stderr } = await promisify(execFile)(process.execPath, [CLI_BIN, 'mcp', '--dir', storeDir, '--agent', '../x'], { cwd: REPO_ROOT }).catch((err: { code: number; stderr: string }) => {
    expect(err.code).toBe(2)
    return err
  })
  expect(stderr).toMatch(/--agent/)
  expect(existsSync(storeDir)).toBe(false)
}, 60_000)
