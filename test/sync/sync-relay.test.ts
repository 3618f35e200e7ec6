import { afterEach, expect, test } from 'vitest'
import { WebSocket } from 'ws'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { createRelay, type Relay } from '../../src/relay/relay.js'
import { createPoolToken } from '../../src/sync/pool-token.js'
import { fact } from '../helpers/pools-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * The y-websocket provider against the real relay (src/relay/, in this process on loopback): two
 * devices and a read-only member sync a pool with owner-signed pool tokens. (The Playwright e2e with
 * browsers and the relay as a child process is the next step of issue 8.)
 */

const HOUR = 3_600_000
const open: Memory[] = []
const relays: Relay[] = []
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  await Promise.all(relays.splice(0).map((r) => r.close()))
})

async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const v = await probe()
    if (ok(v) || Date.now() > until) return v
    await new Promise((r) => setTimeout(r, 10))
  }
}

const objects = async (mem: Memory, pool: PoolId): Promise<string[]> =>
  (await mem.pools.export(pool)).memories.map((m) => String(m.content.object)).sort()

test('devices sync a pool through the relay, each with an owner-signed token; a read-only member follows', async () => {
  const relay = createRelay({ port: 0, onError: (err) => console.error('relay error', err) })
  relays.push(relay)
  const { url } = await relay.listen()
  const [alice, bob, dave] = await Promise.all(['alice', 'bob', 'dave'].map((n) => identityFor(n)))
  const mem = async (id: typeof alice): Promise<Memory> => {
    const m = await createMemory({ storage: 'memory', identity: id, sync: { WebSocketPolyfill: WebSocket } })
    open.push(m)
    return m
  }
  const [a, b, d] = [await mem(alice!), await mem(bob!), await mem(dave!)]
  const pool = (await a.pools.create({ name: 'household' })).id
  await a.pools.share(pool, bob!.did, { write: true })
  await a.pools.share(pool, dave!.did, { write: false })
  const token = (sub: string, write: boolean): Promise<string> => createPoolToken(alice!, { pool, sub, write, expiresAt: Date.now() + HOUR })

  await a.sync.connect(pool, { url, token: await token(alice!.did, true) })
  await a.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  await b.sync.connect(pool, { url, token: await token(bob!.did, true) })
  await d.sync.connect(pool, { url, token: await token(dave!.did, false) })

  expect(await eventually(() => objects(b, pool).catch(() => []), (o) => o.length === 1)).toEqual(['Rome'])
  await b.pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
  expect(await eventually(() => objects(a, pool), (o) => o.length === 2)).toEqual(['Oslo', 'Rome'])
  expect(await eventually(() => objects(d, pool).catch(() => []), (o) => o.length === 2)).toEqual(['Oslo', 'Rome'])
  const status = await eventually(() => b.sync.status(), (s) => s.state === 'synced')
  expect(status).toMatchObject({ state: 'synced', pools: [{ pool, connected: true, error: null }] })
  expect(await a.sync.quarantine()).toEqual([])
})

test('a token the relay refuses is reported in the status, and the provider stops retrying', async () => {
  const relay = createRelay({ port: 0, onError: () => undefined })
  relays.push(relay)
  const { url } = await relay.listen()
  const alice = await identityFor('alice')
  const a = await createMemory({ storage: 'memory', identity: alice, sync: { WebSocketPolyfill: WebSocket } })
  open.push(a)
  const pool = (await a.pools.create({})).id
  await a.sync.connect(pool, { url, token: 'not-a-token' })
  const status = await eventually(() => a.sync.status(), (s) => s.pools[0]?.error !== null)
  expect(status.state).toBe('offline')
  expect(status.pools[0]!.error).toMatch(/relay closed the connection \(44\d\d/)
  // Issue 29 (the demo called a relay that was down a refusal): a refusal says so, with its close code.
  expect(status.pools[0]!.refusal).toEqual({ code: 4401, reason: expect.stringMatching(/^malformed:/) })
})

test('a relay that is down is an error without a refusal: the link keeps retrying and syncs once the relay is back (issue 29)', async () => {
  const first = createRelay({ port: 0, onError: () => undefined })
  const { url } = await first.listen()
  const port = Number(new URL(url).port)
  const alice = await identityFor('alice')
  const a = await createMemory({ storage: 'memory', identity: alice, sync: { WebSocketPolyfill: WebSocket } })
  open.push(a)
  const pool = (await a.pools.create({})).id
  const token = await createPoolToken(alice, { pool, sub: alice.did, write: true, expiresAt: Date.now() + HOUR })
  await a.sync.connect(pool, { url, token })
  await eventually(() => a.sync.status(), (s) => s.state === 'synced')
  await first.close()
  const down = await eventually(() => a.sync.status(), (s) => s.pools[0]?.error !== null)
  expect(down.state).toBe('offline')
  expect(down.pools[0]).toMatchObject({ error: 'connection error', refusal: null, links: 1 })
  // The same port again: the provider's own retries reach it, with no new connect().
  const second = createRelay({ port, onError: () => undefined })
  relays.push(second)
  await second.listen()
  const back = await eventually(() => a.sync.status(), (s) => s.state === 'synced', 20_000)
  expect(back.pools[0]).toMatchObject({ state: 'synced', error: null, refusal: null })
}, 40_000)
