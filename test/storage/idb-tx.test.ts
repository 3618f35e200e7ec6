import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { expect, test } from 'vitest'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'

// The IndexedDB adapter's native transactions (src/storage/idb-tx.ts): what Dexie's did, and commit().
const storage = () => indexedDbStorage({ name: `idb-tx-${Math.random()}`, indexedDB: new IDBFactory(), IDBKeyRange })

test('commit() after the last requests: their results still come back, and the rows are stored when the write resolves', async () => {
  const s = storage()
  await s.open()
  const keys = await s.write(['log', 'records'], async (tx) => {
    const put = tx.put('log', [{ put: ['a'], del: [] }, { put: ['b'], del: [] }])
    const rec = tx.put('records', [{ id: 'a', kind: 'k' }])
    tx.commit?.()
    return [...(await put), ...(await rec)]
  })
  expect(keys).toEqual([1, 2, 'a'])
  expect(await s.read(['log'], (tx) => tx.count('log'))).toBe(2)
  expect(await s.read(['records'], (tx) => tx.get('records', 'a'))).toEqual({ id: 'a', kind: 'k' })
  await s.close()
})

test('a body that awaits something other than its own requests is refused as STORAGE, as with Dexie', async () => {
  const s = storage()
  await s.open()
  const err = await s
    .write(['records'], async (tx) => {
      await tx.put('records', [{ id: 'early', kind: 'k' }])
      await new Promise((r) => setTimeout(r, 20))
      await tx.put('records', [{ id: 'late', kind: 'k' }])
    })
    .catch((e: unknown) => e)
  expect(err).toMatchObject({ code: 'STORAGE' })
  expect(await s.read(['records'], (tx) => tx.get('records', 'late'))).toBeUndefined()
  await s.close()
})

test('a closed adapter refuses a transaction with CLOSED', async () => {
  const s = storage()
  await s.open()
  await s.close()
  await expect(s.read(['records'], (tx) => tx.count('records'))).rejects.toMatchObject({ code: 'CLOSED' })
  await expect(s.write(['records'], (tx) => tx.put('records', [{ id: 'x', kind: 'k' }]))).rejects.toMatchObject({ code: 'CLOSED' })
})
