import * as Y from 'yjs'
import { expect, test, vi } from 'vitest'
import type { Memory, PoolId } from '../../src/index.js'
import type { Identity } from '../../src/core/identity.js'
import { encodeHlc } from '../../src/core/clock.js'
import { PoolKind, signRecord, type TombstoneBody } from '../../src/pools/records.js'
import { RECORDS_MAP, encodeRecord } from '../../src/sync/index.js'
import { SliceSize } from '../../src/sync/slice.js'
import { fact } from '../helpers/pools-helpers.js'
import { identityFor, network, settle, useDevices } from '../helpers/sync-helpers.js'

/**
 * Regression (hostile-forget's first test, flaky at load 20-30): a writer's tombstones of the owner's
 * memory sent together with the removal of its key made every replica forget it for good when the
 * materializer's passes were small (a loaded machine measures a few keys a pass, slice.ts). The pass
 * that took the removal judged the memory absent (a valid tombstone forgets an absent target), healed
 * it back into the document, and planned again; that second plan took a bounded slice without the
 * healed key, so the key kept its last judged value (absent), the next tombstone forgot it again, and
 * the step removed it from the document and hard-deleted it from storage. Every honest replica did the
 * same, so no witness was left to heal it. A healed key is now always judged in the plan that follows
 * its heal.
 */

const setup = useDevices(7)

const liveObjects = async (mem: Memory, pool: PoolId): Promise<string[]> =>
  (await mem.pools.export(pool)).memories.map((m) => String(m.content.object)).sort()

const tombstone = (author: Identity, pool: PoolId, target: string, reason: TombstoneBody['reason'], wall: number) =>
  signRecord<TombstoneBody>(author, {
    kind: PoolKind.TOMBSTONE, pool, tenant: null, author: author.did,
    body: { targets: [{ id: target, supersedes: [] }], reason }, hlc: encodeHlc({ wall, counter: 0, node: 'mallory' }),
  })

test('a writer’s tombstones with the removal of the owner’s memory, judged one key a pass, leave the memory on every replica', async () => {
  const { d, c } = await setup(['alice', 'bob'] as const)
  const mallory = await identityFor('mallory')
  const net = network()
  const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
  await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
  await d.alice.mem.pools.share(pool, mallory.did, { write: true })
  const rome = await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
  const evil = new Y.Doc()
  net.provider('mallory').connect(pool, evil, () => undefined)
  await settle(net, [d.alice.mem, d.bob.mem])
  for (const x of [d.alice, d.bob]) expect(await liveObjects(x.mem, pool)).toEqual(['Rome'])

  c.advance(1000)
  const reasons: TombstoneBody['reason'][] = ['forget', 'cascade', 'expired', 'ephemeral', 'pruned', 'session-end']
  const tombstones = await Promise.all(reasons.map((reason) => tombstone(mallory, pool, rome.id, reason, c.now())))
  // A machine so loaded that every pass takes one key (what slice.ts measured at load 25).
  const slices = vi.spyOn(SliceSize.prototype, 'next', 'get').mockReturnValue(1)
  try {
    const map = evil.getMap(RECORDS_MAP)
    evil.transact(() => {
      for (const t of tombstones) map.set(t.id, encodeRecord(t))
      map.delete(rome.id)
    })
    await settle(net, [d.alice.mem, d.bob.mem], 200)
  } finally {
    slices.mockRestore()
  }

  for (const x of [d.alice, d.bob]) {
    expect(await liveObjects(x.mem, pool)).toEqual(['Rome'])
    expect(await x.mem.pools.status(rome.id)).not.toBe('forgotten')
    expect(await x.mem.pools.forgotten(pool)).toEqual([])
  }
  // Healed in the attacker's document too.
  expect(evil.getMap(RECORDS_MAP).has(rome.id)).toBe(true)
})
