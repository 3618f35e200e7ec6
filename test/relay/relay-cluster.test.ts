import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import type { Identity } from '../../src/core/identity.js'
import { READ_ONLY_REFUSAL } from '../../src/sync/relay-protocol.js'
import { createPoolToken } from '../../src/sync/pool-token.js'
import { asValue, rawClient, signedMemory, type RawClient } from '../../e2e/raw-client.js'
import { NodeProcess, RoundRobinProxy, killAllNodes, redisBytes, until } from '../helpers/cluster-helpers.js'
import { RedisServer } from '../helpers/redis-server.js'
import { fact } from '../helpers/pools-helpers.js'
import { connect, identity as roleIdentity, poolOf, token as rawToken } from './relay-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Three relay nodes (the built CLI, `npm run build` first, each a child process) sharing pools
 * through one real redis-server (started here on a free port, AOF on, in a temporary directory):
 * devices spread over the nodes converge; a node SIGKILLed mid-stream loses nothing; Redis killed
 * and restarted: nodes close their clients with 1013 and recover by themselves; a hard delete
 * leaves no byte in Redis after compaction; refusals are the same on every node.
 */

const HOUR = 3_600_000
let redis: RedisServer
let nodes: NodeProcess[] = []
const mems: Memory[] = []
const raws: Array<{ destroy(): void }> = []
const proxies: RoundRobinProxy[] = []

beforeEach(async () => {
  redis = await RedisServer.start()
  nodes = await Promise.all(['n1', 'n2', 'n3'].map((id) => NodeProcess.start(redis.url, id)))
}, 30_000)

afterEach(async () => {
  for (const r of raws.splice(0)) r.destroy()
  for (const m of mems.splice(0)) await m.close()
  await Promise.all(proxies.splice(0).map((p) => p.close()))
  await killAllNodes()
  await redis.stop()
}, 30_000)

async function device(name: string): Promise<{ id: Identity; mem: Memory }> {
  const id = await identityFor(name)
  const mem = await createMemory({ storage: 'memory', identity: id, sync: { WebSocketPolyfill: WebSocket } })
  mems.push(mem)
  return { id, mem }
}

const objects = async (mem: Memory, pool: PoolId): Promise<string[]> =>
  (await mem.pools.export(pool).catch(() => ({ memories: [] }))).memories.map((m) => String(m.content.object)).sort()

/** An owner, a pool shared with writers, and a token minter (with the ownership proof, as the sync layer mints them). */
async function setup(names: readonly string[]): Promise<{ owner: { id: Identity; mem: Memory }; others: Array<{ id: Identity; mem: Memory }>; pool: PoolId; tokenFor: (sub: Identity, write?: boolean) => Promise<string> }> {
  const owner = await device('owner')
  const others = await Promise.all(names.map((n) => device(n)))
  const pool = (await owner.mem.pools.create({ name: 'household' })).id
  for (const o of others) await owner.mem.pools.share(pool, o.id.did, { write: true })
  const info = await owner.mem.pools.info(pool)
  const tokenFor = (sub: Identity, write = true): Promise<string> =>
    createPoolToken(owner.id, { pool, sub: sub.did, write, expiresAt: Date.now() + HOUR, ownerProof: { nonce: info.nonce, tenant: info.tenantId } })
  return { owner, others, pool, tokenFor }
}

describe('three relay nodes on one Redis', () => {
  test('devices on different nodes converge on the same pool; /healthz and /metrics answer per node', async () => {
    const { owner, others, pool, tokenFor } = await setup(['bob', 'carol'])
    const all = [owner, ...others]
    for (const [i, d] of all.entries()) await d.mem.sync.connect(pool, { url: nodes[i]!.url, token: await tokenFor(d.id) })
    await owner.mem.pools.write(pool, fact('person0', 'lives_in', 'city0'))
    // bob (n2) and carol (n3) learn the pool (its ACL included) through the cluster before writing to it.
    for (const d of others) await until('the pool arrived', () => objects(d.mem, pool), (o) => o.length === 1)
    for (const [i, d] of others.entries()) await d.mem.pools.write(pool, fact(`person${i + 1}`, 'lives_in', `city${i + 1}`))
    for (const d of all) {
      expect(await until('three memories', () => objects(d.mem, pool), (o) => o.length === 3)).toEqual(['city0', 'city1', 'city2'])
    }
    for (const n of nodes) {
      const health = await fetch(`${n.http}/healthz`)
      expect([health.status, await health.text()]).toEqual([200, 'ok\n'])
      const metrics = await (await fetch(`${n.http}/metrics`)).text()
      expect(metrics).toContain(`memweave_relay_up{node="${n.id}"} 1`)
      expect(metrics).toMatch(new RegExp(`memweave_relay_connections\\{node="${n.id}"\\} 1\\n`))
      expect(metrics).toMatch(/memweave_relay_updates_in_total\{node="n\d"\} [1-9]/)
      expect(metrics).toMatch(/memweave_relay_updates_out_total\{node="n\d"\} [1-9]/)
    }
  })

  test('a node SIGKILLed mid-stream: its clients reconnect through the load balancer to another node, nothing is lost', async () => {
    const lb = new RoundRobinProxy(nodes.map((n) => n.port))
    proxies.push(lb)
    const url = await lb.listen()
    const { owner, others, pool, tokenFor } = await setup(['bob', 'carol', 'dave'])
    const dave = others.pop()!
    const all = [owner, ...others]
    // Round robin: owner to n1, bob to n2, carol to n3.
    for (const d of all) {
      await d.mem.sync.connect(pool, { url, token: await tokenFor(d.id) })
      await until('connected', () => d.mem.sync.status(), (s) => s.state === 'synced')
      if (d !== owner) await until('the pool arrived', () => d.mem.pools.info(pool).catch(() => null), (i) => i !== null)
    }
    expect([...lb.served.values()]).toEqual([1, 1, 1])
    const ROUNDS = 12
    for (let r = 0; r < ROUNDS; r++) {
      if (r === ROUNDS / 2) await nodes[0]!.kill()
      await Promise.all(all.map((d, i) => d.mem.pools.write(pool, fact(`p${i}`, `said${r}`, `d${i}r${r}`))))
    }
    const expected = all.flatMap((_d, i) => Array.from({ length: ROUNDS }, (_x, r) => `d${i}r${r}`)).sort()
    for (const d of all) expect(await until('every write on every device', () => objects(d.mem, pool), (o) => o.length === expected.length)).toEqual(expected)
    // The owner's client was on n1: it came back through the balancer on n2 or n3.
    expect((lb.served.get(nodes[1]!.port) ?? 0) + (lb.served.get(nodes[2]!.port) ?? 0)).toBeGreaterThan(2)
    // A device that joins afterwards on a surviving node gets it all from Redis alone.
    for (const d of all) await d.mem.close()
    await dave.mem.sync.connect(pool, { url: nodes[2]!.url, token: await tokenFor(dave.id) })
    expect(await until('dave has everything', () => objects(dave.mem, pool), (o) => o.length === expected.length)).toEqual(expected)
  })

  test('a node stopped gracefully (SIGTERM): its clients get 1001, reconnect through the balancer to the others, and keep syncing', async () => {
    const lb = new RoundRobinProxy(nodes.map((n) => n.port))
    proxies.push(lb)
    const url = await lb.listen()
    const owner = await roleIdentity('owner')
    const { pool } = poolOf(owner)
    const t = await rawToken(owner, pool, owner, true)
    const clients = [connect(url, pool, t), connect(url, pool, t), connect(url, pool, t)]
    await Promise.all(clients.map((c) => c.synced()))
    const codes: number[] = []
    clients[1]!.provider.on('connection-close', (e: CloseEvent | null) => e && codes.push(e.code))
    clients[0]!.doc.getMap('m').set('before', 1)
    await until('everyone has it', () => clients.map((c) => c.doc.getMap('m').get('before')), (v) => v.every((x) => x === 1))
    expect(await nodes[1]!.stop()).toBe(0)
    expect(codes).toContain(1001)
    await until('client 2 back on another node', () => clients[1]!.provider.wsconnected, (c) => c)
    clients[1]!.doc.getMap('m').set('after', 2)
    clients[2]!.doc.getMap('m').set('after3', 3)
    for (const c of clients) await until('every write everywhere', () => c.doc.getMap('m').toJSON(), (m) => m['after'] === 2 && m['after3'] === 3)
  })

  test('Redis killed and restarted: nodes close their clients with 1013, answer 503, then recover by themselves', async () => {
    const owner = await roleIdentity('owner')
    const { pool } = poolOf(owner)
    const t = await rawToken(owner, pool, owner, true)
    const c1 = connect(nodes[0]!.url, pool, t)
    const c3 = connect(nodes[2]!.url, pool, t)
    await Promise.all([c1.synced(), c3.synced()])
    c1.doc.getMap('m').set('before', 'outage')
    await until('c3 sees the first write', () => c3.doc.getMap('m').get('before'), (v) => v === 'outage')
    const codes: number[] = []
    c1.provider.on('connection-close', (e: CloseEvent | null) => e && codes.push(e.code))

    await redis.kill()
    await until('n1 reports the outage', async () => (await fetch(`${nodes[0]!.http}/healthz`)).status, (s) => s === 503)
    await until('c1 closed with 1013', () => codes, (c) => c.includes(1013))
    // Written while the cluster has no storage: the client keeps it and re-sends it on reconnect.
    c1.doc.getMap('m').set('during', 'outage')

    await redis.restart()
    for (const n of nodes) await until(`${n.id} healthy again`, async () => (await fetch(`${n.http}/healthz`)).status, (s) => s === 200)
    await until('c3 sees the write made during the outage', () => c3.doc.getMap('m').get('during'), (v) => v === 'outage', 30_000)
    // Redis kept the first write through its AOF: a new client on n2 gets both from Redis and the nodes.
    const c2 = connect(nodes[1]!.url, pool, t)
    await c2.synced()
    await until('c2 has both', () => c2.doc.getMap('m').toJSON(), (m) => m['before'] === 'outage' && m['during'] === 'outage')
    expect(nodes[0]!.stderr).toMatch(/lost Redis/)
  })

  test('a hard delete leaves no byte of the deleted content in any Redis key after compaction', async () => {
    const { owner, others, pool, tokenFor } = await setup(['bob'])
    const bob = others[0]!
    await owner.mem.sync.connect(pool, { url: nodes[0]!.url, token: await tokenFor(owner.id) })
    await bob.mem.sync.connect(pool, { url: nodes[2]!.url, token: await tokenFor(bob.id) })
    const secret = await owner.mem.pools.write(pool, fact('spare key', 'is_under', 'the blue flowerpot', { source: 'user' }))
    await owner.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
    await until('bob has both', () => objects(bob.mem, pool), (o) => o.length === 2)
    // The positive control: the content is in Redis (the stream) before the delete.
    expect((await redisBytes(redis.url)).bytes.includes('the blue flowerpot')).toBe(true)

    // The author forgets it (only the author or the owner may: docs/pools.md); it crosses to bob's node.
    await owner.mem.pools.forget(secret.id)
    await until('bob forgot it too', () => bob.mem.pools.status(secret.id), (s) => s === 'forgotten')
    await until('both settled', async () => [await owner.mem.sync.status(), await bob.mem.sync.status()], (s) => s.every((x) => x.state === 'synced'))
    for (const m of mems.splice(0)) await m.close()
    // Graceful stops compact each pool under its lease (one node wins, the others find it done).
    for (const n of nodes) expect(await n.stop()).toBe(0)

    const { keys, bytes } = await redisBytes(redis.url)
    expect(keys.some((k) => k.endsWith(':snap'))).toBe(true)
    expect(bytes.includes('Rome')).toBe(true)
    expect(bytes.includes('blue flowerpot')).toBe(false)
    expect(bytes.includes('spare key')).toBe(false)
  })

  test('refusals are the same on every node: read-only writes, and tokens of anyone but the pinned owner', async () => {
    const [owner, reader, stranger] = [await roleIdentity('owner'), await roleIdentity('reader'), await roleIdentity('stranger')]
    const { pool } = poolOf(owner)
    const writer = connect(nodes[0]!.url, pool, await rawToken(owner, pool, owner, true))
    await writer.synced()
    writer.doc.getMap('m').set('by', 'owner')
    for (const [i, n] of nodes.entries()) {
      const ro = connect(n.url, pool, await rawToken(owner, pool, reader, false))
      await ro.synced()
      await until('the reader reads', () => ro.doc.getMap('m').get('by'), (v) => v === 'owner')
      ro.doc.getMap('m').set(`reader${i}`, 'tried')
      await until(`refused on ${n.id}`, () => ro.denied, (d) => d.length > 0)
      expect(ro.denied[0]).toContain(READ_ONLY_REFUSAL)
      // The pin taken on n1 holds on every node: a stranger's self-signed token is refused.
      const squatter = connect(n.url, pool, await rawToken(stranger, pool, stranger, true))
      expect(await squatter.closed).toMatchObject({ code: 4403, reason: expect.stringMatching(/^wrong-owner/) })
    }
    const late = connect(nodes[1]!.url, pool, await rawToken(owner, pool, owner, true))
    await late.synced()
    await until('a late writer sees the owner write', () => late.doc.getMap('m').get('by'), (v) => v === 'owner')
    expect(Object.keys(late.doc.getMap('m').toJSON())).toEqual(['by'])
  })

  test('an owner proof on one node re-pins the pool and closes the squatter on another', async () => {
    const [owner, stranger] = [await roleIdentity('owner'), await roleIdentity('stranger')]
    const { pool, nonce } = poolOf(owner)
    const squatter = connect(nodes[0]!.url, pool, await rawToken(stranger, pool, stranger, true))
    await squatter.synced()
    const proven = await createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt: Date.now() + HOUR, ownerProof: { nonce } })
    const real = connect(nodes[1]!.url, pool, proven)
    await real.synced()
    expect(await squatter.closed).toMatchObject({ code: 4403, reason: expect.stringMatching(/^owner-changed/) })
  })

  test('presence (awareness) crosses nodes, and leaves with its client', async () => {
    const owner = await roleIdentity('owner')
    const { pool } = poolOf(owner)
    const t = await rawToken(owner, pool, owner, true)
    const c1 = connect(nodes[0]!.url, pool, t)
    const c3 = connect(nodes[2]!.url, pool, t)
    await Promise.all([c1.synced(), c3.synced()])
    c1.provider.awareness.setLocalStateField('user', { name: 'alice on n1' })
    const id = c1.doc.clientID
    await until('n3 sees alice', () => (c3.provider.awareness.getStates().get(id) as { user?: { name: string } } | undefined)?.user?.name, (n) => n === 'alice on n1')
    c1.provider.destroy()
    await until('alice left on n3', () => c3.provider.awareness.getStates().has(id), (has) => !has)
  })

  test('a hostile raw y-websocket client on node 2 is healed on the devices of nodes 1 and 3', async () => {
    const { owner, others, pool, tokenFor } = await setup(['bob'])
    const bob = others[0]!
    await owner.mem.sync.connect(pool, { url: nodes[0]!.url, token: await tokenFor(owner.id) })
    await bob.mem.sync.connect(pool, { url: nodes[2]!.url, token: await tokenFor(bob.id) })
    const rome = (await owner.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))).id
    await until('bob has it', () => objects(bob.mem, pool), (o) => o.length === 1)
    const mallory = await identityFor('mallory')
    const evil: RawClient = rawClient(nodes[1]!.url, pool, await tokenFor(mallory))
    raws.push(evil)
    await evil.synced()
    await until('evil sees the record', () => evil.records.has(rome), (v) => v)
    const unsigned = { ...asValue(await signedMemory(bob.id, pool, 'Aria', 'Kyiv')), sig: undefined }
    const intruder = asValue(await signedMemory(mallory, pool, 'Aria', 'Lima'))
    evil.doc.transact(() => {
      evil.records.set(unsigned.id, unsigned)
      evil.records.set(intruder.id, intruder)
      evil.records.delete(rome) // a deletion without a tombstone
    })
    const expected = [[unsigned.id, 'missing-signature'], [intruder.id, 'not-member']].sort()
    for (const d of [owner, bob]) {
      const q = await until('two quarantined', async () => (await d.mem.sync.quarantine(pool)).map((e) => [e.key, e.reason]).sort(), (q) => q.length >= 2)
      expect(q).toEqual(expected)
      expect(await objects(d.mem, pool)).toEqual(['Rome'])
    }
    // Healed in the document itself, through the cluster: the hostile client on n2 gets the record back.
    await until('evil gets Rome back', () => evil.records.has(rome), (v) => v)
  })
})
