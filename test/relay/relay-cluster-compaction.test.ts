import { afterAll, beforeAll, expect, test } from 'vitest'
import { Redis } from 'ioredis'
import * as Y from 'yjs'
import { nextId, poolKeys } from '../../src/relay/redis/keys.js'
import { COMPACT } from '../../src/relay/redis/scripts.js'
import { redisBytes, until } from '../helpers/cluster-helpers.js'
import { RedisServer } from '../helpers/redis-server.js'
import { connect, identity, poolOf, startRelay, token } from './relay-helpers.js'

/**
 * Compaction while three nodes (in this process, so the threshold can be tiny) write to one pool at
 * once: each compaction trims entries that other nodes' readers may not have read yet, so this is
 * where the lease, the compare-and-set on the snapshot and the `c` marker must hold. Nothing may be
 * lost on any node, and a node that loads the pool afterwards (snapshot + tail) must have it all.
 */

let redis: RedisServer
beforeAll(async () => {
  redis = await RedisServer.start()
})
// After relay-helpers' afterEach has closed the relays (which compact into this Redis).
afterAll(async () => {
  await redis.stop()
})

test('many compactions during concurrent writes on three nodes lose nothing, on any node or in Redis', async () => {
  const nodes = await Promise.all(['a', 'b', 'c'].map((nodeId) => startRelay({ redis: redis.url, nodeId, compactAfterBytes: 2_000 })))
  const owner = await identity('owner')
  const { pool } = poolOf(owner)
  const t = await token(owner, pool, owner, true)
  const clients = nodes.map((n) => connect(n.url, pool, t))
  await Promise.all(clients.map((c) => c.synced()))
  const N = 150
  for (let i = 0; i < N; i++) {
    for (const [k, c] of clients.entries()) {
      // A unique key (must never be lost) and a hot key overwritten every round: the log grows much
      // faster than the document, so compaction runs again and again while the nodes write.
      c.doc.getMap('m').set(`n${k}-${i}`, `value ${k}/${i}`)
      c.doc.getMap('hot').set(`h${k}`, `${i} ${'x'.repeat(2000)}`)
    }
    if (i % 2 === 0) await new Promise((r) => setTimeout(r, 2))
  }
  for (const c of clients) await until('every client has every key', () => c.doc.getMap('m').size, (n) => n === 3 * N)
  // Compactions happened, several of them, and the snapshot exists.
  const compactions = await Promise.all(nodes.map(async (n) => Number(/memweave_relay_compactions_total\{node="\w"\} (\d+)/.exec(await (await fetch(`${n.url.replace('ws:', 'http:')}/metrics`)).text())![1])))
  expect(compactions.reduce((a, b) => a + b, 0)).toBeGreaterThan(5)
  const { keys } = await redisBytes(redis.url)
  expect(keys.some((k) => k.endsWith(':snap'))).toBe(true)
  // A fourth node loads the pool from Redis alone (the writers' clients disconnected first).
  for (const c of clients) c.provider.destroy()
  const late = await startRelay({ redis: redis.url, nodeId: 'd' })
  const reader = connect(late.url, pool, t)
  await reader.synced()
  const fromRedis = reader.doc.getMap('m')
  expect(fromRedis.size).toBe(3 * N)
  expect(fromRedis.get('n2-149')).toBe('value 2/149')
  expect(Object.values(reader.doc.getMap('hot').toJSON()).map((v) => String(v).split(' ')[0])).toEqual(['149', '149', '149'])
  const doc = new Y.Doc()
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(reader.doc))
  expect(doc.getMap('m').size).toBe(3 * N)
})

test('the compaction script refuses a node whose view is older than the snapshot in Redis, and one without the lease', async () => {
  const r = new Redis(redis.url)
  try {
    const k = poolKeys('memweave-test:', 'p1')
    const first = String(await r.call('XADD', k.log, '*', 'u', 'one'))
    const second = String(await r.call('XADD', k.log, '*', 'u', 'two'))
    // Node A folds up to `second` from an empty snapshot: accepted, the log emptied but for the
    // marker ('full': nothing of the old log is left, so the pool may leave the compact set).
    await r.set(k.lease, 'A', 'PX', 10_000)
    expect(await r.eval(COMPACT, 3, k.snap, k.log, k.lease, 'A', 'state-A', second, '0-0', nextId(second))).toBe('full')
    expect((await r.xrange(k.log, '-', '+')).map(([, f]) => f[0])).toEqual(['c'])
    // Node B built its state on the empty snapshot too, having read only `first` (the trim took
    // `second` before its reader got there): its snapshot would lose `second`, so it is refused.
    await r.set(k.lease, 'B', 'PX', 10_000)
    expect(await r.eval(COMPACT, 3, k.snap, k.log, k.lease, 'B', 'state-B', first, '0-0', nextId(first))).toBe('stale')
    expect(await r.hget(k.snap, 's')).toBe('state-A')
    // Without the lease nothing is written either.
    expect(await r.eval(COMPACT, 3, k.snap, k.log, k.lease, 'C', 'state-C', second, second, nextId(second))).toBe('lease')
    expect(await r.hget(k.snap, 's')).toBe('state-A')
  } finally {
    r.disconnect()
  }
})
