import { Redis } from 'ioredis'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { createMemory, type Memory } from '../../src/index.js'
import { PoolKind } from '../../src/pools/records.js'
import { createPoolToken } from '../../src/sync/pool-token.js'
import { rawClient, type RawClient } from '../../e2e/raw-client.js'
import { poolKeys, DEFAULT_PREFIX } from '../../src/relay/redis/keys.js'
import { NodeProcess, killAllNodes } from '../helpers/cluster-helpers.js'
import { RedisServer } from '../helpers/redis-server.js'
import { fact } from '../helpers/pools-helpers.js'
import { deepUpdate, eventually, pushUpdate } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * The relay's update checks on the Redis cluster path (issue 26, cases 8 and 11): a node refuses
 * a too-deep value and a tombstone's deletion exactly as the single-process relay does, before
 * anything reaches the pool's Redis stream, so the other nodes never serve them. A too-deep value
 * already in Redis (appended by an older node, or planted there) is garbage-collected when a node
 * loads the pool, as the file backend does with its log.
 */

const HOUR = 3_600_000
let redis: RedisServer
let nodes: NodeProcess[] = []
const mems: Memory[] = []
const raws: RawClient[] = []

beforeEach(async () => {
  redis = await RedisServer.start()
  nodes = await Promise.all(['n1', 'n2'].map((id) => NodeProcess.start(redis.url, id)))
}, 30_000)

afterEach(async () => {
  for (const r of raws.splice(0)) r.destroy()
  for (const m of mems.splice(0)) await m.close()
  await killAllNodes()
  await redis.stop()
}, 30_000)

test('node 2 refuses a value 5,000 levels deep and the deletion of a tombstone written through node 1; node 1 never serves either', async () => {
  const owner = await identityFor('alice')
  const mem = await createMemory({ storage: 'memory', identity: owner, sync: { WebSocketPolyfill: WebSocket } })
  mems.push(mem)
  const pool = (await mem.pools.create({ name: 'household' })).id
  const token = (did: string, write: boolean): Promise<string> => createPoolToken(owner, { pool, sub: did, write, expiresAt: Date.now() + HOUR })
  await mem.sync.connect(pool, { url: nodes[0]!.url, token: await token(owner.did, true) })
  const mallory = await identityFor('mallory')
  await mem.pools.share(pool, mallory.did, { write: true })
  const rome = await mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  await mem.pools.forget(rome.id)

  const watcher = rawClient(nodes[1]!.url, pool, await token((await identityFor('dave')).did, false))
  raws.push(watcher)
  const tombstoneKey = (): string | undefined =>
    [...watcher.records.entries()].find(([, v]) => (v as { kind?: string }).kind === PoolKind.TOMBSTONE)?.[0]
  await eventually(() => tombstoneKey() !== undefined && !watcher.records.has(rome.id), true)
  const tombstone = tombstoneKey()!
  await mem.sync.disconnect(pool)

  const url = `${nodes[1]!.url}/${pool}`
  const malloryToken = await token(mallory.did, true)
  expect(await pushUpdate(url, malloryToken, deepUpdate('deep', 5_000))).toMatch(/^1007 malformed: too-deep/)
  const doc = new Y.Doc()
  Y.applyUpdate(doc, Y.encodeStateAsUpdate(watcher.doc))
  const sv = Y.encodeStateVector(doc)
  doc.getMap('records').delete(tombstone)
  expect(await pushUpdate(url, malloryToken, Y.encodeStateAsUpdate(doc, sv))).toMatch(/^1008 tombstone/)
  // An honest change through the same node still goes everywhere, after the refused ones.
  const sv2 = Y.encodeStateVector(watcher.doc)
  const honest = new Y.Doc()
  Y.applyUpdate(honest, Y.encodeStateAsUpdate(watcher.doc))
  honest.getMap('records').set('marker', 'after the refusals')
  expect(await pushUpdate(url, malloryToken, Y.encodeStateAsUpdate(honest, sv2))).toBe('kept')

  const reader = rawClient(nodes[0]!.url, pool, await token((await identityFor('erin')).did, false))
  raws.push(reader)
  await eventually(() => reader.records.get('marker'), 'after the refusals')
  expect(reader.records.has(tombstone)).toBe(true)
  expect(reader.records.has('deep')).toBe(false)
}, 60_000)

test('a value 20,000 levels deep already in a pool\'s Redis stream or snapshot (an older node wrote it): a node loads the pool, a fresh client joins and gets every honest key', async () => {
  const owner = await identityFor('alice')
  const mem = await createMemory({ storage: 'memory', identity: owner })
  mems.push(mem)
  const honest = new Y.Doc()
  const records = honest.getMap('records')
  records.set('before', 'honest 1')
  const first = Y.encodeStateAsUpdate(honest)
  const sv = Y.encodeStateVector(honest)
  records.set('after', 'honest 2')
  const second = Y.encodeStateAsUpdate(honest, sv)
  const deep = deepUpdate('deep', 20_000)

  const r = new Redis(redis.url)
  const inStream = (await mem.pools.create({ name: 'stream' })).id
  const inSnapshot = (await mem.pools.create({ name: 'snapshot' })).id
  try {
    // Straight into Redis, as a node older than the relay's depth check appended them.
    const stream = poolKeys(DEFAULT_PREFIX, inStream)
    for (const u of [first, deep, second]) await r.xadd(stream.log, '*', 'n', 'old-node/1', 'u', Buffer.from(u))
    // The other pool: the deep value folded into its snapshot, honest updates in the stream after it.
    const snapped = poolKeys(DEFAULT_PREFIX, inSnapshot)
    await r.hset(snapped.snap, 's', Buffer.from(deep), 'upto', '1-0')
    for (const u of [first, second]) await r.xadd(snapped.log, '*', 'n', 'old-node/1', 'u', Buffer.from(u))
  } finally {
    r.disconnect()
  }

  for (const [pool, node] of [[inStream, nodes[0]!], [inSnapshot, nodes[1]!]] as const) {
    const token = await createPoolToken(owner, { pool, sub: (await identityFor('erin')).did, write: false, expiresAt: Date.now() + HOUR })
    const reader = rawClient(node.url, pool, token)
    raws.push(reader)
    await eventually(() => [reader.records.get('before'), reader.records.get('after')], ['honest 1', 'honest 2'], 20_000)
    expect(reader.records.has('deep')).toBe(false)
    expect(node.stderr).toMatch(/garbage-collected 1 value\(s\) in Redis nested more than the clients can decode/)
  }
}, 60_000)
