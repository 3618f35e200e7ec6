import { afterEach, expect, test } from 'vitest'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { SignatureCache } from '../../src/core/signature-cache.js'
import { FactView } from '../../src/pools/fact-view.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { PoolSync } from '../../src/sync/pool-sync.js'
import { fact } from '../helpers/pools-helpers.js'
import { counting, sorted, tallied, type Tally } from '../helpers/work-tally.js'
import { clock, devices, identityFor, network, seedCrypto, settle } from '../helpers/sync-helpers.js'

/**
 * What one synced write costs, counted, at two pool sizes: the receiving device's storage requests
 * and the rows they read and write (per table); records verified, values decoded, fact view keys
 * brought in line and texts normalized. A write into a pool of 2,000 memories does the same work
 * as one into a pool of 200 (a one-line O(pool) change, every pass checking every stored key for
 * a heal, made it 4,017 decodes a write against 413). The sync bench times it (a synced write p50, flat from 1k to
 * 100k), but only a quiet run shows a change that makes it O(pool): a commit that did (branch
 * i-join4, 3 -> 10 ms at 100k) was merged and reverted in issue 31's fifth round.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

/**
 * Alice holds a pool of `size` memories, Bob (a counted storage port) joins it; after a few
 * unmeasured writes and a forget (the join's rows compacted away), what each of `writes` later
 * writes of Alice's costs, from the write until both devices are settled: Bob's storage, and the
 * methods counted on both devices (one process: Alice's share is the writer's, the same at both
 * sizes, and a writer's O(pool) shows too). Each write's texts are new to the process: the facts
 * store normalizes a text once per process (version.ts `norm`).
 */
async function perWrite(size: number, writes: number): Promise<Tally[]> {
  restore = seedCrypto(61)
  const c = clock()
  const { alice } = await devices(['alice'] as const, { clock: c })
  const bobId = await identityFor('bob')
  let tally: Tally = new Map()
  const now = (): Tally => tally
  let next = 9_000_000
  const bob = await createMemory({ storage: tallied(memoryStorage(), now), identity: bobId, now: c.now, sync: { clientId: () => next++ } })
  open.push(alice.mem, bob)
  const net = network()
  const pool: PoolId = (await alice.mem.pools.create({ name: 'household' })).id
  await alice.mem.pools.share(pool, bobId.did, { write: true })
  const ids: string[] = []
  for (let i = 0; i < size; i += 100) {
    const batch = Array.from({ length: Math.min(100, size - i) }, (_, k) => alice.mem.pools.write(pool, fact(`guest ${i + k}`, 'drinks', `tea number ${i + k}`)))
    for (const m of await Promise.all(batch)) ids.push(m.id)
  }
  await alice.mem.sync.attach(pool, net.provider('alice'))
  await bob.sync.attach(pool, net.provider('bob'))
  const both = [alice.mem, bob]
  await settle(net, both)
  expect((await bob.pools.info(pool)).size).toBe(size)
  for (let i = 0; i < 3; i++) {
    await alice.mem.pools.write(pool, fact(`warm ${i}`, 'drinks', `coffee ${i}`))
    await settle(net, both)
  }
  await alice.mem.pools.forget(ids[size >> 1]!)
  await settle(net, both)
  const undo = [
    counting(SignatureCache.prototype, 'verify', now, ([records]) => [...(records as Iterable<unknown>)].length),
    counting(PoolSync.prototype, 'codec', now),
    counting(FactView.prototype, 'reconcile', now, ([, dirty]) => (dirty as ReadonlySet<string>).size),
    counting(String.prototype, 'normalize', now),
  ]
  const out: Tally[] = []
  try {
    for (let i = 0; i < writes; i++) {
      c.advance(1_000)
      tally = new Map()
      await alice.mem.pools.write(pool, fact(`later ${size} ${i}`, 'drinks', `cocoa ${size} ${i}`))
      await settle(net, both)
      out.push(tally)
    }
  } finally {
    for (const u of undo) u()
    // What the handles do later (their close: the fact view's marker row out, its stamp in) is no write's.
    tally = new Map()
  }
  expect((await bob.pools.info(pool)).size).toBe(size + 3 - 1 + writes)
  return out
}

test("a synced write costs the same work in a pool of 2,000 memories as in one of 200", async () => {
  const small = await perWrite(200, 3)
  for (const m of open.splice(0)) await m.close()
  restore()
  const big = await perWrite(2_000, 3)
  for (let i = 0; i < small.length; i++) expect(sorted(big[i]!)).toEqual(sorted(small[i]!))
  // It counted something: the write was verified, decoded, stored and viewed on Bob.
  expect(small[0]!.get('verify')).toBeGreaterThan(0)
  expect(small[0]!.get('codec')).toBeGreaterThan(0)
  expect(small[0]!.get('reconcile')).toBeGreaterThan(0)
  expect(small[0]!.get('put records: rows')).toBeGreaterThan(0)
}, 300_000)
