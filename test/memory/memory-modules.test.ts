import { expect, test } from 'vitest'
import { createIdentity } from '../../src/index.js'
import { openMemoryModules } from '../../src/memory-loader.js'

// The worker loads a module's code on its first call (issue 12: a facts-only page must not download
// SMALL, ajv or yaml). The loader is what decides what loads when.

test('facts alone load nothing else; a module loads on first ask, once', async () => {
  const mem = await openMemoryModules({ storage: 'memory', identity: await createIdentity() })
  await mem.facts.write('The user prefers dark mode')
  expect(['pools', 'working', 'small', 'artifacts', 'sync'].filter((m) => mem.isLoaded(m as 'pools'))).toEqual([])
  const [a, b] = await Promise.all([mem.load('small'), mem.load('small')])
  expect(a).toBe(b)
  expect(mem.isLoaded('small')).toBe(true)
  // SMALL asks the pool gate only for a pooled write: pools stay unloaded.
  await a.put('intent', { small_version: '1.0.0', owner: 'human', intent: 'ship', scope: { include: [], exclude: [] }, success_criteria: [] }).catch(() => undefined)
  expect(mem.isLoaded('pools')).toBe(false)
  await mem.close()
})

test('sync loads pools (it applies what arrives through them); a pooled write of another module loads pools at that moment', async () => {
  const mem = await openMemoryModules({ storage: 'memory', identity: await createIdentity() })
  await mem.load('sync')
  expect(mem.isLoaded('pools')).toBe(true)
  await mem.close()

  const other = await openMemoryModules({ storage: 'memory', identity: await createIdentity() })
  const artifacts = await other.load('artifacts')
  expect(other.isLoaded('pools')).toBe(false)
  await expect(artifacts.create('notes', { body: 'x\n', pool: 'pool:0123456789abcdef0123456789abcdef' })).rejects.toMatchObject({ code: expect.stringMatching(/NOT_FOUND|INVALID_ARGUMENT/) })
  expect(other.isLoaded('pools')).toBe(true)
  await other.close()
})

test('close() closes what was loaded and refuses later loads', async () => {
  const mem = await openMemoryModules({ storage: 'memory' })
  const working = await mem.load('working')
  await mem.close()
  await mem.close()
  await expect(mem.load('pools')).rejects.toMatchObject({ code: 'CLOSED' })
  await expect(working.open('t')).rejects.toMatchObject({ code: 'CLOSED' })
})
