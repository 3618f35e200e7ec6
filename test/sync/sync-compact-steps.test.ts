import { afterEach, expect, test } from 'vitest'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { memoryStorage, type MemoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoragePort, WriteTx } from '../../src/storage/port.js'
import { COMPACT_STEP_CHUNKS } from '../../src/sync/loop.js'
import type { UpdateRow } from '../../src/sync/update-log.js'
import { fact } from '../helpers/pools-helpers.js'
import { clock, devices, identityFor, network, rawRows, seedCrypto, settle } from '../helpers/sync-helpers.js'

/**
 * A pass's compaction with more than COMPACT_STEP_CHUNKS chunks due (the first forgets after a
 * join, while its chunks are still written ahead) goes in steps, a macrotask before each: what the
 * pass told its subscribers is read before the log is rewritten, a change that arrives meanwhile is
 * judged first, and the compaction still finishes under a stream of changes (issue 31: the first
 * forgets after a 100k join were told after the whole compaction's encoding).
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

/** A storage port that counts the compacted parts (`syncUpdates` rows with a `part`) written through it. */
function countingParts(inner: StoragePort): { port: StoragePort; parts: () => number } {
  let parts = 0
  const port: StoragePort = {
    kind: inner.kind,
    durable: inner.durable,
    open: () => inner.open(),
    close: () => inner.close(),
    read: (tables, body) => inner.read(tables, body),
    write: (tables, body) =>
      inner.write(tables, (tx) =>
        body(new Proxy(tx, {
          get(target, prop, receiver) {
            const value = Reflect.get(target, prop, receiver) as unknown
            if (prop !== 'put') return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
            return (table: string, rows: readonly object[]) => {
              if (table === 'syncUpdates') parts += rows.filter((r) => typeof (r as UpdateRow).part === 'string').length
              return (target as WriteTx).put(table, rows)
            }
          },
        }))),
  }
  return { port, parts: () => parts }
}

/**
 * Alice holds a pool of `size` memories and Bob (storage counted) has joined it and written ahead
 * what his loop writes ahead when idle: the join's rows are still in his log, with up to
 * AHEAD_CHUNKS chunks due, for the first forget to compact.
 */
async function joined(size: number, seed: number): Promise<{
  alice: Memory; bob: Memory; bobStorage: MemoryStorage; pool: PoolId; ids: string[]; parts: () => number; net: ReturnType<typeof network>
}> {
  restore = seedCrypto(seed)
  const c = clock()
  const { alice } = await devices(['alice'] as const, { clock: c })
  const bobId = await identityFor('bob')
  const bobStorage = memoryStorage()
  const counted = countingParts(bobStorage)
  let next = 9_000_000
  const bob = await createMemory({ storage: counted.port, identity: bobId, now: c.now, sync: { clientId: () => next++ } })
  open.push(alice.mem, bob)
  const net = network()
  const pool = (await alice.mem.pools.create({ name: 'household' })).id
  await alice.mem.pools.share(pool, bobId.did, { write: true })
  const ids: string[] = []
  for (let i = 0; i < size; i += 100) {
    const batch = Array.from({ length: Math.min(100, size - i) }, (_, k) => alice.mem.pools.write(pool, fact(`guest ${i + k}`, 'drinks', `tea number <${i + k}>`)))
    for (const m of await Promise.all(batch)) ids.push(m.id)
  }
  await alice.mem.sync.attach(pool, net.provider('alice'))
  await bob.sync.attach(pool, net.provider('bob'))
  await settle(net, [alice.mem, bob])
  expect((await bob.pools.info(pool)).size).toBe(size)
  // Bob writes the join's chunks ahead while his loop has nothing else to do: until he stops.
  for (let still = 0, seen = counted.parts(); still < 5; ) {
    await new Promise((r) => setTimeout(r, 20))
    still = counted.parts() === seen ? still + 1 : 0
    seen = counted.parts()
  }
  return { alice: alice.mem, bob, bobStorage, pool, ids, parts: counted.parts, net }
}

/** `n` memories spread over the pool, and the texts they hold. */
const spreadOver = (ids: readonly string[], n: number): Array<{ id: string; text: string }> =>
  Array.from({ length: n }, (_, k) => {
    const i = Math.floor(((k + 0.5) * ids.length) / n)
    return { id: ids[i]!, text: `tea number <${i}>` }
  })

test("the first forget after a join is read from the receiving device's API before its compaction writes a part", async () => {
  const { alice, bob, pool, ids, parts, net } = await joined(2_000, 71)
  const [gone] = spreadOver(ids, 1)
  // Bob's subscriber, as an app's: on each notification it reads the pool, and notes how many
  // parts Bob had written when the read first showed the memory gone.
  let before = -1
  let atForget = 0
  const read = new Promise<void>((ok) => {
    void bob.sync.subscribe(() => {
      void bob.pools.info(pool).then((info) => {
        if (before < 0 && info.size === ids.length - 1) {
          before = parts() - atForget
          ok()
        }
      })
    })
  })
  atForget = parts()
  await alice.pools.forget(gone!.id)
  await settle(net, [alice, bob])
  await read
  const written = parts() - atForget
  // The forget's compaction had more than a step to write (else this test shows nothing)...
  expect(written).toBeGreaterThan(COMPACT_STEP_CHUNKS)
  // ...and the read came before any of it (before: after all of it; the pass compacted, then the event loop turned).
  expect(before).toBe(0)
}, 120_000)

test('a compaction in steps finishes under a stream of writes, and synced still means the forgotten texts are off disk', async () => {
  const { alice, bob, bobStorage, pool, ids, net } = await joined(2_000, 72)
  const gone = spreadOver(ids, 8)
  await Promise.all(gone.map((g) => alice.pools.forget(g.id)))
  await alice.sync.flush()
  await net.flush()
  const onDisk = (): boolean => gone.some((g) => rawRows(bobStorage).includes(g.text))
  expect(onDisk()).toBe(true)
  // Alice keeps writing, each write delivered to Bob as soon as it leaves her, without waiting
  // for Bob: his loop always has a change waiting while it compacts.
  const WRITES = 40
  let offAt = -1
  for (let i = 0; i < WRITES && offAt < 0; i++) {
    await alice.pools.write(pool, fact(`visitor ${i}`, 'drinks', `water ${i}`))
    await alice.sync.flush()
    await net.flush()
    await new Promise((r) => setTimeout(r, 0))
    if (!onDisk()) offAt = i
  }
  // Off Bob's disk while the writes still came: a loop that let every waiting change go before any
  // step never got there in the 40 writes (each pass writes one step at least).
  expect(offAt).toBeGreaterThanOrEqual(0)
  expect(offAt).toBeLessThan(WRITES - 1)
  await settle(net, [alice, bob])
  expect((await bob.sync.status()).state).toBe('synced')
  expect(onDisk()).toBe(false)
  expect((await bob.pools.info(pool)).size).toBe(ids.length - gone.length + offAt + 1)
}, 120_000)
