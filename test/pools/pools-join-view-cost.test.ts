import { afterEach, expect, test, vi } from 'vitest'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { GmpFactStore } from '../../src/facts/store.js'
import { FactState } from '../../src/facts/state.js'
import { RecordLog } from '../../src/records/log.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { fact } from '../helpers/pools-helpers.js'
import { clock, devices, identityFor, network, seedCrypto, settle } from '../helpers/sync-helpers.js'
import { add, counting, tallied, type Tally } from '../helpers/work-tally.js'

/**
 * What a new device's fact view costs a joined memory, counted at two pool sizes (issue 31,
 * seventh round): Bob joins a pool of 200 memories, then one of 2,000, and everything his join
 * does until `mem.facts` answers with the view is counted: Ed25519 signatures made and checked,
 * records sealed, facts applied to the fact state, fact versions the view looked up, entries read
 * one by one, and his storage requests and rows per table. Per memory, the join
 * of 2,000 does no more of any of them than the join of 200: a view whose work per memory grew
 * with the pool (a whole-pool look-up per memory, say) would be O(pool²) in a 100k join, and only a
 * quiet bench run shows that by time.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
  vi.restoreAllMocks()
})

async function joinCost(size: number): Promise<Tally> {
  restore = seedCrypto(67)
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
  for (let i = 0; i < size; i += 100) {
    // Texts new to the process at each size: the facts store normalizes a text once per process (version.ts `norm`).
    await Promise.all(Array.from({ length: Math.min(100, size - i) }, (_, k) => alice.mem.pools.write(pool, fact(`guest ${size} ${i + k}`, 'drinks', `tea number ${size} ${i + k}`))))
  }
  await alice.mem.sync.attach(pool, net.provider('alice'))
  await settle(net, [alice.mem])
  // Bob is open and registered before the count starts: what is counted is the join.
  expect(await bob.facts.retrieve('tea', { topK: 1 })).toEqual([])
  const subtle = globalThis.crypto.subtle
  const signs = vi.spyOn(subtle, 'sign')
  const verifies = vi.spyOn(subtle, 'verify')
  const undo = [
    counting(RecordLog.prototype, 'seal', now),
    counting(FactState.prototype, 'apply', now),
    counting(GmpFactStore.prototype, 'writeMany', now, ([writes]) => (writes as unknown[]).length),
    counting(GmpFactStore.prototype, 'versionsWhere', now, () => 1, 'versionsWhere', (got) => (got as unknown[]).length),
    counting(GmpFactStore.prototype, 'entry', now),
  ]
  tally = new Map()
  try {
    await bob.sync.attach(pool, net.provider('bob'))
    await settle(net, [alice.mem, bob])
    // A facts read waits for the view (the sync bench's clock stops here too).
    expect(await bob.facts.retrieve(`guest ${size} 7 drinks`, { topK: 1 })).toHaveLength(1)
  } finally {
    for (const u of undo) u()
  }
  add(tally, 'subtle.sign', signs.mock.calls.length)
  add(tally, 'subtle.verify', verifies.mock.calls.length)
  expect((await bob.pools.info(pool)).size).toBe(size)
  expect((await bob.facts.audit()).filter((f) => f.metadata['pool'] === pool)).toHaveLength(size)
  return tally
}

test('a joined memory costs its fact view no more work in a pool of 2,000 than in one of 200', async () => {
  const small = await joinCost(200)
  for (const m of open.splice(0)) await m.close()
  restore()
  vi.restoreAllMocks()
  const big = await joinCost(2_000)
  const perMemory = (t: Tally, n: number): Record<string, number> => Object.fromEntries([...t].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v / n]))
  const a = perMemory(small, 200)
  const b = perMemory(big, 2_000)
  // No kind of work more per memory in the bigger pool (fixed costs, a transaction or a look-up
  // per join, are spread thinner there); a kind only the bigger join does fails too.
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const big = b[k] ?? 0
    expect({ [k]: big }).toEqual({ [k]: Math.min(big, (a[k] ?? 0) + 1e-9) })
  }
  // What the view is made of, once a memory: a signed fact, sealed, applied, and written.
  for (const k of ['subtle.sign', 'seal', 'apply', 'writeMany']) expect({ [k]: b[k]! }).toEqual({ [k]: 1 })
  // It counted the join's work too: every record checked, and the facts stored.
  expect(b['subtle.verify']).toBeGreaterThan(0)
  expect(b['put records: rows']).toBeGreaterThanOrEqual(2)
}, 300_000)
