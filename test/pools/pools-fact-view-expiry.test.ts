import { afterEach, describe, expect, test } from 'vitest'
import type { Memory, PoolId } from '../../src/index.js'
import { DAY, agents, fact } from '../helpers/pools-helpers.js'
import { clock, devices, network, seedCrypto, settle } from '../helpers/sync-helpers.js'

/**
 * A pool memory past its TTL leaves `mem.facts` before a read of it answers, whatever ran since
 * (i-resolve's repro, seeds 13, 23, 35, 39: a write answered with an existing memory, or a merge of
 * nothing, commits nothing, so no maintenance processed the expiry, and `mem.facts.audit()` still
 * held the fact of a memory `mem.pools` no longer listed). The expiry is processed as a commit's
 * maintenance does it: an `expired` tombstone, committed, so a handle opened afterwards agrees.
 */

/** Memory ids behind the pool's current facts in `mem.facts`. */
async function factMemories(mem: Memory, pool: PoolId): Promise<string[]> {
  const facts = await mem.facts.audit()
  return facts.filter((f) => f.metadata['pool'] === pool && f.supersededBy === null).map((f) => String(f.metadata['memoryId'])).sort()
}

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

describe('fact view: a memory that expired', () => {
  test('leaves mem.facts after a write answered with an existing memory (nothing committed)', async () => {
    const { mem, clock, reopen, close } = await agents(['a'])
    const pool = (await mem.a.pools.create({ name: 'expiry' })).id
    const brief = await mem.a.pools.write(pool, fact('Bruno', 'works_at', 'Oslo', { ttl: 3600 }))
    const keep = await mem.a.pools.write(pool, fact('Aria', 'likes', 'tea'))
    expect(await factMemories(mem.a, pool)).toEqual([brief.id, keep.id].sort())
    clock.advance(DAY)
    // An exact duplicate: the existing memory comes back, and nothing is written.
    expect((await mem.a.pools.write(pool, fact('Aria', 'likes', 'tea'))).id).toBe(keep.id)
    await mem.a.pools.flush()
    expect(await factMemories(mem.a, pool)).toEqual([keep.id])
    // (A query after it: a query records a read, a commit, whose maintenance would have hidden the lag.)
    expect((await mem.a.pools.query(pool, {})).map((m) => m.id)).toEqual([keep.id])
    // Committed as maintenance commits an expiry: a tombstone, seen by a handle opened now.
    expect((await mem.a.pools.forgotten(pool)).map((f) => [f.memory, f.reason])).toEqual([[brief.id, 'expired']])
    const later = await reopen('a')
    expect(await factMemories(later, pool)).toEqual([keep.id])
    await close()
  })

  test('leaves mem.facts when no operation ran since it expired', async () => {
    const { mem, clock, close } = await agents(['a'])
    const pool = (await mem.a.pools.create({ name: 'expiry' })).id
    const brief = await mem.a.pools.write(pool, fact('Cy', 'visits', 'Lima', { ttl: 60 }))
    const keep = await mem.a.pools.write(pool, fact('Bo', 'lives_in', 'Rome'))
    clock.advance(59_000)
    expect(await factMemories(mem.a, pool)).toEqual([brief.id, keep.id].sort())
    clock.advance(1_000)
    expect(await factMemories(mem.a, pool)).toEqual([keep.id])
    expect((await mem.a.pools.forgotten(pool)).map((f) => f.memory)).toEqual([brief.id])
    await close()
  })

  test("leaves a reader's mem.facts too, before the writer's tombstone arrives", async () => {
    restore = seedCrypto(31)
    const c = clock()
    const { alice, bob } = await devices(['alice', 'bob'] as const, { clock: c })
    open.push(alice.mem, bob.mem)
    const net = network()
    const pool = (await alice.mem.pools.create({ name: 'expiry' })).id
    await alice.mem.pools.share(pool, bob.id.did)
    const brief = await alice.mem.pools.write(pool, fact('Cy', 'visits', 'Lima', { ttl: 60 }))
    const keep = await alice.mem.pools.write(pool, fact('Bo', 'lives_in', 'Rome'))
    await alice.mem.sync.attach(pool, net.provider('alice'))
    await bob.mem.sync.attach(pool, net.provider('bob'))
    await settle(net, [alice.mem, bob.mem])
    expect(await factMemories(bob.mem, pool)).toEqual([brief.id, keep.id].sort())
    c.advance(60_000)
    // Bob may not forget it (a reader): his view hides it, and his facts follow his view.
    expect(await factMemories(bob.mem, pool)).toEqual([keep.id])
    expect(await bob.mem.pools.forgotten(pool)).toEqual([])
    // Alice's read of her facts forgets it; the tombstone reaches Bob and changes nothing more there.
    expect(await factMemories(alice.mem, pool)).toEqual([keep.id])
    await settle(net, [alice.mem, bob.mem])
    expect((await bob.mem.pools.forgotten(pool)).map((f) => f.memory)).toEqual([brief.id])
    expect(await factMemories(bob.mem, pool)).toEqual([keep.id])
  })
})
