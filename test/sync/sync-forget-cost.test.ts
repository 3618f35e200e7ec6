import { afterEach, expect, test } from 'vitest'
import * as Y from 'yjs'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { SignatureCache } from '../../src/core/signature-cache.js'
import { FactView } from '../../src/pools/fact-view.js'
import { ViewState } from '../../src/pools/view.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { PoolSync } from '../../src/sync/pool-sync.js'
import { CHUNK_CLOCKS } from '../../src/sync/update-log.js'
import { fact } from '../helpers/pools-helpers.js'
import { beyond, counting, tallied, type Tally } from '../helpers/work-tally.js'
import { clock, identityFor, network, seedCrypto, settle } from '../helpers/sync-helpers.js'

/**
 * What one forget costs, counted, at two pool sizes (issue 31: forget A -> B at 100k memories took
 * 2.8-3.1x the 1k figure): from Alice's `forget` until both devices are settled, each device's
 * storage requests and the rows they read, write and delete (per table: the tombstone, the hard
 * delete, the update log's parts), the Yjs structs both compactions encode, records verified,
 * values decoded, fact view keys brought in line, texts normalized, and the pools views built from
 * scratch. A forget in a pool of 2,092 memories does exactly the work of one in a pool of 300.
 *
 * The sizes differ by a whole number of the update log's chunks (CHUNK_CLOCKS: a memory is one
 * clock), so that the chunk the tombstones are appended to holds as many structs at both sizes,
 * and the memories forgotten lie in full chunks: a compaction rewrites those two chunks, whatever
 * the pool's size. The first forget after the join (its rows compacted away, every chunk written
 * once) is not counted, nor are two more after it.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

const SMALL = 300
const BIG = SMALL + 7 * CHUNK_CLOCKS

/**
 * Alice holds a pool of `size` memories, Bob joins it; after three writes and three forgets (not
 * counted), what each of `forgets` forgets of Alice's costs on both devices: memories 20, 60, 100,
 * ... of the pool, in its first (full) chunk at both sizes, none next to another (each leaves one
 * collected struct of its own).
 */
async function perForget(size: number, forgets: number): Promise<Tally[]> {
  restore = seedCrypto(67)
  const c = clock()
  let tally: Tally = new Map()
  const now = (): Tally => tally
  let nextA = 1_000_000
  let nextB = 9_000_000
  const bobId = await identityFor('bob')
  // No owner's checkpoint (one each 1,000 records by default): the big pool's, a value of its own
  // part in the chunk the tombstones go to, would spare its compactions the memories before it.
  const alice = await createMemory({
    storage: tallied(memoryStorage(), now, 'alice '), identity: await identityFor('alice'), now: c.now, sync: { clientId: () => nextA++, checkpointEvery: 100_000 },
  })
  const bob = await createMemory({ storage: tallied(memoryStorage(), now, 'bob '), identity: bobId, now: c.now, sync: { clientId: () => nextB++ } })
  open.push(alice, bob)
  const net = network()
  const pool: PoolId = (await alice.pools.create({ name: 'household' })).id
  await alice.pools.share(pool, bobId.did, { write: true })
  // Attached first, so that each memory enters Alice's document as it is written: memory i is about
  // clock i (a reconcile would put the stored records in in id order).
  await alice.sync.attach(pool, net.provider('alice'))
  const ids: string[] = []
  for (let i = 0; i < size; i += 100) {
    const batch = Array.from({ length: Math.min(100, size - i) }, (_, k) => alice.pools.write(pool, fact(`guest ${i + k}`, 'drinks', `tea number ${i + k}`)))
    for (const m of await Promise.all(batch)) ids.push(m.id)
  }
  await bob.sync.attach(pool, net.provider('bob'))
  const both = [alice, bob]
  await settle(net, both)
  expect((await bob.pools.info(pool)).size).toBe(size)
  for (let i = 0; i < 3; i++) {
    await alice.pools.write(pool, fact(`warm ${i}`, 'drinks', `coffee ${i}`))
    await settle(net, both)
  }
  const targets = Array.from({ length: 3 + forgets }, (_, i) => ids[20 + 40 * i]!)
  for (const id of targets.slice(0, 3)) {
    await alice.pools.forget(id)
    await settle(net, both)
  }
  const undo = [
    counting(SignatureCache.prototype, 'verify', now, ([records]) => [...(records as Iterable<unknown>)].length),
    counting(PoolSync.prototype, 'codec', now),
    counting(FactView.prototype, 'reconcile', now, ([, dirty]) => (dirty as ReadonlySet<string>).size),
    counting(String.prototype, 'normalize', now),
    counting(Y.Item.prototype, 'write', now, () => 1, 'Yjs items encoded'),
    counting(Y.GC.prototype, 'write', now, () => 1, 'Yjs collected structs encoded'),
    counting(ViewState, 'build', now, () => 1, 'pools view built'),
  ]
  const out: Tally[] = []
  try {
    for (const id of targets.slice(3)) {
      c.advance(1_000)
      tally = new Map()
      await alice.pools.forget(id)
      await settle(net, both)
      out.push(tally)
    }
  } finally {
    for (const u of undo) u()
  }
  for (const mem of both) expect((await mem.pools.info(pool)).size).toBe(size + 3 - 3 - forgets)
  return out
}

// Retried (each attempt builds both pools again): in one fresh-clone CI run of three, a compaction of
// the small pool's forget fell outside that forget's window (Yjs items encoded 116 against 628), which
// is when the sync loop's stepped compaction yields to a kicked pass, not work that grows with the
// pool. A real O(pool) forget fails every attempt (4,208 items against 624 when compaction rewrote
// every chunk).
test(`a forget costs the same work on both devices in a pool of ${BIG.toLocaleString('en-US')} memories as in one of ${SMALL}`, { retry: 2, timeout: 300_000 }, async () => {
  const small = await perForget(SMALL, 3)
  for (const m of open.splice(0)) await m.close()
  restore()
  const big = await perForget(BIG, 3)
  // Equal but for two of anything: under load, whether one of Bob's catch-up reads or log rows falls
  // inside a forget's window is timing (it failed once in ten full runs at load 17, one read either way).
  for (let i = 0; i < small.length; i++) expect(beyond(big[i]!, small[i]!, 2)).toEqual([])
  // It counted something on both devices: a tombstone verified, stored, the memory deleted, both logs compacted.
  const first = small[0]!
  expect(first.get('verify')).toBeGreaterThan(0)
  expect(first.get('codec')).toBeGreaterThan(0)
  for (const who of ['alice', 'bob']) {
    expect(first.get(`${who} put records: rows`)).toBeGreaterThan(0)
    expect(first.get(`${who} delete records: rows`)).toBeGreaterThan(0)
    expect(first.get(`${who} put syncUpdates: rows`)).toBeGreaterThan(0)
  }
  expect(first.get('Yjs items encoded')).toBeGreaterThan(CHUNK_CLOCKS)
  expect(first.get('pools view built')).toBeUndefined()
})
