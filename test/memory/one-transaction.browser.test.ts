import { expect, test } from 'vitest'
import { createIdentity, indexedDbStorage } from '../../src/index.js'
import { openMemoryModules } from '../../src/memory-loader.js'
import { CountingStorage } from '../helpers/counting-storage.js'

/**
 * DESIGN.md "Runtime": one IndexedDB transaction per tick. Writes into facts, a pool, a working
 * task and an artifact that reach the record log in the same tick commit together, in one real
 * IndexedDB transaction (counted at the storage port). The tick is held open until all four have
 * been queued, so the test does not depend on how long each module takes to prepare (sign, embed).
 */
test('a tick with writes into facts, a pool, a working task and an artifact commits exactly one IndexedDB transaction', async () => {
  const counted = new CountingStorage(indexedDbStorage({ name: `one-tx-${crypto.randomUUID()}` }))
  const modules = await openMemoryModules({ storage: counted, identity: await createIdentity() })
  const [pools, working, artifacts] = [await modules.load('pools'), await modules.load('working'), await modules.load('artifacts')]
  const pool = await pools.create({ name: 'trip' })
  const task = await working.open('plan-trip')

  const held: Array<() => void> = []
  modules.log.schedule = (commit) => held.push(commit)
  counted.reset()
  const writes = Promise.all([
    modules.facts.write('Aria flies to Lisbon on Friday', { metadata: { subject: 'Aria', predicate: 'flies_to', object: 'Lisbon' } }),
    pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'hotel', predicate: 'price', object: '120 EUR' } }),
    task.addObservation({ content: 'The hotel charges 120 EUR per night', sourceAgentId: 'booker' }),
    artifacts.create('trip-notes', { title: 'Trip notes', body: '\n# Trip notes\n' }),
  ])
  const until = Date.now() + 10_000
  while (modules.log.queued < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 5))
  expect(modules.log.queued).toBeGreaterThanOrEqual(4)
  expect(counted.writes).toBe(0)

  modules.log.schedule = (commit) => queueMicrotask(commit)
  for (const commit of held.splice(0)) commit()
  await writes
  // The four writes landed in the first transaction after the tick (what a pool write derives
  // afterwards, such as its fact view, may follow in later ones: that is not the tick).
  expect([...counted.transactions[0]!]).toEqual(expect.arrayContaining(['fact', 'pool-memory', 'observation', 'artifact-version']))
  await modules.close()
})
