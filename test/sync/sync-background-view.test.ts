import { afterEach, expect, test, vi } from 'vitest'
import type { Memory, PoolId } from '../../src/index.js'
import type { GmpFactStore } from '../../src/facts/store.js'
import { fact } from '../helpers/pools-helpers.js'
import { clock, devices, network, seedCrypto, settle, type Device } from '../helpers/sync-helpers.js'

/**
 * A join of a big pool (`sync.backgroundFrom` records or more in one change): the pool is `synced`
 * and in `mem.pools` once its records are stored, and its fact view is written after. `mem.facts`
 * reads wait for that view, never answering from half of it; `mem.pools.flush()` resolves once it
 * is written. A change below the threshold is waited for, as before: the pool is not `synced` first.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
  vi.restoreAllMocks()
})

const SIZE = 30

async function joinWithHeldView(backgroundFrom: number): Promise<{ bob: Device; pool: PoolId; release: () => void; viewWrites: () => number }> {
  restore = seedCrypto(23)
  const c = clock()
  const { alice, bob } = await devices(['alice', 'bob'] as const, { clock: c, extra: { sync: { backgroundFrom } } })
  open.push(alice.mem, bob.mem)
  const net = network()
  const pool = (await alice.mem.pools.create({ name: 'big enough' })).id
  await alice.mem.pools.share(pool, bob.id.did)
  for (let i = 0; i < SIZE; i++) await alice.mem.pools.write(pool, fact(`Person ${i}`, 'lives_in', `City ${i}`))
  await alice.mem.sync.attach(pool, net.provider('alice'))
  await settle(net, [alice.mem])
  // bob's fact view cannot be written until the test lets it.
  let release!: () => void
  const gate = new Promise<void>((ok) => (release = ok))
  const facts = bob.mem.facts as unknown as GmpFactStore
  const writeMany = facts.writeMany.bind(facts)
  const spy = vi.spyOn(facts, 'writeMany').mockImplementation(async (writes) => {
    await gate
    return writeMany(writes)
  })
  await bob.mem.sync.attach(pool, net.provider('bob'))
  for (let round = 0; round < 40 && (await bob.mem.sync.status()).state !== 'synced'; round++) {
    await net.flush()
    await new Promise((r) => setTimeout(r, 5))
  }
  return { bob, pool, release, viewWrites: () => spy.mock.calls.length }
}

const poolFacts = async (mem: Memory, pool: PoolId): Promise<number> =>
  (await mem.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null).length

test('a big join is synced and in mem.pools before its fact view is written; mem.facts reads wait for the view', async () => {
  const { bob, pool, release, viewWrites } = await joinWithHeldView(10)
  expect((await bob.mem.sync.status()).state).toBe('synced')
  expect((await bob.mem.pools.info(pool)).size).toBe(SIZE)
  expect((await bob.mem.pools.query(pool, { limit: SIZE })).length).toBe(SIZE)
  expect(viewWrites()).toBe(1)
  // Asked now, a facts read does not answer from the view being written: it waits for it.
  let answered: number | null = null
  const read = poolFacts(bob.mem, pool).then((n) => (answered = n))
  const flushed = bob.mem.pools.flush()
  await new Promise((r) => setTimeout(r, 50))
  expect(answered).toBeNull()
  release()
  await read
  expect(answered).toBe(SIZE)
  await flushed
  const hits = await bob.mem.facts.retrieve('where does Person 7 live', { topK: 1 })
  expect(hits[0]?.content).toBe('Person 7 lives in City 7')
})

test('a change below the threshold is waited for: the pool is not synced before its fact view is written', async () => {
  const { bob, pool, release } = await joinWithHeldView(10_000)
  expect((await bob.mem.sync.status()).state).not.toBe('synced')
  release()
  for (let round = 0; round < 40 && (await bob.mem.sync.status()).state !== 'synced'; round++) await new Promise((r) => setTimeout(r, 5))
  expect((await bob.mem.sync.status()).state).toBe('synced')
  expect(await poolFacts(bob.mem, pool)).toBe(SIZE)
})
