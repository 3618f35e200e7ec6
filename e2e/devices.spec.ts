import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { createIdentity, type Identity } from '../src/core/identity.js'
import { READ_ONLY_REFUSAL } from '../src/sync/relay-protocol.js'
import { createPoolToken } from '../src/sync/pool-token.js'
import type { PoolSnapshot } from './pages/devices-page.js'
import { asValue, rawClient, signedMemory, type RawClient } from './raw-client.js'
import { RelayProcess, allBytes, killAllRelays, removeDir, tempDir } from './relay-process.js'

/**
 * Two devices, one relay, all of it real: each device is a browser context of its own (its own
 * IndexedDB and SharedWorker) running memweave through the worker as an application would
 * (`openMemory`, e2e/pages/devices-page.ts), and the relay is `node bin/memweave.js relay` in a
 * child process with its pools on disk (e2e/relay-process.ts). Pool tokens are minted here in Node
 * by the owner, with the ownership proof from the pool-create record, as docs/relay.md asks.
 *
 * The identities are fixed (a seed byte repeated), so Node and the pages derive the same DIDs.
 */

const SEED = { alice: 41, bob: 42, mallory: 43 } as const
const HOUR = 3_600_000

const identity = (who: keyof typeof SEED): Promise<Identity> => createIdentity({ seed: new Uint8Array(32).fill(SEED[who]) })

/** One device: a browser context with the devices page open and its memory opened in the worker. */
interface Device {
  readonly page: Page
  readonly did: string
  readonly name: string
}

const contexts: BrowserContext[] = []
const dirs: string[] = []
const clients: RawClient[] = []

test.afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy()
  await Promise.all(contexts.splice(0).map((c) => c.close()))
  await killAllRelays()
  await Promise.all(dirs.splice(0).map(removeDir))
})

async function openDevice(browser: Browser, baseURL: string | undefined, who: 'alice' | 'bob'): Promise<Device> {
  const context = await browser.newContext({ baseURL })
  contexts.push(context)
  const page = await context.newPage()
  page.on('pageerror', (err) => console.error(`[devices] ${who} page error:`, err))
  await page.goto('/e2e/pages/devices.html')
  await page.waitForFunction(() => window.device !== undefined)
  const name = `devices-${who}-${Date.now()}`
  const did = await page.evaluate(([name, seed]) => window.device.open(name, seed), [name, SEED[who]] as const)
  return { page, did, name }
}

async function startRelay(): Promise<RelayProcess> {
  const dir = await tempDir()
  dirs.push(dir)
  return RelayProcess.start(dir)
}

interface Pool {
  readonly id: string
  /** The pool-create record's nonce: the ownership proof tokens carry. */
  readonly nonce: string
}

/** Alice creates a pool and shares it with Bob (writer or reader). */
async function createSharedPool(a: Device, b: Device, write: boolean): Promise<Pool> {
  const id = await a.page.evaluate(async () => (await window.device.mem.pools.create({ name: 'household' })).id as string)
  await a.page.evaluate(([pool, did, write]) => window.device.mem.pools.share(pool, did, { write }), [id, b.did, write] as const)
  const nonce = await a.page.evaluate((pool) => window.device.poolNonce(pool), id)
  return { id, nonce }
}

/** A pool token signed by the owner (Alice) for `sub`, with the ownership proof. */
async function token(pool: Pool, sub: string, write: boolean): Promise<string> {
  return createPoolToken(await identity('alice'), { pool: pool.id, sub, write, expiresAt: Date.now() + HOUR, ownerProof: { nonce: pool.nonce } })
}

async function connect(d: Device, relay: RelayProcess, pool: Pool, write: boolean): Promise<void> {
  const t = await token(pool, d.did, write)
  await d.page.evaluate(([pool, url, t]) => window.device.connect(pool, url, t), [pool.id, relay.url, t] as const)
}

/** Two devices on one relay sharing one pool, both connected and in step. */
async function twoDevices(browser: Browser, baseURL: string | undefined, relay: RelayProcess, bobWrites = true) {
  const a = await openDevice(browser, baseURL, 'alice')
  const b = await openDevice(browser, baseURL, 'bob')
  const pool = await createSharedPool(a, b, bobWrites)
  await connect(a, relay, pool, true)
  await connect(b, relay, pool, bobWrites)
  await b.page.evaluate((pool) => window.device.untilPoolKnown(pool), pool.id)
  await untilSynced([a, b], pool)
  return { a, b, pool }
}

const size = (d: Device, pool: Pool): Promise<number> => d.page.evaluate((pool) => window.device.size(pool), pool.id)
const objects = (d: Device, pool: Pool): Promise<string[]> => d.page.evaluate((pool) => window.device.objects(pool), pool.id)
const snapshot = (d: Device, pool: Pool): Promise<PoolSnapshot> => d.page.evaluate((pool) => window.device.snapshot(pool), pool.id)

async function untilSize(devices: readonly Device[], pool: Pool, n: number): Promise<void> {
  await Promise.all(devices.map((d) => d.page.evaluate(([pool, n]) => window.device.untilSize(pool, n), [pool.id, n] as const)))
}

async function untilSynced(devices: readonly Device[], pool: Pool): Promise<void> {
  await Promise.all(devices.map((d) => d.page.evaluate((pool) => window.device.untilSynced(pool), pool.id)))
}

/** Writes one memory on a device and returns its id. */
async function write(d: Device, pool: Pool, type: 'KNOWLEDGE' | 'CONTEXT', subject: string, predicate: string, object: string): Promise<string> {
  return d.page.evaluate(
    async ([pool, type, subject, predicate, object]) => (await window.device.mem.pools.write(pool, { type, content: { subject, predicate, object } })).id as string,
    [pool.id, type, subject, predicate, object] as const,
  )
}

/** Writes `n` CONTEXT memories with distinct subjects, all at once (the worker batches them). */
async function writeMany(d: Device, pool: Pool, prefix: string, n: number): Promise<void> {
  await d.page.evaluate(
    async ([pool, prefix, n]) => {
      await Promise.all(Array.from({ length: n }, (_, i) =>
        window.device.mem.pools.write(pool, { type: 'CONTEXT', content: { subject: `${prefix} ${i}`, predicate: 'noted', object: `${prefix} object ${i}` } })))
    },
    [pool.id, prefix, n] as const,
  )
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

test('a write on device A is read on device B through the relay process: 100 writes, latency reported', async ({ browser, baseURL }) => {
  const relay = await startRelay()
  const { a, b, pool } = await twoDevices(browser, baseURL, relay)
  // B notes, in its own page, when its replica first holds n memories. A notes when it called
  // write. Both read performance.timeOrigin + performance.now(): one machine's clock, so the two
  // instants compare directly, and no Playwright round trip falls inside the measured interval.
  await b.page.evaluate((pool) => window.device.watchArrivals(pool), pool.id)
  const latencies: number[] = []
  for (let i = 0; i < 100; i++) {
    const sent = await a.page.evaluate(async ([pool, i]) => {
      const t = performance.timeOrigin + performance.now()
      await window.device.mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: `sensor ${i}`, predicate: 'reads', object: `reading ${i}` } })
      return t
    }, [pool.id, i] as const)
    const seen = await b.page.evaluate((n) => window.device.arrivalOf(n), i + 1)
    latencies.push(seen - sent)
  }
  await b.page.evaluate(() => window.device.stopWatching())
  latencies.sort((x, y) => x - y)
  console.log(`[devices] A->B latency p50 ${percentile(latencies, 50).toFixed(1)} ms p95 ${percentile(latencies, 95).toFixed(1)} ms over ${latencies.length} writes`)

  expect(latencies).toHaveLength(100)
  expect(latencies.every((l) => l > 0)).toBe(true)
  const seenByB = await objects(b, pool)
  expect(seenByB).toEqual(Array.from({ length: 100 }, (_, i) => `reading ${i}`).sort())
  expect(await snapshot(b, pool)).toEqual(await snapshot(a, pool))
})

/** How a device sees the pooled artifact: its heads and whether it reports the fork (read, list, history). */
async function artifactView(d: Device, slug: string) {
  return d.page.evaluate(async (slug) => {
    const { artifacts } = window.device.mem
    const head = await artifacts.read(slug)
    const summary = (await artifacts.list()).find((s) => s.slug === slug)
    const history = await artifacts.history(slug)
    return {
      conflicted: head.conflicted,
      heads: head.heads,
      pool: head.pool,
      listed: summary ? { conflicted: summary.conflicted, pool: summary.pool } : null,
      history: history.map((v) => ({ id: v.versionId, version: v.version, parents: v.parents, head: v.head })),
    }
  }, slug)
}

test("a second tab on device B is the same replica: it sees A's write through a live query and holds no link of its own", async ({ browser, baseURL }) => {
  const relay = await startRelay()
  const { a, b, pool } = await twoDevices(browser, baseURL, relay)
  const tab = await b.page.context().newPage()
  await tab.goto('/e2e/pages/devices.html')
  await tab.waitForFunction(() => window.device !== undefined)
  await tab.evaluate(([name, seed]) => window.device.open(name, seed), [b.name, SEED.bob] as const)
  // The live query of GMP facts: a pool memory of a factual type is a fact on every replica.
  await tab.evaluate(async () => {
    const w = window as unknown as { heard: string[][] }
    w.heard = []
    await window.device.mem.facts.subscribe('where does Aria live', { topK: 5 }, (hits) => void w.heard.push(hits.map((h) => h.content)))
  })
  await write(a, pool, 'KNOWLEDGE', 'Aria', 'lives_in', 'Lisbon')
  await tab.waitForFunction(() => (window as unknown as { heard: string[][] }).heard.some((h) => h.some((c) => c.includes('Lisbon'))))
  // One SharedWorker, one Memory: the tab reports the link the first tab made, not one of its own.
  const status = await tab.evaluate(() => window.device.mem.sync.status())
  expect(status.pools).toMatchObject([{ pool: pool.id, links: 1 }])
  await tab.close()
})

test('both devices offline: a contradiction, 500 memories each and a forked artifact converge on reconnect, flagged on both, nothing lost', async ({ browser, baseURL }) => {
  test.setTimeout(120_000)
  const relay = await startRelay()
  const { a, b, pool } = await twoDevices(browser, baseURL, relay)
  // A pooled artifact: its versions replicate in the pool's document.
  const SLUG = 'household-runbook'
  await a.page.evaluate(([pool, slug]) => window.device.mem.artifacts.create(slug, { title: 'Runbook', body: 'Water the plants.\n', pool }), [pool.id, SLUG] as const)
  await b.page.evaluate((slug) => window.device.until('the pooled artifact on B', () => window.device.mem.artifacts.read(slug), () => true), SLUG)
  await untilSynced([a, b], pool)
  for (const d of [a, b]) await d.page.evaluate((pool) => window.device.mem.sync.disconnect(pool), pool.id)

  // One subject and single-valued predicate, two objects: LCS-004 §6's contradiction (docs/pools.md, "Conflicts").
  const rome = await write(a, pool, 'KNOWLEDGE', 'Aria', 'lives_in', 'Rome')
  const milan = await write(b, pool, 'KNOWLEDGE', 'Aria', 'lives_in', 'Milan')
  await Promise.all([writeMany(a, pool, 'alpha', 500), writeMany(b, pool, 'beta', 500)])
  // Two commits on the same parent, one per device: a fork once they meet.
  for (const [d, who] of [[a, 'A'], [b, 'B']] as const) {
    await d.page.evaluate(([slug, who]) => window.device.mem.artifacts.commit(slug, { body: `Water the plants (${who}).\n`, message: `edit on ${who}` }), [SLUG, who] as const)
  }
  for (const d of [a, b]) {
    const status = await d.page.evaluate(async (pool) => {
      await window.device.mem.sync.flush()
      return (await window.device.mem.sync.status()).pools.find((p) => p.pool === pool)!
    }, pool.id)
    // 501 memories and one artifact version, queued.
    expect(status).toMatchObject({ state: 'offline', connected: false, pending: { outgoing: 502 } })
    expect(await size(d, pool)).toBe(501)
    expect((await artifactView(d, SLUG)).conflicted).toBe(false)
  }

  await connect(a, relay, pool, true)
  await connect(b, relay, pool, true)
  await untilSize([a, b], pool, 1002)
  await untilSynced([a, b], pool)

  const [sa, sb] = [await snapshot(a, pool), await snapshot(b, pool)]
  expect(sb).toEqual(sa)
  expect(sa.memories).toHaveLength(1002)
  expect(sa.conflicts).toEqual([{ id: expect.any(String), kind: 'contradiction', memories: [rome, milan].sort(), subject: 'Aria' }])
  const subjects = new Set(sa.memories.map((m) => (m.content as { subject: string }).subject))
  for (let i = 0; i < 500; i++) {
    expect(subjects.has(`alpha ${i}`)).toBe(true)
    expect(subjects.has(`beta ${i}`)).toBe(true)
  }
  // The pool's factual memories are facts too: the fact store flags the pair on both devices.
  for (const d of [a, b]) {
    const conflicts = await d.page.evaluate(() => window.device.mem.facts.conflicts())
    expect(conflicts.map((c) => [c.kind, c.subject, c.predicate])).toEqual([['single-valued-predicate', 'Aria', 'lives_in']])
  }
  // The fork, reported alike on both: two heads on one parent, in read, list and history.
  const [fa, fb] = [await artifactView(a, SLUG), await artifactView(b, SLUG)]
  expect(fb).toEqual(fa)
  expect(fa).toMatchObject({ conflicted: true, pool: pool.id, listed: { conflicted: true, pool: pool.id } })
  expect(fa.heads).toHaveLength(2)
  const root = fa.history.find((v) => v.parents.length === 0)!
  expect(fa.history.filter((v) => v.head).map((v) => v.id).sort()).toEqual([...fa.heads].sort())
  expect(fa.history.filter((v) => v.head).map((v) => v.parents)).toEqual([[root.id], [root.id]])
})

test('the relay process SIGKILLed mid-sync and restarted on its port and directory: devices reconnect by themselves, nothing lost', async ({ browser, baseURL }) => {
  test.setTimeout(90_000)
  let relay = await startRelay()
  const { a, b, pool } = await twoDevices(browser, baseURL, relay)
  await a.page.evaluate((pool) => window.device.startWrites(pool, 'burst', 300), pool.id)
  // Mid-sync: A has written some, and some already reached B through the relay.
  await a.page.evaluate(() => window.device.until('60 acknowledged writes', async () => window.device.acked, (n) => n >= 60))
  await b.page.evaluate((pool) => window.device.until('first arrivals', () => window.device.size(pool), (n) => n > 0), pool.id)
  const before = await Promise.all([a, b].map((d) => d.page.evaluate(() => window.device.states.length)))
  await relay.kill()

  // Both notice the link is gone; A keeps writing locally meanwhile.
  for (const d of [a, b]) {
    await d.page.evaluate((pool) => window.device.until('offline', async () => (await window.device.mem.sync.status()).pools.find((p) => p.pool === pool)?.state, (s) => s === 'offline'), pool.id)
  }
  expect(await a.page.evaluate(() => window.device.writesDone())).toBe(300)
  expect(await size(b, pool)).toBeLessThan(300)

  relay = await relay.restart()
  await untilSize([b], pool, 300)
  await untilSynced([a, b], pool)
  expect(await objects(b, pool)).toEqual(Array.from({ length: 300 }, (_, i) => `burst object ${i}`).sort())
  expect(await snapshot(b, pool)).toEqual(await snapshot(a, pool))
  for (const [i, d] of [a, b].entries()) {
    // Status notifications travel on a channel of their own: wait for the last one to land.
    const states = await d.page.evaluate(() => window.device.until('synced reported', async () => [...window.device.states], (s) => s.at(-1) === 'synced'))
    // Went offline with the relay, and back to synced without anyone calling connect() again.
    expect(states.slice(before[i])).toContain('offline')
  }
})

test('a hard delete on A leaves no byte of the memory in either IndexedDB or in the relay directory', async ({ browser, baseURL }) => {
  test.setTimeout(90_000)
  const relay = await startRelay()
  const { a, b, pool } = await twoDevices(browser, baseURL, relay)
  const SECRET = 'osprey-cipher-9c2b41'
  const KEPT = 'lighthouse-keeper-5d1e07'
  const secret = await write(a, pool, 'KNOWLEDGE', 'vault code', 'is', SECRET)
  await write(a, pool, 'KNOWLEDGE', 'harbour', 'has', KEPT)
  await untilSize([b], pool, 2)
  await untilSynced([a, b], pool)
  // The search can find it: before the delete it is in both databases and on the relay's disk.
  for (const d of [a, b]) expect(await d.page.evaluate(() => window.device.rawDump())).toContain(SECRET)
  await expect.poll(async () => (await allBytes(relay.dir)).includes(SECRET)).toBe(true)

  expect(await a.page.evaluate((id) => window.device.mem.pools.forget(id), secret)).toEqual([secret])
  await b.page.evaluate((id) => window.device.until('the forget on B', () => window.device.mem.pools.status(id), (s) => s === 'forgotten'), secret)
  await untilSynced([a, b], pool)
  for (const d of [a, b]) {
    expect(await objects(d, pool)).toEqual([KEPT])
    const raw = await d.page.evaluate(async () => {
      await window.device.mem.sync.compact()
      await window.device.mem.pools.flush()
      await window.device.mem.facts.flush()
      await window.device.mem.sync.flush()
      return window.device.rawDump()
    })
    expect(raw).toContain(KEPT)
    expect(raw).not.toContain(SECRET)
    expect(raw).not.toContain('vault code')
  }

  // The relay compacts a pool on close (and when idle); SIGTERM closes it, then its files are read.
  await relay.stop()
  const disk = await allBytes(relay.dir)
  expect(disk.includes(KEPT)).toBe(true)
  expect(disk.includes(SECRET)).toBe(false)
  expect(disk.includes('vault code')).toBe(false)
})

test('a hostile y-websocket client with a writer token: unsigned and non-member records quarantined on both, a bare deletion healed', async ({ browser, baseURL }) => {
  const relay = await startRelay()
  const { a, b, pool } = await twoDevices(browser, baseURL, relay)
  const rome = await write(a, pool, 'KNOWLEDGE', 'Aria', 'lives_in', 'Rome')
  await untilSize([b], pool, 1)

  // Mallory is no member of the pool, but holds a writer token (leaked, or minted by mistake): the relay lets her in.
  const [bob, mallory] = [await identity('bob'), await identity('mallory')]
  const evil = rawClient(relay.url, pool.id, await token(pool, mallory.did, true))
  clients.push(evil)
  await evil.synced()
  await expect.poll(() => evil.records.has(rome)).toBe(true)

  const unsigned = { ...asValue(await signedMemory(bob, pool.id, 'Aria', 'Kyiv')), sig: undefined }
  const intruder = asValue(await signedMemory(mallory, pool.id, 'Aria', 'Lima'))
  evil.doc.transact(() => {
    evil.records.set(unsigned.id, unsigned)
    evil.records.set(intruder.id, intruder)
    evil.records.delete(rome) // a deletion without a tombstone
  })

  const expected = [[unsigned.id, 'missing-signature'], [intruder.id, 'not-member']].sort()
  for (const d of [a, b]) {
    const q = await d.page.evaluate((pool) => window.device.until(
      'two quarantined records',
      async () => (await window.device.mem.sync.quarantine(pool)).map((e) => [e.key, e.reason]).sort(),
      (q) => q.length >= 2,
    ), pool.id)
    expect(q).toEqual(expected)
  }
  await untilSynced([a, b], pool)
  for (const d of [a, b]) {
    expect(await objects(d, pool)).toEqual(['Rome'])
    expect(await d.page.evaluate((id) => window.device.mem.pools.status(id), rome)).not.toBe('forgotten')
  }
  // Healed in the document itself: the hostile client receives the record back.
  await expect.poll(() => evil.records.has(rome)).toBe(true)
  expect(evil.records.get(rome)).toMatchObject({ id: rome, author: a.did })
  expect(await snapshot(b, pool)).toEqual(await snapshot(a, pool))
})

test('a read-only member: its API refuses the write, the relay refuses a raw client\'s update, A never sees it', async ({ browser, baseURL }) => {
  const relay = await startRelay()
  const { a, b, pool } = await twoDevices(browser, baseURL, relay, false)
  await write(a, pool, 'KNOWLEDGE', 'Aria', 'lives_in', 'Rome')
  await untilSize([b], pool, 1)
  expect(await b.page.evaluate((pool) => window.device.errorCode(() =>
    window.device.mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Oslo' } })), pool.id)).toBe('PERMISSION_DENIED')

  // Bob signs the record himself and pushes it with his read-only token from a stock client.
  const bob = await identity('bob')
  const reader = rawClient(relay.url, pool.id, await token(pool, bob.did, false))
  clients.push(reader)
  await reader.synced()
  const forged = asValue(await signedMemory(bob, pool.id, 'Aria', 'Oslo'))
  reader.records.set(forged.id, forged)
  await expect.poll(() => reader.denied.length).toBeGreaterThan(0)
  expect(reader.denied[0]!.startsWith(READ_ONLY_REFUSAL)).toBe(true)

  // A barrier: a valid record pushed through the relay after the refusal. The relay forwards in
  // order over each connection, so once A holds the barrier, the refused update would have reached
  // A before it had the relay forwarded it.
  const alice = await identity('alice')
  const owner = rawClient(relay.url, pool.id, await token(pool, alice.did, true))
  clients.push(owner)
  await owner.synced()
  expect(owner.records.has(forged.id)).toBe(false)
  const barrier = asValue(await signedMemory(alice, pool.id, 'barrier', 'after the refusal'))
  owner.records.set(barrier.id, barrier)
  await untilSize([a, b], pool, 2)
  await untilSynced([a, b], pool)
  for (const d of [a, b]) {
    expect(await objects(d, pool)).toEqual(['Rome', 'after the refusal'])
    expect(await d.page.evaluate((pool) => window.device.mem.sync.quarantine(pool), pool.id)).toEqual([])
  }
})

test('a pool of 10,000 memories: B joins it, then a write, a contradiction and a hard delete reach both devices', async ({ browser, baseURL }) => {
  test.setTimeout(300_000)
  const N = 10_000
  const relay = await startRelay()
  const a = await openDevice(browser, baseURL, 'alice')
  const b = await openDevice(browser, baseURL, 'bob')
  const pool = await createSharedPool(a, b, true)
  for (let i = 0; i < N / 1000; i++) await writeMany(a, pool, `bulk${i}`, 1000)
  expect(await size(a, pool)).toBe(N)
  await connect(a, relay, pool, true)
  await a.page.evaluate((pool) => window.device.untilSynced(pool, 120_000), pool.id)

  // B is a new device: it learns of the pool and of its 10,000 memories through the relay alone.
  const joinStart = Date.now()
  await connect(b, relay, pool, true)
  await b.page.evaluate(([pool, n]) => window.device.untilSize(pool, n, 240_000), [pool.id, N + 0] as const)
  const joinMs = Date.now() - joinStart
  await untilSynced([a, b], pool)
  console.log(`[devices] B joined a pool of ${N} memories in ${joinMs} ms`)

  // A write on A reaches B.
  const writeStart = Date.now()
  await write(a, pool, 'KNOWLEDGE', 'harbour', 'has', 'lighthouse-keeper-5d1e07')
  await untilSize([b], pool, N + 1)
  console.log(`[devices] at ${N} memories, a write on A was on B after ${Date.now() - writeStart} ms (one Playwright round trip included)`)

  // A contradiction written on both devices is flagged on both, nothing settled.
  const SECRET = 'osprey-cipher-9c2b41'
  const rome = await write(a, pool, 'KNOWLEDGE', 'Aria', 'lives_in', SECRET)
  const milan = await write(b, pool, 'KNOWLEDGE', 'Aria', 'lives_in', 'Milan')
  await untilSize([a, b], pool, N + 3)
  await untilSynced([a, b], pool)
  for (const d of [a, b]) {
    const conflicts = await d.page.evaluate((pool) => window.device.mem.pools.conflicts(pool), pool.id)
    expect(conflicts.map((c) => [c.kind, [...c.memories].sort()])).toEqual([['contradiction', [rome, milan].sort()]])
  }

  // A hard delete on A: gone from both devices' IndexedDB, and the conflict with it.
  for (const d of [a, b]) expect(await d.page.evaluate((text) => window.device.rawHas(text), SECRET)).toBe(true)
  expect(await a.page.evaluate((id) => window.device.mem.pools.forget(id), rome)).toEqual([rome])
  await b.page.evaluate((id) => window.device.until('the forget on B', () => window.device.mem.pools.status(id), (s) => s === 'forgotten', 60_000), rome)
  await untilSynced([a, b], pool)
  for (const d of [a, b]) {
    expect(await size(d, pool)).toBe(N + 2)
    expect(await d.page.evaluate((pool) => window.device.mem.pools.conflicts(pool), pool.id)).toEqual([])
    const has = await d.page.evaluate(async (text) => {
      await window.device.mem.sync.compact()
      await window.device.mem.pools.flush()
      await window.device.mem.facts.flush()
      await window.device.mem.sync.flush()
      return window.device.rawHas(text)
    }, SECRET)
    expect(has).toBe(false)
  }
  expect(await snapshot(b, pool)).toEqual(await snapshot(a, pool))
})
