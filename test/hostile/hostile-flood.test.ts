import { expect, test } from 'vitest'
import { PoolKind, type PoolRecord } from '../../src/pools/records.js'
import { asValue } from '../../e2e/raw-client.js'
import { arena, eventually, memoryBody, objects, replicaProcess, signedAt } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Issue 13, "Hostile peers": an honest write made during a flood of another writer's records
 * arrived only after the whole flood (2.8 to 9 s behind 5,000 records). The bound the issue names:
 * under 1 s behind a flood of 5,000 records from one writer. The only timed assertion of the sync
 * tests, on purpose: it is the property. Measured as devices meet it: the real relay process, the
 * honest writer in a process of its own (test/processes/replica.mjs, from dist/), the owner's
 * replica here, the attacker a raw client here; the flood is signed beforehand.
 */
const FLOOD = 5000
const BOUND_MS = 1000
const MIN_SAMPLES = 3
const MAX_SAMPLES = 9

test(`a writer's record arrives within ${BOUND_MS} ms during a flood of ${FLOOD} records from another writer`, async () => {
  const a = await arena()
  const malloryId = await identityFor('mallory')
  const bobDid = (await identityFor('bob')).did
  await a.owner.mem.pools.share(a.pool, bobDid, { write: true })
  await a.owner.mem.pools.share(a.pool, malloryId.did, { write: true })
  const bob = await replicaProcess(a, 'bob')
  const mallory = await a.raw(malloryId.did, true)
  // Both writers have written before (keys imported, code warm): what is measured is the flood's effect.
  const hello = await signedAt(malloryId, a.pool, PoolKind.MEMORY, memoryBody('mallory', 'hello'), Date.now())
  mallory.records.set(hello.id, asValue(hello))
  await eventually(async () => (await bob.ask({ cmd: 'count' }))['count'], 1)
  await bob.ask({ cmd: 'write', subject: 'Bob', object: 'hello' })
  await eventually(() => objects(a.owner.mem, a.pool), ['hello', 'hello'])

  const t0 = Date.now()
  const flood: PoolRecord[] = []
  for (let i = 0; i < FLOOD; i++) flood.push(await signedAt(malloryId, a.pool, PoolKind.MEMORY, memoryBody(`flood ${i}`, `junk ${i}`, t0), t0 + i))
  // The flood goes out in batches of 100, as fast as the client can put them.
  for (let i = 0; i < FLOOD; i += 100) mallory.doc.transact(() => { for (const r of flood.slice(i, i + 100)) mallory.records.set(r.id, asValue(r)) })
  const started = performance.now()
  // Honest writes one after another while the flood is being taken in. One sample on a loaded
  // machine can be a scheduling stall; the median is the latency the flood imposes. A sample counts
  // when its write starts before the owner has applied the whole flood (then its latency is the
  // flood's effect); sampling stops when the flood is in, so a fast machine that applies it in two
  // seconds cannot leave the later samples measuring a quiet pool.
  const samples: number[] = []
  for (let i = 0; i < MAX_SAMPLES; i++) {
    if ((await a.owner.mem.pools.info(a.pool)).size >= FLOOD + 2 + i) break
    const start = performance.now()
    const { written } = await bob.ask({ cmd: 'write', subject: `Aria ${i}`, object: 'Rome' })
    await expect.poll(() => a.owner.mem.pools.status(String(written)), { timeout: 60_000, interval: 10 }).not.toBeNull()
    samples.push(performance.now() - start)
  }
  await eventually(async () => (await a.owner.mem.pools.info(a.pool)).size, FLOOD + 2 + samples.length, 120_000)
  const total = performance.now() - started
  const median = [...samples].sort((x, y) => x - y)[Math.floor(samples.length / 2)]!
  console.log(`honest records behind a flood of ${FLOOD}: ${samples.map((x) => x.toFixed(0)).join(', ')} ms (median ${median.toFixed(0)}); the whole flood applied after ${total.toFixed(0)} ms`)
  // Taken during the flood, or it proves nothing.
  expect(samples.length).toBeGreaterThanOrEqual(MIN_SAMPLES)
  expect(median).toBeLessThan(BOUND_MS)
  await bob.close()
}, 240_000)
