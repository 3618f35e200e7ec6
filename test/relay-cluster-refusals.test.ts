import { afterEach, beforeEach, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { createMemory, type Memory } from '../src/index.js'
import { PoolKind } from '../src/pools/records.js'
import { createPoolToken } from '../src/sync/pool-token.js'
import { rawClient, type RawClient } from '../e2e/raw-client.js'
import { NodeProcess, killAllNodes } from './cluster-helpers.js'
import { RedisServer } from './redis-server.js'
import { fact } from './pools-helpers.js'
import { deepUpdate, eventually, pushUpdate } from './hostile-helpers.js'
import { identityFor } from './sync-helpers.js'

/**
 * The relay's update checks on the Redis cluster path (issue 26, cases 8 and 11): a node refuses
 * a too-deep value and a tombstone's deletion exactly as the single-process relay does, before
 * anything reaches the pool's Redis stream, so the other nodes never serve them.
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
