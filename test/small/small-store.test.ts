import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createMemory } from '../../src/memory.js'
import { openMemoryModules } from '../../src/memory-loader.js'
import { createSmallStore } from '../../src/small/store.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoragePort } from '../../src/storage/port.js'
import { CountingStorage } from '../helpers/counting-storage.js'
import { OLDER_EXAMPLES, VALID_EXAMPLE } from './small-helpers.js'
import { smallSuite } from './small-suite.js'

const files = (dir: string) =>
  Object.fromEntries(['intent', 'constraints', 'plan', 'progress', 'handoff'].map((n) => [`${n}.small.yml`, readFileSync(join(dir, '.small', `${n}.small.yml`), 'utf8')]))
const valid = files(VALID_EXAMPLE)
const older = files(OLDER_EXAMPLES[0]!)

smallSuite('in-memory storage', {
  valid,
  older,
  fresh() {
    const storage = memoryStorage()
    return {
      open: ({ identity, humans, now }) => createMemory({ storage, identity, small: { humans }, now }),
      raw: async () => {
        await storage.open()
        return storage
      },
    }
  },
})

smallSuite('Dexie on fake-indexeddb', {
  valid,
  older,
  fresh() {
    const factory = new IDBFactory()
    const name = `small-${Math.random()}`
    return {
      open: ({ identity, humans, now }) => createMemory({ storage: 'indexeddb', name, indexedDB: factory, IDBKeyRange, identity, small: { humans }, now }),
      raw: async () => {
        const s = indexedDbStorage({ name, indexedDB: factory, IDBKeyRange })
        await s.open()
        return s
      },
    }
  },
})

describe('mem.small commits', () => {
  test('the writes of one tick in one transaction', async () => {
    const inner = memoryStorage()
    let writes = 0
    const counting: StoragePort = {
      kind: 'memory', durable: false,
      open: () => inner.open(), close: () => inner.close(), read: (t, b) => inner.read(t, b),
      write: (t, b) => {
        writes++
        return inner.write(t, b)
      },
    }
    const small = createSmallStore(counting)
    const plan = (id: string) => ({ small_version: '1.0.0', owner: 'agent', tasks: [{ id, title: id }] })
    await small.put('plan', plan('warm-up'))
    writes = 0
    await Promise.all([small.put('plan', plan('a')), small.put('workspace', { small_version: '1.0.0' }), small.put('handoff', {
      small_version: '1.0.0', owner: 'agent', summary: 's', resume: { next_steps: [] }, links: [], replayId: { value: 'f'.repeat(64), source: 'manual' },
    })])
    expect(writes).toBe(1)
    await small.close()
  })

  test('in a Memory, SMALL, artifact and fact writes of one tick share the record log\'s one transaction', async () => {
    const counted = new CountingStorage(memoryStorage())
    const mem = await openMemoryModules({ storage: counted })
    const [small, artifacts] = [await mem.load('small'), await mem.load('artifacts')]
    await small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 'warm-up', title: 'warm-up' }] })
    // The tick is held open until every write is queued, so the test does not depend on how long each takes to prepare.
    const held: Array<() => void> = []
    mem.log.schedule = (commit) => held.push(commit)
    counted.reset()
    const writes = Promise.all([
      small.put('plan', { small_version: '1.0.0', owner: 'agent', tasks: [{ id: 't1', title: 'Ship' }] }),
      small.appendProgress({ task_id: 't1', evidence: 'started' }),
      artifacts.create('notes', { body: 'one\n' }),
      mem.facts.write('The plan has one task'),
    ])
    while (mem.log.queued < 4) await new Promise((r) => setTimeout(r, 1))
    mem.log.schedule = (commit) => queueMicrotask(commit)
    for (const commit of held.splice(0)) commit()
    await writes
    expect(counted.writes).toBe(1)
    expect([...counted.transactions[0]!].sort()).toEqual(['artifact-version', 'fact', 'small-doc', 'small-progress'])
    await mem.close()
  })
})
