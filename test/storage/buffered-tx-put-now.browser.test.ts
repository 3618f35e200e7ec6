import { expect, test } from 'vitest'
import { BufferedTx } from '../../src/storage/buffered-tx.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { SCHEMA } from '../../src/storage/schema.js'

/**
 * Issue 31 (session 13, write37), in real Chromium: a row IndexedDB cannot clone, issued with
 * `putNow` beside good rows, fails its batch before commit() and leaves nothing of it stored
 * (Chromium throws DataCloneError from `put` without aborting the transaction; IdbTx.put throws it).
 */
test('an uncloneable row issued at append: the batch fails uncommitted, what was stored before stays', async () => {
  const s = indexedDbStorage({ name: `put-now-${crypto.randomUUID()}` })
  await s.open()
  await s.write(['records'], async (tx) => tx.put('records', [{ id: 'kept', kind: 'fact' }]))
  const batch = s.write(['records', 'log'], async (tx) => {
    const b = new BufferedTx(tx, SCHEMA)
    await b.put('log', [{ put: ['ok'], del: [] }])
    b.putNow('records', [{ id: 'ok', kind: 'fact' }])
    b.putNow('records', [{ id: 'bad', kind: 'fact', content: () => 1 }])
    await b.flush({ last: true })
  })
  await expect(batch).rejects.toMatchObject({ cause: { name: 'DataCloneError' } })
  const ids = await s.read(['records', 'log'], async (tx) => [...(await tx.all<{ id: string }>('records')).map((r) => r.id), `log ${await tx.count('log')}`])
  expect(ids).toEqual(['kept', 'log 0'])
  await s.close()
})
