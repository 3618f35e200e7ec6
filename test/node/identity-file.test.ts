import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadOrCreateIdentity } from '../../src/gmp-http/server-identity.js'
import { loadAgentIdentity } from '../../src/mcp/agent-identity.js'

// Identity files made by several callers at once (issue 29: `memweave mcp` processes started
// together on a new directory): every caller ends with the key that reached the file first.

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memweave-identity-file-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

test('ten loadOrCreateIdentity calls at once on a new directory return one identity, the one in identity.json, and leave no temp file', async () => {
  const own = join(dir, 'server')
  await rm(own, { recursive: true, force: true })
  await mkdir(own)
  const ids = await Promise.all(Array.from({ length: 10 }, () => loadOrCreateIdentity(own)))
  const stored = JSON.parse(await readFile(join(own, 'identity.json'), 'utf8')) as { did: string }
  expect(new Set(ids.map((i) => i.did))).toEqual(new Set([stored.did]))
  expect(await readdir(own)).toEqual(['identity.json'])
})

test('agent keys: one per name, kept in agents/<name>.json (0600), the same on every load; a bad name is INVALID_ARGUMENT and creates nothing', async () => {
  const [a1, a2, b] = await Promise.all([loadAgentIdentity(dir, 'alice'), loadAgentIdentity(dir, 'alice'), loadAgentIdentity(dir, 'bob')])
  expect(a1!.did).toBe(a2!.did)
  expect(a1!.did).not.toBe(b!.did)
  expect((await loadAgentIdentity(dir, 'alice')).did).toBe(a1!.did)
  expect((await stat(join(dir, 'agents', 'alice.json'))).mode & 0o777).toBe(0o600)
  expect((await stat(join(dir, 'agents'))).mode & 0o777).toBe(0o700)
  for (const bad of ['../x', '', '.hidden', 'a/b', 'x'.repeat(65)]) {
    await expect(loadAgentIdentity(dir, bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'agent' } })
  }
  expect((await readdir(join(dir, 'agents'))).sort()).toEqual(['alice.json', 'bob.json'])
})
