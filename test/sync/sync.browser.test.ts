import { expect, test } from 'vitest'
import { createIdentity, createMemory, indexedDbStorage, openMemory, type Memory, type PoolId, type SyncStatus } from '../../src/index.js'
import { InProcessNetwork } from '../../src/sync/index.js'
import { dumpIndexedDb } from '../helpers/raw-indexeddb.js'

/**
 * Two devices in real Chromium: two Memory objects on two IndexedDB databases, their pools'
 * documents exchanging updates through the in-process connector. A write crosses, a divergent pair
 * is flagged on both, and a hard delete leaves no byte of the forgotten text in any raw row of
 * either database (Yjs updates included) once compacted.
 */

const seed = (n: number): Uint8Array => new Uint8Array(32).fill(n)

async function settle(net: InProcessNetwork, mems: readonly Memory[]): Promise<void> {
  for (let i = 0; i < 50; i++) {
    await Promise.all(mems.map((m) => m.sync.flush()))
    if (net.inFlight === 0) {
      await Promise.all(mems.map((m) => m.pools.flush()))
      await Promise.all(mems.map((m) => m.sync.flush()))
      if (net.inFlight === 0) return
    }
    await net.flush()
  }
  throw new Error('the network did not settle')
}

/** The raw dump with every byte array of `syncUpdates` decoded, so text inside Yjs updates can be searched. */
async function rawText(name: string): Promise<string> {
  const dump = JSON.parse(await dumpIndexedDb(indexedDB, name)) as Record<string, unknown>
  const updates = (dump['syncUpdates:values'] as Array<{ update: number[] }>).map((r) => String.fromCharCode(...r.update))
  expect(updates.length).toBeGreaterThan(0)
  return JSON.stringify(dump) + updates.join('')
}

const objects = async (mem: Memory, pool: PoolId): Promise<string[]> =>
  (await mem.pools.export(pool)).memories.map((m) => String(m.content.object)).sort()

test('two devices on two IndexedDB databases sync a pool; a hard delete leaves no raw bytes on either', async () => {
  const names = [`sync-a-${crypto.randomUUID()}`, `sync-b-${crypto.randomUUID()}`] as const
  const [alice, bob] = [await createIdentity({ seed: seed(21) }), await createIdentity({ seed: seed(22) })]
  const a = await createMemory({ storage: indexedDbStorage({ name: names[0] }), identity: alice })
  const b = await createMemory({ storage: indexedDbStorage({ name: names[1] }), identity: bob })
  const net = new InProcessNetwork({ manual: true })
  try {
    const pool = (await a.pools.create({ name: 'household' })).id
    await a.pools.share(pool, bob.did, { write: true })
    await a.sync.attach(pool, net.provider('a'))
    await b.sync.attach(pool, net.provider('b'))
    const secret = await a.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'spare key', predicate: 'is_under', object: 'the heron statue' } })
    await settle(net, [a, b])
    expect(await objects(b, pool)).toEqual(['the heron statue'])
    expect(await rawText(names[1])).toContain('the heron statue')

    // Offline on both sides, each writes a different object for one subject: flagged on both after reconnecting.
    net.setOnline('a', false)
    await a.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
    await b.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
    expect((await a.sync.status()).state).toBe('offline')
    net.setOnline('a', true)
    await settle(net, [a, b])
    for (const m of [a, b]) {
      expect(await objects(m, pool)).toEqual(['Milan', 'Rome', 'the heron statue'])
      expect((await m.pools.conflicts(pool)).map((c) => c.kind)).toEqual(['contradiction'])
    }

    // Its author forgets it (a writer may not forget another's memory: issue 13); the other device obeys.
    await a.pools.forget(secret.id)
    await settle(net, [a, b])
    expect(await objects(b, pool)).toEqual(['Milan', 'Rome'])
    for (const name of names) {
      const raw = await rawText(name)
      expect(raw).not.toContain('heron statue')
      expect(raw).not.toContain('spare key')
      expect(raw).toContain('Milan')
    }
  } finally {
    net.close()
    await a.close()
    await b.close()
  }
})

test('mem.sync crosses the worker boundary: open, connect, status, subscribe, quarantine, disconnect', async () => {
  const identity = await createIdentity({ seed: seed(23) })
  const mem = await openMemory({ name: `sync-worker-${crypto.randomUUID()}`, identity, worker: new URL('../../worker/memory-worker.ts', import.meta.url) })
  try {
    const pool = (await mem.pools.create({ name: 'household' })).id
    const seen: SyncStatus[] = []
    const stop = await mem.sync.subscribe((s) => seen.push(s))
    await mem.sync.open(pool)
    // Nothing listens on port 9: the link stays down, the records wait.
    await mem.sync.connect(pool, { url: 'ws://127.0.0.1:9', token: 'opaque' })
    const status = await mem.sync.status()
    expect(status).toMatchObject({ state: 'offline', pending: { outgoing: 1 }, pools: [{ pool, links: 1, connected: false, records: 1 }] })
    expect(await mem.sync.quarantine(pool)).toEqual([])
    await mem.sync.disconnect(pool)
    expect((await mem.sync.status()).pools[0]!.links).toBe(0)
    await expect(mem.sync.open('nope')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    await new Promise((r) => setTimeout(r, 20))
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.at(-1)!.pools.map((p) => p.pool)).toEqual([pool])
    await stop()
  } finally {
    await mem.close()
  }
})
