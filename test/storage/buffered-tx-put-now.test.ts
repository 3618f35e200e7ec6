import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, test } from 'vitest'
import { BufferedTx } from '../../src/storage/buffered-tx.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoragePort } from '../../src/storage/port.js'
import { SCHEMA } from '../../src/storage/schema.js'

/**
 * Issue 31 (session 13, write37): `BufferedTx.putNow` issues a batch's records when they are
 * appended rather than at flush, so the backend writes while the batch goes on. The batch must end
 * as the buffered batch did: reads in it see the rows, a later delete or put of the same key wins,
 * a failed request fails the batch and nothing of it stays.
 */
const row = (id: string, content = id): object => ({ id, kind: 'fact', content })

for (const [name, make] of [
  ['memory', () => memoryStorage()],
  ['Dexie on fake-indexeddb', () => indexedDbStorage({ name: `put-now-${Math.random()}`, indexedDB: new IDBFactory(), IDBKeyRange })],
] as const) {
  describe(name, () => {
    const open = async (): Promise<StoragePort> => {
      const s: StoragePort = make()
      await s.open()
      return s
    }

    test('putNow reaches the transaction before flush; reads in the batch see it; a later delete and put win', async () => {
      const s = await open()
      const seen: string[] = []
      await s.write(['records'], async (tx) => {
        const b = new BufferedTx(tx, SCHEMA)
        b.putNow('records', [row('a'), row('b'), row('c')])
        // The put is already on the transaction: a read of the raw transaction, queued after it, sees it.
        seen.push(String(((await tx.get<{ id: string }>('records', 'a')) as { id: string } | undefined)?.id))
        seen.push(String(((await b.get<{ id: string }>('records', 'b')) as { id: string } | undefined)?.id))
        await b.delete('records', ['b'])
        await b.put('records', [row('c', 'c again')])
        seen.push(String(await b.get('records', 'b')))
        await b.flush({ last: true })
      })
      expect(seen).toEqual(['a', 'b', 'undefined'])
      const stored = await s.read(['records'], (tx) => tx.all<{ id: string; content: string }>('records'))
      expect(stored.map((r) => `${r.id}:${r.content}`).sort()).toEqual(['a:a', 'c:c again'])
      await s.close()
    })

    test('a putNow that fails fails the batch before commit, and nothing of the batch is stored', async () => {
      const s = await open()
      await s.write(['records'], async (tx) => tx.put('records', [row('kept')]))
      const batch = s.write(['records'], async (tx) => {
        const b = new BufferedTx(tx, SCHEMA)
        await b.put('records', [row('buffered')])
        // A function cannot be cloned (IndexedDB: DataCloneError; memory storage refuses it too).
        b.putNow('records', [row('ok'), { id: 'bad', kind: 'fact', content: () => 1 }])
        await b.flush({ last: true })
      })
      await expect(batch).rejects.toBeTruthy()
      const stored = await s.read(['records'], (tx) => tx.all<{ id: string }>('records'))
      expect(stored.map((r) => r.id)).toEqual(['kept'])
      await s.close()
    })
  })
}

test('putNow refuses rows without their key', async () => {
  const s = memoryStorage()
  await s.open()
  await expect(
    s.write(['log'], async (tx) => {
      new BufferedTx(tx, SCHEMA).putNow('log', [{ put: [], del: [] }])
    }),
  ).rejects.toThrow(/keyed rows/)
  await s.close()
})
