import { expect, test } from 'vitest'
import * as Y from 'yjs'
import { PoolKind, type TombstoneBody } from '../../src/pools/records.js'
import type { PoolId } from '../../src/pools/types.js'
import { touchedTombstone } from '../../src/relay/tombstone-guard.js'
import { encodeRecord } from '../../src/sync/codec.js'
import { memoryBody, signedAt } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

const POOL = 'ab'.repeat(16) as PoolId

/** A relay-like document (root read as a bare type, as the relay never calls getMap) holding a memory and a tombstone. */
async function setup(): Promise<{ relay: Y.Doc; peer: Y.Doc; tombstone: string; memory: string }> {
  const owner = await identityFor('alice')
  const memory = await signedAt(owner, POOL, PoolKind.MEMORY, memoryBody('a', 'Rome'), Date.now())
  const other = await signedAt(owner, POOL, PoolKind.MEMORY, memoryBody('b', 'Oslo'), Date.now())
  const tomb = await signedAt<TombstoneBody>(owner, POOL, PoolKind.TOMBSTONE, { targets: [{ id: other.id, supersedes: [] }], reason: 'forget' }, Date.now())
  const peer = new Y.Doc()
  peer.getMap('records').set(memory.id, encodeRecord(memory))
  peer.getMap('records').set(tomb.id, encodeRecord(tomb))
  const relay = new Y.Doc()
  Y.applyUpdate(relay, Y.encodeStateAsUpdate(peer))
  return { relay, peer, tombstone: tomb.id, memory: memory.id }
}

function change(peer: Y.Doc, edit: (records: Y.Map<unknown>) => void): ReturnType<typeof Y.decodeUpdate> {
  const sv = Y.encodeStateVector(peer)
  edit(peer.getMap('records'))
  return Y.decodeUpdate(Y.encodeStateAsUpdate(peer, sv))
}

test('honest changes pass: new records, a memory key removed, a memory key set again', async () => {
  const { relay, peer, memory } = await setup()
  expect(touchedTombstone(change(peer, (r) => r.set('c'.repeat(32), { kind: 'pool-memory' })), relay)).toBeNull()
  expect(touchedTombstone(change(peer, (r) => r.delete(memory)), relay)).toBeNull()
})

test('a deletion, an overwrite (encoded with an origin, no key), and a second writer’s concurrent value on the key are caught', async () => {
  const { relay, peer, tombstone } = await setup()
  expect(touchedTombstone(change(peer, (r) => r.delete(tombstone)), relay)).toBe(tombstone)
  const again = await setup()
  expect(touchedTombstone(change(again.peer, (r) => r.set(again.tombstone, 'junk')), again.relay)).toBe(again.tombstone)
  // A writer that never saw the tombstone sets its key: no origin, the key written out.
  const fresh = await setup()
  const blind = new Y.Doc()
  blind.getMap('records').set(fresh.tombstone, 'junk')
  expect(touchedTombstone(Y.decodeUpdate(Y.encodeStateAsUpdate(blind)), fresh.relay)).toBe(fresh.tombstone)
})

test('a forged "tombstone" over another record’s key protects nothing', async () => {
  const { relay, peer, memory } = await setup()
  const forged = { ...(peer.getMap('records').get(memory) as object), kind: PoolKind.TOMBSTONE }
  const update = change(peer, (r) => r.set(memory, forged))
  expect(touchedTombstone(update, relay)).toBeNull()
  Y.applyUpdate(relay, Y.encodeStateAsUpdate(peer))
  expect(touchedTombstone(change(peer, (r) => r.delete(memory)), relay)).toBeNull()
})
