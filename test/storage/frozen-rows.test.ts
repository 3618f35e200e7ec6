import { expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { freezeRow, isFrozenRow } from '../../src/storage/frozen-rows.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'

/**
 * Memory storage keeps a row the record log froze by reference (nothing can change it) and copies
 * every other row, as IndexedDB copies every row: what a caller does to its object afterwards never
 * reaches storage.
 */

test('a frozen row is kept as it is; any other row is copied', async () => {
  const storage = memoryStorage()
  await storage.open()
  type Row = { key: string; body: { list: [number, { deep: string }] } }
  const frozen = freezeRow<Row>({ key: 'a', body: { list: [1, { deep: 'x' }] } })
  const open: Row = { key: 'b', body: { list: [1, { deep: 'x' }] } }
  await storage.write(['meta'], (tx) => tx.put('meta', [frozen, open]))
  const [a, b] = await storage.read(['meta'], (tx) => tx.getMany<Row>('meta', ['a', 'b']))
  expect(a).toBe(frozen)
  expect(b).not.toBe(open)
  open.body.list[1].deep = 'changed'
  expect(b!.body.list[1].deep).toBe('x')
  // Frozen all the way down: it cannot be changed where it is shared.
  expect(() => {
    frozen.body.list[1].deep = 'changed'
  }).toThrow(TypeError)
  await storage.close()
})

test('a row holding more than plain data is not marked, and is copied', () => {
  const bytes = { key: 'c', vec: new Float32Array([1, 2]) }
  freezeRow(bytes)
  expect(isFrozenRow(bytes)).toBe(false)
  bytes.vec[0] = 5
  expect(bytes.vec[0]).toBe(5)
  class Custom { x = 1 }
  const custom = { key: 'd', value: new Custom() }
  expect(isFrozenRow(freezeRow(custom))).toBe(false)
})

test('records the log appends are frozen: a fact read back cannot be changed in storage', async () => {
  const storage = memoryStorage()
  const store = new GmpFactStore(storage)
  const ref = await store.write('Aria lives in Rome', { metadata: { tags: ['home'] } })
  const [row] = await storage.read(['records'], (tx) => tx.getMany<{ id: string; body: { metadata: { tags: string[] } } }>('records', [ref]))
  expect(isFrozenRow(row!)).toBe(true)
  expect(() => row!.body.metadata.tags.push('x')).toThrow(TypeError)
  expect((await store.get(ref))!.metadata).toEqual({ tags: ['home'] })
  await store.close()
})
