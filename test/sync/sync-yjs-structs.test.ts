import fc from 'fast-check'
import * as Y from 'yjs'
import { expect, test } from 'vitest'
import { applyRemoteUpdate, transactionUpdate } from '../../src/sync/yjs-structs.js'

/**
 * A transaction's update written by memweave (src/sync/yjs-structs.ts, so that nobody needs the
 * document's `update` event) is byte for byte the update Yjs's own event carries, over random local
 * transactions of two documents (sets, overwrites, deletes, several per transaction, updates
 * exchanged both ways); for a received update it is the bytes that arrived.
 */

type Op = { readonly doc: 0 | 1; readonly sets: ReadonlyArray<readonly [number, number]>; readonly deletes: readonly number[]; readonly exchange: boolean }

const op: fc.Arbitrary<Op> = fc.record({
  doc: fc.constantFrom<0 | 1>(0, 1),
  sets: fc.array(fc.tuple(fc.nat({ max: 40 }), fc.nat({ max: 1000 })), { maxLength: 6 }),
  deletes: fc.array(fc.nat({ max: 40 }), { maxLength: 3 }),
  exchange: fc.boolean(),
})

test('transactionUpdate equals the update event of Yjs for every transaction, local and remote', () => {
  let checked = 0
  fc.assert(
    fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), (ops) => {
      const docs = [new Y.Doc({ gc: true }), new Y.Doc({ gc: true })] as const
      docs[0].clientID = 11
      docs[1].clientID = 22
      const received = new Set<Uint8Array>()
      for (const doc of docs) {
        doc.on('afterTransactionCleanup', (tr: Y.Transaction) => {
          tr.meta.set('ours', transactionUpdate(tr))
        })
        // Yjs emits `update` right after `afterTransactionCleanup`, for the same transaction.
        doc.on('update', (u: Uint8Array, origin: unknown, _doc: Y.Doc, tr: Y.Transaction) => {
          const ours = tr.meta.get('ours') as Uint8Array
          // A received update is kept as it arrived (it may repeat deletions the document had: same effect).
          if (origin === 'peer') expect(received.has(ours)).toBe(true)
          else expect(ours).toEqual(u)
          checked++
        })
      }
      for (const o of ops) {
        const doc = docs[o.doc]
        const map = doc.getMap<number>('m')
        doc.transact(() => {
          for (const [k, v] of o.sets) map.set(`k${k}`, v)
          for (const k of o.deletes) map.delete(`k${k}`)
        })
        if (o.exchange) {
          const [a, b] = docs
          const toB = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b))
          received.add(toB)
          applyRemoteUpdate(b, toB, 'peer')
          const toA = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a))
          received.add(toA)
          applyRemoteUpdate(a, toA, 'peer')
        }
      }
    }),
    { seed: 20_261_127, numRuns: 200 },
  )
  expect(checked).toBeGreaterThan(1000)
})

test('a received update is the transaction update as it arrived, not encoded again', () => {
  const a = new Y.Doc()
  a.getMap('m').set('x', { deep: ['value'] })
  const b = new Y.Doc()
  const update = Y.encodeStateAsUpdate(a)
  let seen: Uint8Array | null = null
  b.on('afterTransactionCleanup', (tr: Y.Transaction) => {
    seen = transactionUpdate(tr)
  })
  applyRemoteUpdate(b, update, 'peer')
  expect(seen).toBe(update)
  expect(b.getMap('m').get('x')).toEqual({ deep: ['value'] })
})
