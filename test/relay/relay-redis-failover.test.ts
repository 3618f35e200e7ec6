import { Cluster, Redis } from 'ioredis'
import { afterEach, describe, expect, test } from 'vitest'
import * as Y from 'yjs'
import { until } from '../helpers/cluster-helpers.js'
import { RedisClusterGroup, RedisSentinelGroup, RedisServer } from '../helpers/redis-server.js'
import { connect, identity, poolOf, startRelay, token, type Client } from './relay-helpers.js'

/**
 * Issue 33: relay nodes on a Redis Cluster (three masters, three replicas) and on a Sentinel group
 * (one master, one replica, three sentinels), every server started here on 127.0.0.1. Writers on two
 * nodes write a burst; the master of a pool's data is SIGKILLed in the middle of it, a replica takes
 * over, and the killed server comes back as a replica. Then every update every writer made must be
 * on every client, in Redis itself (read straight from the new master: the snapshot and the log,
 * no node's memory), and on a fresh client of each node.
 *
 * The nodes run with `redisWaitReplicas: 1`: an append counts as stored once WAIT says the replica
 * holds it; one the replica does not confirm drops the pool on that node, and its clients reconnect
 * and re-send. That is the relay's "acknowledged" (docs/relay.md, "What an acknowledged update
 * survives"): what the master acknowledged only is what a failover may lose.
 */

const WRITES = 60
const KILL_AT = 20
const POOLS = 3

let stopGroup: (() => Promise<void>) | null = null
afterEach(async () => {
  await stopGroup?.()
  stopGroup = null
}, 30_000)

interface Scenario {
  readonly url: string
  /** The server that holds `pool`'s data now (its master). */
  readonly masterOf: (pool: string) => Promise<RedisServer>
  /** Until a replica took over from `victim` (which is dead) and serves. */
  readonly failedOver: (victim: RedisServer, pool: string) => Promise<void>
  /** A client to the data as it is now, for reading a pool's keys straight from Redis. */
  readonly open: () => Redis | Cluster
}

async function writeThroughFailover(s: Scenario): Promise<void> {
  const errors: unknown[] = []
  const nodes = await Promise.all(['n1', 'n2'].map((nodeId) => startRelay({
    host: '127.0.0.1', redis: s.url, nodeId, redisWaitReplicas: 1, onError: (err) => errors.push(err),
  })))
  const owner = await identity('owner')
  const pools = await Promise.all(Array.from({ length: POOLS }, async (_, n) => {
    const { pool } = poolOf(owner, n)
    const t = await token(owner, pool, owner, true)
    // One writer through each node.
    const writers = nodes.map(({ url }) => connect(url, pool, t))
    await Promise.all(writers.map((w) => within(w.synced(), 20_000, `pool ${n}: the writers synced`)))
    return { pool, t, writers }
  }))
  const victim = await s.masterOf(pools[0]!.pool)
  const expected = new Set<string>()

  let killed: Promise<void> = Promise.resolve()
  for (let i = 0; i < WRITES; i++) {
    if (i === KILL_AT) killed = victim.kill()
    for (const [p, { writers }] of pools.entries()) {
      for (const [w, writer] of writers.entries()) {
        const key = `p${p}-w${w}-${i}`
        writer.doc.getMap('m').set(key, i)
        expected.add(key)
      }
    }
    await new Promise((ok) => setTimeout(ok, 20))
  }
  await killed
  await s.failedOver(victim, pools[0]!.pool)
  // Back as a replica of the server that took over: WAIT can be answered again.
  await victim.restart()

  const missing = (doc: Y.Doc, p: number): string[] => [...expected].filter((k) => k.startsWith(`p${p}-`) && !doc.getMap('m').has(k))
  for (const [p, { writers }] of pools.entries()) {
    for (const writer of writers) await until(`pool ${p}: every update on every client`, () => missing(writer.doc, p).length, (n) => n === 0, 40_000)
  }
  // Redis itself holds each of them (what a node loads; no node's memory involved).
  const redis = s.open()
  try {
    for (const [p, { pool }] of pools.entries()) {
      await until(`pool ${p}: every update in Redis`, async () => missing(await within(readPool(redis, pool), 5000, `pool ${p} read from Redis`), p), (m) => m.length === 0, 20_000)
    }
  } finally {
    redis.disconnect()
  }
  // And a client that connects now, to either node, gets all of them.
  for (const { url } of nodes) {
    for (const [p, { pool, t }] of pools.entries()) {
      const fresh: Client = connect(url, pool, t)
      await within(fresh.synced(), 20_000, `pool ${p}: a fresh client synced`)
      await until(`pool ${p}: a fresh client has every update`, () => missing(fresh.doc, p).length, (n) => n === 0, 10_000)
      fresh.provider.destroy()
    }
  }
  expect(expected.size).toBe(WRITES * POOLS * 2)
  // The kill reached the nodes mid-burst (appends refused or unconfirmed, or the connection lost), not only the test.
  expect(errors.length).toBeGreaterThan(0)
}

/** `promise`, or an error naming `what` after `ms` (a step that never settles fails the test, not its timeout). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_ok, fail) => (timer = setTimeout(() => fail(new Error(`timed out waiting for ${what}`)), ms)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** A pool's document as Redis holds it: the snapshot and the log entries after it. */
async function readPool(redis: Redis | Cluster, pool: string): Promise<Y.Doc> {
  const doc = new Y.Doc()
  const snap = await redis.hgetallBuffer(`memweave:{${pool}}:snap`)
  if (snap['s']) Y.applyUpdate(doc, snap['s'])
  for (const [, fields] of await redis.xrangeBuffer(`memweave:{${pool}}:log`, '-', '+')) {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i]!.toString() === 'u') Y.applyUpdate(doc, fields[i + 1]!)
  }
  return doc
}

describe('a Redis Cluster: a master killed mid-burst', () => {
  test('a replica takes over; nothing acknowledged is lost: every update on every client, in Redis and on a fresh client of each node', async () => {
    const group = await RedisClusterGroup.start(3)
    stopGroup = () => group.stop()
    await writeThroughFailover({
      url: group.url,
      masterOf: (pool) => group.masterOf(`memweave:{${pool}}:log`),
      failedOver: async (victim, pool) => {
        await until('a replica took over', async () => (await group.masterOf(`memweave:{${pool}}:log`)).port, (port) => port !== victim.port, 20_000)
        await group.settled()
      },
      open: () => new Cluster(group.servers.filter((s) => s.running).map((s) => ({ host: '127.0.0.1', port: s.port }))),
    })
  }, 90_000)
})

describe('a Sentinel group: the master killed mid-burst', () => {
  test('the sentinels promote the replica; nothing acknowledged is lost: every update on every client, in Redis and on a fresh client of each node', async () => {
    const group = await RedisSentinelGroup.start()
    stopGroup = () => group.stop()
    await writeThroughFailover({
      url: group.url,
      masterOf: () => group.master(),
      failedOver: async (victim) => {
        await until('the sentinels promoted the replica', async () => (await group.master()).port, (port) => port !== victim.port, 20_000)
      },
      open: () => new Redis({ sentinels: group.sentinels.map((s) => ({ host: '127.0.0.1', port: s.port })), name: RedisSentinelGroup.MASTER }),
    })
  }, 90_000)
})

describe('redisWaitReplicas: an append the replica does not confirm', () => {
  test('drops the pool on the node, so the writer reconnects and re-sends; once the replica is back the update is on it, and without the option the writer is left alone', async () => {
    const master = await RedisServer.start()
    const replica = await RedisServer.start({ args: async () => ['--replicaof', '127.0.0.1', String(master.port)] })
    stopGroup = () => Promise.all([replica, master].map((s) => (s.resume(), s.stop()))).then(() => undefined)
    const onMaster = new Redis(master.port, '127.0.0.1')
    const onReplica = new Redis(replica.port, '127.0.0.1')
    try {
      await until('the replica is online', async () => String(await onMaster.info('replication')), (t) => t.includes('connected_slaves:1') && t.includes('state=online'))
      const owner = await identity('owner')
      for (const wait of [1, 0]) {
        const errors: unknown[] = []
        const { url } = await startRelay({ host: '127.0.0.1', redis: master.url, nodeId: `w${wait}`, redisWaitReplicas: wait, onError: (err) => errors.push(err) })
        const { pool } = poolOf(owner, 10 + wait)
        const writer = connect(url, pool, await token(owner, pool, owner, true))
        await writer.synced()
        writer.doc.getMap('m').set('before', 1)
        await until('the replica holds the first update', async () => (await readPool(onReplica, pool)).getMap('m').has('before'), (v) => v)
        let drops = 0
        writer.provider.on('status', ({ status }: { status: string }) => void (status === 'disconnected' && drops++))
        replica.pause()
        writer.doc.getMap('m').set('during', 1)
        if (wait === 1) {
          await until('the node gave the pool up', () => drops, (n) => n >= 1, 10_000)
          expect(errors.map(String).join('\n')).toMatch(/reached 0 of the 1 Redis replica\(s\) asked for within 1000 ms/)
        } else {
          // Without WAIT the master's answer is enough: nothing tells the writer (the WAIT case drops within 1 s).
          await new Promise((ok) => setTimeout(ok, 2500))
          expect(drops).toBe(0)
        }
        replica.resume()
        await until('the replica holds the update', async () => (await readPool(onReplica, pool)).getMap('m').has('during'), (v) => v, 15_000)
        writer.provider.destroy()
      }
    } finally {
      onMaster.disconnect()
      onReplica.disconnect()
    }
  }, 60_000)
})
