import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { RelayCloseCode } from '../../src/sync/relay-protocol.js'
import { NodeProcess, killAllNodes, redisBytes, until } from '../helpers/cluster-helpers.js'
import { RedisServer } from '../helpers/redis-server.js'
import { connect, identity, poolOf, token } from './relay-helpers.js'

/**
 * Issue 26, cases 6 and 7, through real processes: relay nodes are the built CLI (`npm run build`
 * first), Redis is a real redis-server that is SIGKILLed and restarted with its files deleted.
 *
 * 6. After Redis restarted empty, the first token of anyone pinned the pool (trust on first use
 *    again), and the owner's devices, whose tokens carry no ownership proof, got a permanent 4403.
 * 7. If the only node holding a pool was killed before its idle compaction, a hard delete's bytes
 *    stayed in the pool's stream until some node happened to load and unload the pool again.
 */

let redis: RedisServer
const dirs: string[] = []

beforeEach(async () => {
  redis = await RedisServer.start()
}, 30_000)

afterEach(async () => {
  await killAllNodes()
  await redis.stop()
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
}, 30_000)

async function pinsDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'memweave-pins-'))
  dirs.push(dir)
  return dir
}

const healthy = async (n: NodeProcess): Promise<void> => {
  await until(`${n.id} healthy`, async () => (await fetch(`${n.http}/healthz`).catch(() => null))?.status, (s) => s === 200)
}

/** The owner's device: a token without the ownership proof (as apps minted them), one key written. */
async function ownerWrites(url: string): Promise<{ pool: string; ownerToken: string; strangerToken: string }> {
  const owner = await identity('owner')
  const stranger = await identity('stranger')
  const { pool } = poolOf(owner)
  const ownerToken = await token(owner, pool, owner, true)
  // The stranger knows the pool id and signs a token for it with their own key.
  const strangerToken = await token(stranger, pool, stranger, true)
  const device = connect(url, pool, ownerToken)
  await device.synced()
  device.doc.getMap('m').set('groceries', 'milk')
  const check = connect(url, pool, ownerToken)
  await until('written', () => check.doc.getMap('m').get('groceries'), (v) => v === 'milk')
  check.provider.destroy()
  device.provider.destroy()
  return { pool, ownerToken, strangerToken }
}

/** The close code a connection gets, or 0 when it was admitted and synced instead (on main: the stranger pinned the pool). */
async function refusedCode(url: string, pool: string, tokenText: string): Promise<number> {
  const client = connect(url, pool, tokenText)
  const code = await Promise.race([client.closed.then((c) => c.code), client.synced().then(() => 0)])
  client.provider.destroy()
  return code
}

async function admittedAndSynced(url: string, pool: string, tokenText: string): Promise<string[]> {
  const client = connect(url, pool, tokenText)
  const outcome = await Promise.race([client.synced().then(() => 'synced'), client.closed.then((c) => `closed ${c.code} ${c.reason}`)])
  expect(outcome).toBe('synced')
  client.doc.getMap('m').set('after', 'the loss')
  const keys = [...client.doc.getMap('m').keys()].sort()
  client.provider.destroy()
  return keys
}

describe('Redis loses its data: owner pins', () => {
  test('nodes that stayed up put the pin back: a stranger is refused on every node (even one that never served the pool), the owner\'s unproven tokens are admitted', async () => {
    const [d1, d2] = [await pinsDir(), await pinsDir()]
    const n1 = await NodeProcess.start(redis.url, 'n1', 0, ['--pins-dir', d1])
    const n2 = await NodeProcess.start(redis.url, 'n2', 0, ['--pins-dir', d2])
    const { pool, ownerToken, strangerToken } = await ownerWrites(n1.url)
    // n2 never served the pool; it learns the pin from the cluster's pins stream.
    await until('n2 copied the pin', () => readFile(join(d2, 'pins.jsonl'), 'utf8').catch(() => ''), (t) => t.includes(pool))
    // One of the owner's devices stays connected through the loss (closed with 1013, it reconnects).
    const laptop = connect(n2.url, pool, ownerToken)
    await laptop.synced()
    expect(laptop.doc.getMap('m').get('groceries')).toBe('milk')

    await redis.restartEmpty()
    // Every update is gone (the nodes, back on Redis, may already have put the pins back).
    expect((await redisBytes(redis.url)).bytes.includes('milk')).toBe(false)
    await healthy(n1)
    await healthy(n2)

    for (const n of [n2, n1]) expect(await refusedCode(n.url, pool, strangerToken), n.id).toBe(RelayCloseCode.FORBIDDEN)
    // The owner's devices, with the same unproven token as before, are not locked out.
    for (const n of [n2, n1]) expect(await admittedAndSynced(n.url, pool, ownerToken), n.id).toContain('after')
    expect(await refusedCode(n2.url, pool, strangerToken)).toBe(RelayCloseCode.FORBIDDEN)
    // The connected device came back by itself and gave the relay what Redis lost.
    const reader = connect(n1.url, pool, ownerToken)
    await until('the device re-sent its data', () => reader.doc.getMap('m').get('groceries'), (v) => v === 'milk')
    expect(await Promise.race([laptop.closed.then(() => 'closed for good'), Promise.resolve('still connecting')])).toBe('still connecting')
    reader.provider.destroy()
    laptop.provider.destroy()
  }, 90_000)

  test('nodes restarted too (SIGKILL): a node with --pins-dir puts the pins back at start, and a new node without a copy refuses the stranger', async () => {
    const d1 = await pinsDir()
    const n1 = await NodeProcess.start(redis.url, 'n1', 0, ['--pins-dir', d1])
    const { pool, ownerToken, strangerToken } = await ownerWrites(n1.url)
    await n1.kill()
    await redis.restartEmpty()
    const again = await NodeProcess.start(redis.url, 'n1', 0, ['--pins-dir', d1])
    const fresh = await NodeProcess.start(redis.url, 'n2')
    expect(await refusedCode(fresh.url, pool, strangerToken)).toBe(RelayCloseCode.FORBIDDEN)
    expect(await refusedCode(again.url, pool, strangerToken)).toBe(RelayCloseCode.FORBIDDEN)
    expect(await admittedAndSynced(fresh.url, pool, ownerToken)).toContain('after')
    expect(await admittedAndSynced(again.url, pool, ownerToken)).toContain('after')
  }, 90_000)

  test('a stranger pinned the pool through a node without a copy while every node with one was down: the copy takes it back when such a node starts, and the stranger is closed', async () => {
    const d1 = await pinsDir()
    const n1 = await NodeProcess.start(redis.url, 'n1', 0, ['--pins-dir', d1])
    const { pool, ownerToken, strangerToken } = await ownerWrites(n1.url)
    await n1.kill()
    await redis.restartEmpty()
    const fresh = await NodeProcess.start(redis.url, 'n2')
    // Nothing anywhere knows the pool now: trust on first use, the documented limit.
    const squatter = connect(fresh.url, pool, strangerToken)
    await squatter.synced()
    const again = await NodeProcess.start(redis.url, 'n1', 0, ['--pins-dir', d1])
    expect((await squatter.closed).code).toBe(RelayCloseCode.FORBIDDEN)
    squatter.provider.destroy()
    for (const n of [fresh, again]) expect(await refusedCode(n.url, pool, strangerToken), n.id).toBe(RelayCloseCode.FORBIDDEN)
    for (const n of [fresh, again]) expect(await admittedAndSynced(n.url, pool, ownerToken), n.id).toContain('after')
  }, 90_000)

  test('the stranger comes first, right after the loss, on the node that held the pool', async () => {
    const n1 = await NodeProcess.start(redis.url, 'n1')
    const { pool, ownerToken, strangerToken } = await ownerWrites(n1.url)
    await redis.restartEmpty()
    await healthy(n1)
    // Its copy is in memory (no --pins-dir): enough while the node lives.
    expect(await refusedCode(n1.url, pool, strangerToken)).toBe(RelayCloseCode.FORBIDDEN)
    expect(await admittedAndSynced(n1.url, pool, ownerToken)).toContain('after')
  }, 90_000)
})

describe('a hard delete when the node that held the pool dies first', () => {
  test('another node compacts the pool: no byte of the deleted value stays in Redis, the rest is kept', async () => {
    const a = await NodeProcess.start(redis.url, 'a')
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const t = await token(owner, pool, owner, true)
    const device = connect(a.url, pool, t)
    await device.synced()
    const m = device.doc.getMap('m')
    m.set('kept', 'Aria lives in Rome')
    m.set('secret', 'the spare key is under the blue flowerpot')
    await until('in Redis', async () => (await redisBytes(redis.url)).bytes.includes('blue flowerpot'), (v) => v)
    m.delete('secret')
    const check = connect(a.url, pool, t)
    await until('the delete reached the relay', () => check.doc.getMap('m').has('secret') === false && check.doc.getMap('m').get('kept'), (v) => v === 'Aria lives in Rome')
    check.provider.destroy()
    device.provider.destroy()
    // The only node that held the pool dies before its idle compaction (30 s by default).
    await a.kill()
    expect((await redisBytes(redis.url)).bytes.includes('blue flowerpot')).toBe(true)

    // Another node, which never loaded the pool, finds it in the compact set.
    const b = await NodeProcess.start(redis.url, 'b', 0, ['--compact-sweep-ms', '200'])
    await until('the deleted bytes are gone', async () => (await redisBytes(redis.url)).bytes.includes('blue flowerpot'), (v) => v === false)
    const { bytes } = await redisBytes(redis.url)
    expect(bytes.includes('Rome')).toBe(true)
    const reader = connect(b.url, pool, t)
    await reader.synced()
    expect(reader.doc.getMap('m').toJSON()).toEqual({ kept: 'Aria lives in Rome' })
    reader.provider.destroy()
  }, 90_000)
})
