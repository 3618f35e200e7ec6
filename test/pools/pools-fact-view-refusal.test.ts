import { expect, test } from 'vitest'
import { createIdentity, memoryStorage } from '../../src/index.js'
import { invalidArgument } from '../../src/core/errors.js'
import { GmpFactStore } from '../../src/facts/store.js'
import type { FactLookup, FactStore, FactWrite } from '../../src/facts/types.js'
import { PoolStore } from '../../src/pools/store.js'
import { RecordLog } from '../../src/records/log.js'
import { fact } from '../helpers/pools-helpers.js'

/**
 * Regression (issue 26, case 3): the facts store refused one memory's fact, and the refusal failed
 * the whole fact-view update: no later memory reached `mem.facts`, and the owner's share() and
 * revoke(), which bring the view in line after their ACL record commits, rejected. Records from
 * elsewhere now meet the API's caps first (test/hostile/hostile-caps.test.ts), so no record can make the
 * real stores disagree; this store refuses by its own rule (any text naming Mallory, as a facts
 * store with a stricter cap than the pools' would) to pin that one refused fact stops nothing else.
 */
test('a fact the facts store refuses leaves its memory without a fact and stops no other fact, write, share or revoke', async () => {
  const alice = await createIdentity()
  const bob = await createIdentity()
  const log = new RecordLog(memoryStorage(), { identity: alice })
  const real = new GmpFactStore(log, { identity: alice })
  const refusing = (w: FactWrite): boolean => w.content.includes('Mallory')
  const facts = new Proxy(real, {
    get(target, key) {
      if (key === 'writeMany') {
        return (writes: readonly FactWrite[]) => writes.some(refusing) ? Promise.reject(invalidArgument('content', 'names Mallory')) : target.writeMany(writes)
      }
      const v = Reflect.get(target, key, target) as unknown
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    },
  }) as FactStore & FactLookup
  const pools = new PoolStore(log, { facts })
  const pool = (await pools.create({ name: 'household' })).id

  await pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  const bad = await pools.write(pool, fact('Mallory', 'lives_in', 'Nowhere'))
  await pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
  // A batch of several (as a join brings them): the refused one is taken out, the others land.
  await pools.import({ memories: ['Carla', 'Mallory2', 'Dario'].map((who, i) => ({
    memory_id: `${i + 1}`.padStart(32, '0'), type: 'KNOWLEDGE', content: { subject: who === 'Mallory2' ? 'Mallory' : who, predicate: 'lives_in', object: `City${i}` },
  })) }, { poolId: pool })
  await pools.share(pool, bob.did, { write: true })
  await pools.revoke(pool, bob.did)

  const objects = (await real.audit()).filter((f) => f.metadata['pool'] === pool && f.validUntil === null).map((f) => f.metadata['subject']).sort()
  expect(objects).toEqual(['Aria', 'Bruno', 'Carla', 'Dario'])
  const info = await pools.info(pool)
  expect(info.factsRefused.map((r) => r.reason)).toEqual(['content: names Mallory', 'content: names Mallory'])
  expect(info.factsRefused.map((r) => r.memoryId)).toContain(bad.id)
  expect(info.members.map((m) => m.did)).toEqual([alice.did])
  await pools.close()
  await log.close()
})
