import * as Y from 'yjs'
import { describe, expect, onTestFinished, test } from 'vitest'
import { encodeHlc } from '../../src/core/clock.js'
import { createMemory, type Memory, type PoolId, type SyncStatus } from '../../src/index.js'
import { PoolKind, signRecord, type MemoryBody, type MemoryPayload } from '../../src/pools/records.js'
import { RECORDS_MAP, encodeRecord } from '../../src/sync/index.js'
import { T0, expectCode, fact } from '../helpers/pools-helpers.js'
import { network, settle, snapshot, useDevices, type Device } from '../helpers/sync-helpers.js'

/**
 * Replication scenarios on the in-process connector: offline divergence and reconnection, hostile
 * peers, read-only members, status reporting, restarts. Each device is a Memory on its own storage.
 */

const setup = useDevices(1)

function payload(subject: string, object: string): MemoryPayload {
  return {
    type: 'KNOWLEDGE', subject, predicate: 'lives_in', object, context: null, confidence: 1, source: 'direct_statement', evidence: [],
    createdAt: T0, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
  }
}

/** A memory record signed by `who` outside any Memory: what a hostile or buggy client can put into a document. */
async function forged(who: Device, pool: PoolId, object: string, ms: number) {
  return signRecord(who.id, {
    kind: PoolKind.MEMORY, pool, tenant: null, body: { payload: payload('Aria', object) } as MemoryBody, author: who.id.did,
    hlc: encodeHlc({ wall: T0 + ms, counter: 0, node: 'forged' }),
  })
}

const liveObjects = async (mem: Memory, pool: PoolId): Promise<string[]> =>
  (await mem.pools.export(pool)).memories.map((m) => String(m.content.object)).sort()

describe('sync between devices', () => {
  test('offline divergent writes converge on reconnect: conflicts flagged on both sides, nothing lost', async () => {
    const { d, c } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    const base = await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem])
    expect(await liveObjects(d.bob.mem, pool)).toEqual(['Rome'])

    net.setOnline('alice', false)
    net.setOnline('bob', false)
    c.advance(60_000)
    // A contradiction (one subject, two objects), a competing update of one memory, and 100 plain facts each.
    await d.alice.mem.pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
    await d.bob.mem.pools.write(pool, fact('Bruno', 'lives_in', 'Lima'))
    const milan = await d.alice.mem.pools.update(base.id, { content: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
    const turin = await d.bob.mem.pools.update(base.id, { content: { subject: 'Aria', predicate: 'lives_in', object: 'Turin' } })
    await Promise.all(Array.from({ length: 100 }, (_, i) => d.alice.mem.pools.write(pool, fact(`a${i}`, 'likes', `tea ${i}`))))
    await Promise.all(Array.from({ length: 100 }, (_, i) => d.bob.mem.pools.write(pool, fact(`b${i}`, 'likes', `coffee ${i}`))))
    await Promise.all([d.alice.mem.sync.flush(), d.bob.mem.sync.flush()])

    const offline = await d.bob.mem.sync.status()
    expect(offline.state).toBe('offline')
    expect(offline.pending.outgoing).toBe(102)
    expect(net.inFlight).toBe(0)

    net.setOnline('alice', true)
    net.setOnline('bob', true)
    await settle(net, [d.alice.mem, d.bob.mem])

    const [a, b] = [await snapshot(d.alice.mem, pool), await snapshot(d.bob.mem, pool)]
    expect(b).toEqual(a)
    for (const x of [d.alice, d.bob]) {
      // The two updates of one memory both supersede it and contradict each other: one flagged pair, both kept.
      const conflicts = await x.mem.pools.conflicts(pool)
      expect(conflicts.map((k) => `${k.kind} ${k.subject}`).sort()).toEqual(['contradiction Aria', 'contradiction Bruno'])
      expect(conflicts.find((k) => k.subject === 'Aria')!.memories).toEqual([milan.id, turin.id].sort())
      const objects = await liveObjects(x.mem, pool)
      expect(objects).toHaveLength(1 + 2 + 2 + 200)
      for (let i = 0; i < 100; i++) expect(objects).toContain(`tea ${i}`)
      for (let i = 0; i < 100; i++) expect(objects).toContain(`coffee ${i}`)
      expect(await x.mem.sync.status()).toMatchObject({ state: 'synced', pending: { outgoing: 0, incoming: 0 } })
    }
  })

  test('hostile updates: an unsigned record and a non-member\'s are quarantined, a bare deletion and an overwrite are healed', async () => {
    const { d } = await setup(['alice', 'bob', 'mallory'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    const rome = await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    // Mallory is a raw y-protocols client, not a Memory: it can write anything into the document.
    const evil = new Y.Doc()
    net.provider('mallory').connect(pool, evil, () => undefined)
    await settle(net, [d.alice.mem, d.bob.mem])
    const map = evil.getMap(RECORDS_MAP)
    expect(map.has(rome.id)).toBe(true)

    const unsigned = { ...encodeRecord(await forged(d.bob, pool, 'Kyiv', 10)), sig: undefined }
    const intruder = await forged(d.mallory, pool, 'Lima', 11)
    const createId = [...map.keys()].find((k) => (map.get(k) as { kind: string }).kind === 'pool-create')!
    evil.transact(() => {
      map.set(unsigned.id, unsigned)
      map.set(intruder.id, encodeRecord(intruder))
      map.delete(rome.id) // no tombstone
      map.set(createId, { ...(map.get(createId) as object), body: { hijacked: true } }) // overwrite in place
    })
    await settle(net, [d.alice.mem, d.bob.mem])

    for (const x of [d.alice, d.bob]) {
      expect(await liveObjects(x.mem, pool)).toEqual(['Rome'])
      const q = (await x.mem.sync.quarantine(pool)).map((e) => [e.key, e.reason, e.author])
      expect(q).toEqual(expect.arrayContaining([[unsigned.id, 'missing-signature', d.bob.id.did], [intruder.id, 'not-member', d.mallory.id.did]]))
      expect(q).toHaveLength(2)
      expect((await x.mem.pools.info(pool)).name).toBe('household')
    }
    // Healed in the document itself, so every replica (the hostile one too) holds the records again.
    expect(map.get(rome.id)).toMatchObject({ id: rome.id, author: d.alice.id.did })
    expect(map.get(createId)).toMatchObject({ kind: 'pool-create', body: { name: 'household' } })
    expect(await snapshot(d.bob.mem, pool)).toEqual(await snapshot(d.alice.mem, pool))
  })

  test("a read-only member's write is refused by its own memory and by every replica", async () => {
    const { d } = await setup(['alice', 'bob', 'dave'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    await d.alice.mem.pools.share(pool, d.dave.id.did, { write: false })
    for (const x of [d.alice, d.bob, d.dave]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem, d.dave.mem])
    await expectCode(d.dave.mem.pools.write(pool, fact('Aria', 'lives_in', 'Oslo')), 'PERMISSION_DENIED')

    // Dave signs the record himself and puts it into a document that syncs with everyone.
    const record = await forged(d.dave, pool, 'Oslo', 5)
    const raw = new Y.Doc()
    net.provider('dave-tool').connect(pool, raw, () => undefined)
    raw.getMap(RECORDS_MAP).set(record.id, encodeRecord(record))
    await settle(net, [d.alice.mem, d.bob.mem, d.dave.mem])
    for (const x of [d.alice, d.bob, d.dave]) {
      expect(await liveObjects(x.mem, pool)).toEqual([])
      expect((await x.mem.sync.quarantine(pool)).map((q) => [q.key, q.reason])).toEqual([[record.id, 'read-only']])
    }
  })

  test('a write after a revocation dated before it is refused everywhere, and leaves the writer\'s own store', async () => {
    const { d, c } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, [d.alice.mem, d.bob.mem])
    net.setOnline('bob', false)
    c.advance(1000)
    await d.alice.mem.pools.revoke(pool, d.bob.id.did)
    c.advance(1000)
    const late = await d.bob.mem.pools.write(pool, fact('Aria', 'lives_in', 'Lima'))
    expect(await liveObjects(d.bob.mem, pool)).toEqual(['Lima'])
    net.setOnline('bob', true)
    await settle(net, [d.alice.mem, d.bob.mem])
    expect(await liveObjects(d.alice.mem, pool)).toEqual([])
    expect((await d.alice.mem.sync.quarantine(pool)).map((q) => [q.key, q.reason])).toEqual([[late.id, 'not-member']])
    expect((await d.bob.mem.sync.quarantine(pool)).map((q) => [q.key, q.reason])).toEqual([[late.id, 'not-member']])
    await expectCode(d.bob.mem.pools.export(pool), 'PERMISSION_DENIED')
  })

  test('status and subscribe report offline, connected, syncing and synced, with pending counts', async () => {
    const { d } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    const seen: SyncStatus[] = []
    const stop = await d.alice.mem.sync.subscribe((s) => seen.push(s))
    expect(seen[0]).toMatchObject({ state: 'offline', pools: [] })

    await d.alice.mem.sync.open(pool)
    await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
    await d.alice.mem.sync.flush()
    // Not linked: the create, the grant and the memory wait to be sent.
    expect(await d.alice.mem.sync.status()).toMatchObject({ state: 'offline', pending: { outgoing: 3, incoming: 0 } })

    await d.alice.mem.sync.attach(pool, net.provider('alice'))
    await d.bob.mem.sync.attach(pool, net.provider('bob'))
    expect((await d.alice.mem.sync.status()).state).toBe('connected')
    await settle(net, [d.alice.mem, d.bob.mem])
    expect(await d.alice.mem.sync.status()).toMatchObject({ state: 'synced', pending: { outgoing: 0, incoming: 0 } })
    expect(await d.bob.mem.sync.status()).toMatchObject({
      state: 'synced', pools: [{ pool, connected: true, links: 1, records: 3, quarantined: 0, error: null }],
    })
    const states = seen.map((s) => s.state)
    for (const s of ['offline', 'connected', 'synced'] as const) expect(states).toContain(s)

    // Records received and not yet applied count as incoming.
    await d.alice.mem.pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
    await d.alice.mem.sync.flush()
    await net.flush()
    const during = await d.bob.mem.sync.status()
    expect(during.state).toBe('syncing')
    expect(during.pending.incoming).toBe(1)
    await settle(net, [d.alice.mem, d.bob.mem])
    expect((await d.bob.mem.sync.status()).state).toBe('synced')

    await d.bob.mem.sync.disconnect(pool)
    expect((await d.bob.mem.sync.status()).state).toBe('offline')
    stop()
  })

  test('connect() needs a WebSocket: Node 20 without one is told so; bad URLs are refused', async () => {
    const { d } = await setup(['alice'] as const)
    const pool = (await d.alice.mem.pools.create({})).id
    if (typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'undefined') {
      await expectCode(d.alice.mem.sync.connect(pool, { url: 'ws://127.0.0.1:9' }), 'CAPABILITY_NOT_SUPPORTED')
    }
    await expectCode(d.alice.mem.sync.connect(pool, { url: 'http://example.com', WebSocketPolyfill: class {} }), 'INVALID_ARGUMENT', 'url')
    await expectCode(d.alice.mem.sync.open('not a pool'), 'INVALID_ARGUMENT')
  })

  test('a restarted device reloads its document from the persisted updates, and sends what was written while sync was off', async () => {
    const { d, c } = await setup(['alice', 'bob'] as const)
    const net = network()
    const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
    await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
    await settle(net, [d.alice.mem, d.bob.mem])

    // Bob's app restarts: a new Memory on the same storage. Before sync is opened again, it writes.
    await d.bob.mem.close()
    const bob2 = await createMemory({ storage: d.bob.storage, identity: d.bob.id, now: c.now, sync: { clientId: () => 777 } })
    onTestFinished(() => bob2.close())
    await bob2.pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
    await bob2.sync.open(pool)
    expect((await bob2.sync.status()).pools[0]).toMatchObject({ records: 4, pending: { outgoing: 1 } })
    await bob2.sync.attach(pool, net.provider('bob'))
    await settle(net, [d.alice.mem, bob2])
    expect(await liveObjects(d.alice.mem, pool)).toEqual(['Oslo', 'Rome'])
    expect(await snapshot(bob2, pool)).toEqual(await snapshot(d.alice.mem, pool))
  })
})
