import { expect, test } from 'vitest'
import * as Y from 'yjs'
import { fact } from '../helpers/pools-helpers.js'
import { arena, eventually, objects } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Regression (issue 13, "Hostile peers" 1): a token holder put a nested Y.Map or Y.Text as a value
 * of a pool's records map. The quarantine row kept the live Yjs object, the store could not clone
 * it ("could not be cloned"), the whole apply transaction failed on every pass, and no replica ever
 * stored another record of the pool, across restarts, for devices that joined later too.
 */
test('odd Yjs values from a raw client with a valid token are quarantined, and honest records still land everywhere', async () => {
  const a = await arena()
  const bob = await a.replica('bob')
  await a.owner.mem.pools.share(a.pool, bob.id.did, { write: true })
  await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  await eventually(() => objects(bob.mem, a.pool), ['Rome'])

  // The attacker holds a token and nothing else: no grant, no signature.
  const mallory = await a.raw((await identityFor('mallory')).did, true)
  mallory.doc.transact(() => {
    mallory.records.set('nested-map', new Y.Map([['kind', 'pool-memory'], ['inner', new Y.Map([['deep', 1]])]]))
    mallory.records.set('nested-text', new Y.Text('poison'))
    mallory.records.set('nested-array', Y.Array.from([1, new Y.Map()]))
    mallory.records.set('xml', new Y.XmlFragment())
    mallory.records.set('binary', new Uint8Array([1, 2, 3]))
    mallory.records.set('nothing', null)
    mallory.records.set('huge', 'x'.repeat(300_000))
    mallory.records.set('obj-with-binary', { kind: 'pool-memory', body: new Uint8Array(10) })
  })

  // Honest writes after the poison reach every replica, both ways.
  await a.owner.mem.pools.write(a.pool, fact('Bruno', 'lives_in', 'Oslo'))
  await bob.mem.pools.write(a.pool, fact('Carla', 'lives_in', 'Lima'))
  for (const r of [a.owner, bob]) await eventually(() => objects(r.mem, a.pool), ['Lima', 'Oslo', 'Rome'])
  const keys = ['binary', 'huge', 'nested-array', 'nested-map', 'nested-text', 'nothing', 'obj-with-binary', 'xml']
  for (const r of [a.owner, bob]) {
    await eventually(async () => (await r.mem.sync.quarantine(a.pool)).map((q) => `${q.key} ${q.reason}`).sort(), keys.map((k) => `${k} malformed`))
    const status = await r.mem.sync.status()
    expect(status.pools[0]!.error).toBeNull()
  }
  // A device that joins later receives every honest record, and quarantines the same values.
  const carol = await a.replica('carol')
  await a.owner.mem.pools.share(a.pool, carol.id.did, { write: false })
  await eventually(() => objects(carol.mem, a.pool), ['Lima', 'Oslo', 'Rome'])
  await eventually(async () => (await carol.mem.sync.quarantine(a.pool)).length, keys.length)
}, 60_000)
