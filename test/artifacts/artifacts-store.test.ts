import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, test } from 'vitest'
import { createMemory } from '../../src/memory.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { artifactStoreSuite } from './artifacts-suite.js'

artifactStoreSuite('in-memory storage', () => {
  const storage = memoryStorage()
  return { storage: () => storage }
})

artifactStoreSuite('Dexie over fake-indexeddb (a handle per store, like tabs)', () => {
  const factory = new IDBFactory()
  const name = `artifacts-${Math.random()}`
  return { storage: () => indexedDbStorage({ name, indexedDB: factory, IDBKeyRange }) }
})

describe('mem.artifacts', () => {
  test('createMemory composes the artifact store beside the facts, on one storage', async () => {
    const storage = memoryStorage()
    const mem = await createMemory({ storage })
    await mem.artifacts.create('with-facts', { body: 'hello' })
    await mem.facts.write('a fact beside it')
    await mem.close()
    const again = await createMemory({ storage })
    expect((await again.artifacts.read('with-facts')).body).toBe('hello')
    expect(await again.facts.audit()).toHaveLength(1)
    await again.close()
    await expect(again.artifacts.list()).rejects.toMatchObject({ code: 'CLOSED' })
  })
})
