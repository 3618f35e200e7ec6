import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { WebSocket } from 'ws'
import { createIdentity } from '../src/core/identity.js'
import { createMemory, type Memory, type PoolId } from '../src/index.js'
import { createPoolToken } from '../src/sync/pool-token.js'
import { NodeProcess, RoundRobinProxy, killAllNodes } from '../test/helpers/cluster-helpers.js'
import { RedisServer } from '../test/helpers/redis-server.js'

/**
 * Browser devices on a relay cluster: three `memweave relay --redis` processes on one real
 * redis-server. Alice and Bob are browser contexts (their own IndexedDB and SharedWorker, memweave
 * through the worker, e2e/pages/devices-page.ts) on nodes 1 and 3; Carol is a Node replica
 * (createMemory) on node 2. They converge; then node 1 is SIGKILLed while Alice writes, and Alice,
 * who came in through a round-robin balancer, reconnects to a surviving node with nothing lost.
 */

const SEED = { alice: 51, bob: 52, carol: 53 } as const
const HOUR = 3_600_000
const identity = (who: keyof typeof SEED) => createIdentity({ seed: new Uint8Array(32).fill(SEED[who]) })

let redis: RedisServer | undefined
const contexts: BrowserContext[] = []
const mems: Memory[] = []
const proxies: RoundRobinProxy[] = []

test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()))
  for (const m of mems.splice(0)) await m.close()
  await Promise.all(proxies.splice(0).map((p) => p.close()))
  await killAllNodes()
  await redis?.stop()
})

async function openDevice(context: BrowserContext, who: 'alice' | 'bob'): Promise<{ page: Page; did: string }> {
  const page = await context.newPage()
  page.on('pageerror', (err) => console.error(`[cluster] ${who} page error:`, err))
  await page.goto('/e2e/pages/devices.html')
  await page.waitForFunction(() => window.device !== undefined)
  const did = await page.evaluate(([name, seed]) => window.device.open(name, seed), [`cluster-${who}-${Date.now()}`, SEED[who]] as const)
  return { page, did }
}

const objects = (p: Page, pool: string): Promise<string[]> => p.evaluate((pool) => window.device.objects(pool), pool)

test('browser contexts and a Node replica on three nodes converge; a node killed mid-stream loses nothing', async ({ browser, baseURL }) => {
  redis = await RedisServer.start()
  const nodes = await Promise.all(['n1', 'n2', 'n3'].map((id) => NodeProcess.start(redis!.url, id)))
  const lb = new RoundRobinProxy([nodes[0]!.port, nodes[1]!.port, nodes[2]!.port])
  proxies.push(lb)
  const lbUrl = await lb.listen()
  for (const _ of [0, 1]) contexts.push(await browser.newContext({ baseURL }))
  const alice = await openDevice(contexts[0]!, 'alice')
  const bob = await openDevice(contexts[1]!, 'bob')
  const carolId = await identity('carol')
  const carol = await createMemory({ storage: 'memory', identity: carolId, sync: { WebSocketPolyfill: WebSocket } })
  mems.push(carol)

  const pool = await alice.page.evaluate(async () => (await window.device.mem.pools.create({ name: 'household' })).id as string)
  for (const did of [bob.did, carolId.did]) await alice.page.evaluate(([pool, did]) => window.device.mem.pools.share(pool, did, { write: true }), [pool, did] as const)
  const nonce = await alice.page.evaluate((pool) => window.device.poolNonce(pool), pool)
  const aliceId = await identity('alice')
  const token = (sub: string) => createPoolToken(aliceId, { pool, sub, write: true, expiresAt: Date.now() + HOUR, ownerProof: { nonce } })

  // Alice comes in through the balancer (its first connection goes to n1); Bob straight to n3; Carol to n2.
  await alice.page.evaluate(([pool, url, t]) => window.device.connect(pool, url, t), [pool, lbUrl, await token(alice.did)] as const)
  await bob.page.evaluate(([pool, url, t]) => window.device.connect(pool, url, t), [pool, nodes[2]!.url, await token(bob.did)] as const)
  await carol.sync.connect(pool as PoolId, { url: nodes[1]!.url, token: await token(carolId.did) })
  await bob.page.evaluate((pool) => window.device.untilPoolKnown(pool), pool)
  await expect.poll(() => carol.pools.info(pool).then(() => true, () => false), { timeout: 20_000 }).toBe(true)
  expect(lb.served.get(nodes[0]!.port)).toBe(1)

  await alice.page.evaluate((pool) => window.device.mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } }), pool)
  await bob.page.evaluate((pool) => window.device.mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'Bruno', predicate: 'lives_in', object: 'Oslo' } }), pool)
  await carol.pools.write(pool as PoolId, { type: 'KNOWLEDGE', content: { subject: 'Carla', predicate: 'lives_in', object: 'Lima' } })
  const carolObjects = async (): Promise<string[]> => (await carol.pools.export(pool as PoolId)).memories.map((m) => String(m.content.object)).sort()
  for (const p of [alice.page, bob.page]) await expect.poll(() => objects(p, pool), { timeout: 20_000 }).toEqual(['Lima', 'Oslo', 'Rome'])
  await expect.poll(carolObjects, { timeout: 20_000 }).toEqual(['Lima', 'Oslo', 'Rome'])

  // n1 dies while Alice writes: her worker's provider reconnects through the balancer to n2 or n3.
  const writes = alice.page.evaluate(async (pool) => {
    for (let i = 0; i < 20; i++) {
      await window.device.mem.pools.write(pool, { type: 'CONTEXT', content: { subject: `note ${i}`, predicate: 'noted', object: `note object ${i}` } })
      await new Promise((r) => setTimeout(r, 20))
    }
  }, pool)
  await new Promise((r) => setTimeout(r, 150))
  await nodes[0]!.kill()
  await writes
  const expected = [...Array.from({ length: 20 }, (_, i) => `note object ${i}`), 'Lima', 'Oslo', 'Rome'].sort()
  for (const p of [alice.page, bob.page]) await expect.poll(() => objects(p, pool), { timeout: 30_000 }).toEqual(expected)
  await expect.poll(carolObjects, { timeout: 30_000 }).toEqual(expected)
  expect((lb.served.get(nodes[1]!.port) ?? 0) + (lb.served.get(nodes[2]!.port) ?? 0)).toBeGreaterThan(0)
})
