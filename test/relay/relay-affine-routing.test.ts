import { Redis } from 'ioredis'
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { poolKeys } from '../../src/relay/redis/keys.js'
import { websocketProvider } from '../../src/sync/websocket.js'
import type { LinkState, SyncLink } from '../../src/sync/types.js'
import type { PoolId } from '../../src/pools/types.js'
import { AffineProxy, rendezvousOrder, routeKey } from '../helpers/affine-proxy.js'
import { NodeProcess, killAllNodes, until } from '../helpers/cluster-helpers.js'
import { ensureBuilt } from '../helpers/processes.js'
import { RedisServer } from '../helpers/redis-server.js'
import { identity, poolOf, token } from './relay-helpers.js'

/**
 * Pool-affine routing (issue 33): three relay nodes (the built CLI, each a child process) on one
 * real redis-server, behind a consistent-hashing proxy that routes on the pool id in the path
 * (test/helpers/affine-proxy.ts, what `balance uri` + `hash-type consistent` does in HAProxy). The
 * clients are memweave's own websocket link (src/sync/websocket.ts), so the URL hashed is the one
 * the sync layer really sends. A pool's clients meet on one node; when it is SIGKILLed they move
 * together to one other node and keep syncing, with nothing Redis acknowledged lost; pools spread
 * over the nodes.
 */

let redis: RedisServer
let nodes: NodeProcess[] = []
let lb: AffineProxy
const links: SyncLink[] = []

interface TestClient {
  readonly doc: Y.Doc
  readonly link: SyncLink
  state: LinkState
}

/** memweave's websocket link to `url` for `pool`, on a bare document. */
function client(url: string, pool: string, tokenText: string): TestClient {
  const doc = new Y.Doc()
  const c = { doc, state: { connected: false, synced: false, error: null } as LinkState } as TestClient
  const link = websocketProvider({ url, token: tokenText, WebSocketPolyfill: WebSocket }).connect(pool as PoolId, doc, (s) => (c.state = s))
  links.push(link)
  return Object.assign(c, { link })
}

/** Each node's gauges from its /metrics: connections and pools loaded. */
async function gauges(): Promise<Record<string, { connections: number; pools: number }>> {
  const out: Record<string, { connections: number; pools: number }> = {}
  for (const n of nodes) {
    const text = await (await fetch(`${n.http}/metrics`).catch(() => null))?.text().catch(() => null)
    if (!text) continue
    const read = (name: string): number => Number(new RegExp(`^memweave_relay_${name}\\{node="${n.id}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN)
    out[n.id] = { connections: read('connections'), pools: read('pools_loaded') }
  }
  return out
}

/** The keys of map `m` in the pool's document as Redis holds it: every `u` entry of its stream applied. */
async function keysInRedis(pool: string): Promise<string[]> {
  const r = new Redis(redis.url, { lazyConnect: true })
  await r.connect()
  try {
    const doc = new Y.Doc()
    const snap = await r.hgetBuffer(poolKeys('memweave:', pool).snap, 's')
    if (snap) Y.applyUpdate(doc, snap)
    for (const [, fields] of await r.xrangeBuffer(poolKeys('memweave:', pool).log, '-', '+')) {
      for (let i = 0; i < fields.length; i += 2) if (fields[i]!.toString() === 'u') Y.applyUpdate(doc, fields[i + 1]!)
    }
    return [...doc.getMap('m').keys()].sort()
  } finally {
    r.disconnect()
  }
}

const keysOf = (c: TestClient): string[] => [...c.doc.getMap('m').keys()].sort()

describe('the balancer\'s route', () => {
  test('the route key is the pool id, the last path segment; the token in the query is not hashed', () => {
    expect(routeKey('/0123abcd?token=xyz')).toBe('0123abcd')
    expect(routeKey('/relay/v1/0123abcd?token=other')).toBe('0123abcd')
    // Even: 3,000 keys over three names, each within 10% of a third.
    const count = new Map<string, number>()
    for (let i = 0; i < 3000; i++) {
      const first = rendezvousOrder(`${i.toString(16).padStart(32, '0')}`, ['n1', 'n2', 'n3'])[0]!
      count.set(first, (count.get(first) ?? 0) + 1)
    }
    for (const n of ['n1', 'n2', 'n3']) expect(Math.abs(count.get(n)! - 1000)).toBeLessThan(100)
    // Removing a backend moves only the keys it was first for, each to its own second choice.
    const names = ['n1', 'n2', 'n3', 'n4']
    for (let i = 0; i < 200; i++) {
      const key = i.toString(16).padStart(32, '0')
      const full = rendezvousOrder(key, names)
      const without = rendezvousOrder(key, names.filter((n) => n !== 'n2'))
      expect(without).toEqual(full.filter((n) => n !== 'n2'))
    }
  })
})

describe('pool-affine routing through a consistent-hashing balancer', () => {
  beforeAll(() => ensureBuilt(['dist/src/cli/main.js']), 120_000)

  beforeEach(async () => {
    redis = await RedisServer.start()
    nodes = await Promise.all(['n1', 'n2', 'n3'].map((id) => NodeProcess.start(redis.url, id)))
    lb = new AffineProxy(nodes.map((n) => ({ name: n.id, port: n.port })), { checkMs: 100 })
    await lb.listen()
  }, 30_000)

  afterEach(async () => {
    for (const l of links.splice(0)) l.close()
    await lb.close()
    await killAllNodes()
    await redis.stop()
  }, 30_000)

  test("a pool's clients meet on one node; SIGKILLed, they move together to one other node and keep syncing, nothing acknowledged lost", async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner, 33)
    const t = await token(owner, pool, owner, true)
    const clients = Array.from({ length: 4 }, () => client(lb.url, pool, t))
    await until('all synced', () => clients.map((c) => c.state.synced), (s) => s.every(Boolean))
    const [first, second] = rendezvousOrder(pool, nodes.map((n) => n.id))
    // Every client on the pool's first node, none elsewhere; the pool loaded there only.
    expect(await gauges()).toEqual(Object.fromEntries(nodes.map((n) => [n.id, n.id === first ? { connections: 4, pools: 1 } : { connections: 0, pools: 0 }])))
    for (const [i, c] of clients.entries()) for (let k = 0; k < 5; k++) c.doc.getMap('m').set(`before-${i}-${k}`, k)
    const before = clients.flatMap((_c, i) => Array.from({ length: 5 }, (_x, k) => `before-${i}-${k}`)).sort()
    for (const c of clients) await until('every write on every client', () => keysOf(c), (k) => k.length === before.length)
    // Acknowledged: every write is in the pool's Redis stream (the node's XADD answered).
    expect(await until('every write in Redis', () => keysInRedis(pool), (k) => k.length === before.length)).toEqual(before)

    await nodes.find((n) => n.id === first)!.kill()
    await until('all four back', () => clients.map((c) => c.state.synced), (s) => s.every(Boolean))
    await until('the balancer routed them all to one node', async () => Object.entries(await gauges()).filter(([, g]) => g.connections > 0), (on) => on.length === 1 && on[0]![1].connections === 4)
    const survivors = await gauges()
    expect(survivors).toEqual(Object.fromEntries(nodes.filter((n) => n.id !== first).map((n) => [n.id, n.id === second ? { connections: 4, pools: 1 } : { connections: 0, pools: 0 }])))

    for (const [i, c] of clients.entries()) c.doc.getMap('m').set(`after-${i}`, i)
    const all = [...before, ...clients.map((_c, i) => `after-${i}`)].sort()
    for (const c of clients) expect(await until('every write on every client', () => keysOf(c), (k) => k.length === all.length)).toEqual(all)
    // Everyone gone: a fresh client, through the balancer, gets it all from the cluster alone.
    for (const c of clients) c.link.close()
    expect(await until('every write in Redis', () => keysInRedis(pool), (k) => k.length === all.length)).toEqual(all)
    const late = client(lb.url, pool, t)
    expect(await until('the late client has everything', () => keysOf(late), (k) => k.length === all.length)).toEqual(all)
    expect(lb.routed.get(pool)).toBe(second)
  })

  test('pools spread over the nodes, each pool loaded on one node only', async () => {
    const owner = await identity('owner')
    const POOLS = 30
    const pools = Array.from({ length: POOLS }, (_x, i) => poolOf(owner, 100 + i).pool)
    const tokens = await Promise.all(pools.map((p) => token(owner, p, owner, true)))
    const clients = pools.flatMap((p, i) => [client(lb.url, p, tokens[i]!), client(lb.url, p, tokens[i]!)])
    await until('all synced', () => clients.map((c) => c.state.synced), (s) => s.every(Boolean))
    const g = await gauges()
    const expected = Object.fromEntries(nodes.map((n) => [n.id, pools.filter((p) => rendezvousOrder(p, nodes.map((x) => x.id))[0] === n.id).length]))
    for (const n of nodes) {
      // Two clients per pool and every pool loaded once: a split pool would show more pools than connections / 2.
      expect(g[n.id]).toEqual({ connections: 2 * expected[n.id]!, pools: expected[n.id] })
      expect(expected[n.id]).toBeGreaterThan(0)
    }
  })
})
