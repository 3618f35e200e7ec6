import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { runCli } from '../../src/cli/index.js'
import { createIdentity } from '../../src/core/identity.js'
import { loadOrCreateIdentity } from '../../src/gmp-http/server-identity.js'
import { createMemory } from '../../src/memory.js'
import { fileStorage } from '../../src/node/file-adapter.js'
import { answers, populate } from './backup-helpers.js'

// Issue 28: memweave export --dir D > backup.jsonl; memweave import --dir D < backup.jsonl.

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

const now = (): number => Date.UTC(2026, 5, 1)

async function cli(argv: string[], stdin?: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = { stdout: '', stderr: '' }
  const code = await runCli(argv, {
    stdout: (t) => void (out.stdout += t),
    stderr: (t) => void (out.stderr += t),
    env: {},
    shutdown: () => new AbortController().signal,
    ...(stdin ? { stdin } : {}),
  })
  return { code, ...out }
}

it('export then import into an empty directory: the store answers the same', async () => {
  const root = await mkdtemp(join(tmpdir(), 'memweave-backup-cli-'))
  dirs.push(root)
  const [a, b] = [join(root, 'a'), join(root, 'b')]
  await mkdir(a)
  const mem = await createMemory({ storage: fileStorage({ dir: a }), identity: await loadOrCreateIdentity(a), now })
  await populate(mem, (await createIdentity()).did)
  await mem.close()

  const exported = await cli(['export', '--dir', a])
  expect(exported).toMatchObject({ code: 0, stderr: '' })
  const lines = exported.stdout.split('\n').filter(Boolean)
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'header', format: 'memweave.backup' })

  await mkdir(b)
  await copyFile(join(a, 'identity.json'), join(b, 'identity.json'))
  // Chunks that cut lines anywhere, as a pipe delivers them.
  const chunks = exported.stdout.match(/[\s\S]{1,500}/g)!
  const imported = await cli(['import', '--dir', b], chunks)
  expect(imported.code).toBe(0)
  expect(imported.stderr).toContain(`imported ${lines.length - 2} of ${lines.length - 2} records`)

  const [one, two] = [
    await createMemory({ storage: fileStorage({ dir: a }), identity: await loadOrCreateIdentity(a), now }),
    await createMemory({ storage: fileStorage({ dir: b }), identity: await loadOrCreateIdentity(b), now }),
  ]
  expect(await answers(two)).toEqual(await answers(one))
  await one.close()
  await two.close()

  // Again: nothing new; a tampered line is refused, named, and the exit code says so.
  const again = await cli(['import', '--dir', b], [exported.stdout.replace('Bo likes tea', 'Bo likes rum')])
  expect(again.code).toBe(1)
  expect(again.stderr).toMatch(/imported 0 of \d+ records .*1 refused/)
  expect(again.stderr).toMatch(/line \d+ \([0-9a-f]{32}\): its content does not hash/)
})

it('export of a directory that does not exist is an error, not an empty backup', async () => {
  const r = await cli(['export', '--dir', join(tmpdir(), 'memweave-no-such-dir-28')])
  expect(r.code).toBe(1)
  expect(r.stdout).toBe('')
  expect(r.stderr).toContain('is not a directory')
})
