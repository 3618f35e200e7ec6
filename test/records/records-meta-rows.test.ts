import { expect, test } from 'vitest'
import { MetaRows } from '../../src/records/meta-rows.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'

// Issue 30: facts (lexical snapshots) and pools (signature verdicts) keep caches in the `meta`
// table through one helper. A cache's rows are its prefix's only, and a replace leaves no stale row.

interface Row {
  readonly key: string
  readonly n: number
}

async function keys(storage: MemoryStorage): Promise<string[]> {
  return storage.read(['meta'], async (tx) => (await tx.all<{ key: string }>('meta')).map((r) => r.key).sort())
}

test('a cache loads its own rows, replaces them without a stale one, and removes by key', async () => {
  const storage = new MemoryStorage()
  await storage.open()
  await storage.write(['meta'], (tx) => tx.put('meta', [{ key: 'other:1', n: 0 }, { key: 'c:old', n: 1 }]))
  const cache = new MetaRows<Row>('c:')
  expect(await storage.read(['meta'], (tx) => cache.load(tx))).toEqual([{ key: 'c:old', n: 1 }])
  await storage.write(['meta'], (tx) => cache.replace(tx, [{ key: cache.key('a'), n: 2 }, { key: cache.key('b'), n: 3 }]))
  expect(await keys(storage)).toEqual(['c:a', 'c:b', 'other:1'])
  await storage.write(['meta'], (tx) => cache.add(tx, [{ key: cache.key('c'), n: 4 }]))
  await storage.write(['meta'], (tx) => cache.remove(tx, [cache.key('a')]))
  await storage.write(['meta'], (tx) => cache.replace(tx, [{ key: cache.key('d'), n: 5 }]))
  // Another cache's rows are never touched.
  expect(await keys(storage)).toEqual(['c:d', 'other:1'])
  await storage.close()
})
