import { expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoragePort } from '../../src/storage/port.js'

test('a quota error surfaces as QUOTA_EXCEEDED, nothing already stored is lost, and later writes work', async () => {
  const inner = memoryStorage()
  let full = false
  const port: StoragePort = {
    kind: inner.kind,
    durable: inner.durable,
    open: () => inner.open(),
    close: () => inner.close(),
    read: (t, b) => inner.read(t, b),
    write: (t, b) =>
      inner.write(t, async (tx) => {
        const result = await b(tx)
        // What IndexedDB does when the origin is over quota: the commit fails with this DOMException.
        if (full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
        return result
      }),
  }
  const mem = await createMemory({ storage: port })
  const kept = await mem.facts.write('stored before the disk filled up')
  full = true
  const err = await mem.facts.write('this one does not fit').catch((e: unknown) => e)
  expect(err).toMatchObject({ code: 'QUOTA_EXCEEDED' })
  expect((err as Error).cause).toBeInstanceOf(DOMException)
  expect((await mem.facts.audit()).map((m) => m.ref)).toEqual([kept])
  full = false
  const later = await mem.facts.write('room again')
  expect((await mem.facts.audit()).map((m) => m.ref).sort()).toEqual([kept, later].sort())
  await mem.close()
})
