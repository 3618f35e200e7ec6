import * as Y from 'yjs'
import { expect, test } from 'vitest'
import type { Memory, PoolId } from '../../src/index.js'
import { PoolKind } from '../../src/pools/records.js'
import { RECORDS_MAP } from '../../src/sync/index.js'
import { fact } from '../helpers/pools-helpers.js'
import { network, settle, snapshot, useDevices } from '../helpers/sync-helpers.js'

/**
 * Regression: signature verdicts were remembered by record id and signature alone. A peer that
 * overwrote a verified record's value with another well-formed body under the same id and signature
 * got the new body accepted by every replica that had verified the original (the cache answered;
 * the id was never recomputed from the content), and a replica does not heal a value it judges
 * valid. A tombstone whose targets were swapped made those replicas forget a memory nobody forgot.
 */

const setup = useDevices(3)

const liveObjects = async (mem: Memory, pool: PoolId): Promise<string[]> =>
  (await mem.pools.export(pool)).memories.map((m) => String(m.content.object)).sort()

test('a verified record overwritten with another body under the same id and signature is refused and healed', async () => {
  const { d } = await setup(['alice', 'bob'] as const)
  const net = network()
  const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
  await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
  const rome = await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  const oslo = await d.alice.mem.pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
  await d.alice.mem.pools.forget(rome.id)
  for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
  const evil = new Y.Doc()
  net.provider('mallory').connect(pool, evil, () => undefined)
  await settle(net, [d.alice.mem, d.bob.mem])
  for (const x of [d.alice, d.bob]) expect(await liveObjects(x.mem, pool)).toEqual(['Oslo'])

  const map = evil.getMap(RECORDS_MAP)
  const tombstoneId = [...map.keys()].find((k) => (map.get(k) as { kind: string }).kind === PoolKind.TOMBSTONE)!
  const original = map.get(tombstoneId) as { body: object }
  map.set(tombstoneId, { ...original, body: { targets: [{ id: oslo.id, supersedes: [] }], reason: 'forget' } })
  await settle(net, [d.alice.mem, d.bob.mem])

  for (const x of [d.alice, d.bob]) {
    expect(await liveObjects(x.mem, pool)).toEqual(['Oslo'])
    expect(await x.mem.sync.quarantine(pool)).toEqual([])
  }
  // Healed: the document holds the tombstone as its author signed it.
  expect((map.get(tombstoneId) as { body: unknown }).body).toEqual(original.body)
  expect(await snapshot(d.bob.mem, pool)).toEqual(await snapshot(d.alice.mem, pool))
})
