import { expect, test } from 'vitest'
import { RecordLog } from '../../src/records/log.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'

// Issue 30: sync, pools and artifacts read stored records through the record log, not the table.

test('the log reads stored records by id (undefined where none) and by kinds, removed ones gone', async () => {
  const log = new RecordLog(new MemoryStorage())
  const a = log.seal('note', { n: 1 })
  const b = log.seal('todo', { n: 2 })
  const c = log.seal('other', { n: 3 })
  await log.append([a, b, c])
  expect((await log.records([b.id, 'missing', a.id])).map((r) => r?.id)).toEqual([b.id, undefined, a.id])
  expect(await log.records([])).toEqual([])
  expect((await log.recordsOfKinds(['todo', 'note'])).map((r) => r.id)).toEqual([b.id, a.id])
  await log.append([], [a.id])
  expect(await log.records([a.id])).toEqual([undefined])
  expect((await log.recordsOfKinds(['note', 'todo'])).map((r) => r.id)).toEqual([b.id])
  await log.close()
})
