import { expect, test } from 'vitest'
import { fact } from '../helpers/pools-helpers.js'
import { network, settle, snapshot, useDevices } from '../helpers/sync-helpers.js'

/**
 * Regression (pools-incremental seeds 75 and 127): a materializer pass that heals re-plans, and that
 * second plan also takes the keys that changed while the pass awaited. A peer's removal of a stored
 * record arriving then was judged (absent) without the heal check, so the replica kept the record in
 * storage and never put it back into the document: the peer that removed it never got it again.
 *
 * Shrunk history: Bob writes a memory (one delivery), forgets it, the owner revokes him before the
 * tombstone arrives (so the tombstone is refused everywhere and the memory must stay), one delivery,
 * the owner shares again, everything settles. Both devices must hold the memory.
 */
const setup = useDevices(75)

test('a removal that arrives while a pass heals is healed too: a refused forget leaves the memory on both devices', async () => {
  const { d } = await setup(['alice', 'bob'] as const, 75)
  const net = network()
  const pool = (await d.alice.mem.pools.create({ name: 'late-removal' })).id
  await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
  for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
  await settle(net, [d.alice.mem, d.bob.mem])

  const m = await d.bob.mem.pools.write(pool, fact('Cy', 'likes', 'tea'))
  await net.flush()
  await d.bob.mem.pools.forget(m.id)
  // The revocation's cutoff holds Bob's memory (received) but not his tombstone (still in flight).
  await d.alice.mem.pools.revoke(pool, d.bob.id.did)
  await net.flush()
  await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
  await settle(net, [d.alice.mem, d.bob.mem])

  const ids = async (x: typeof d.alice) => (await x.mem.pools.export(pool)).memories.map((mm) => mm.memory_id)
  expect(await ids(d.alice)).toEqual([`0x${m.id.replace(/^0x/, '')}`])
  expect(await ids(d.bob)).toEqual(await ids(d.alice))
  expect(await snapshot(d.bob.mem, pool, { facts: false })).toEqual(await snapshot(d.alice.mem, pool, { facts: false }))
})
