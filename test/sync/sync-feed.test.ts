import * as Y from 'yjs'
import { afterEach, describe, expect, test } from 'vitest'
import type { Memory, PoolId } from '../../src/index.js'
import { openMemoryModules, type MemoryModules } from '../../src/memory-loader.js'
import { PoolKind, type MemoryBody } from '../../src/pools/records.js'
import type { LogChange } from '../../src/records/types.js'
import { memoryStorage, type MemoryStorage } from '../../src/storage/memory-adapter.js'
import { RECORDS_MAP, type SyncProvider } from '../../src/sync/index.js'
import { T0, fact } from '../helpers/pools-helpers.js'
import { clock, identityFor, network, settle } from '../helpers/sync-helpers.js'

/**
 * The sync layer takes what the record log appended from its `onAppend` feed (this Memory's
 * commits at once, other handles' when the log catches up) and writes what it accepts through the
 * log, in one batch: it never reads or writes the `log` table itself.
 */

const opened: MemoryModules[] = []
afterEach(async () => {
  for (const m of opened.splice(0).reverse()) await m.close()
})

async function handle(storage: MemoryStorage, who: string, clientId = 1): Promise<MemoryModules> {
  const c = clock()
  const m = await openMemoryModules({ storage, identity: await identityFor(who), now: c.now, sync: { clientId: () => clientId++ } })
  opened.push(m)
  return m
}

/** A provider that links nothing and hands the test the pool's document. */
function probe(): { provider: SyncProvider; doc: () => Y.Doc } {
  let doc: Y.Doc | undefined
  return {
    provider: { kind: 'probe', connect: (_pool, d) => ((doc = d as unknown as Y.Doc), { close: () => undefined }) },
    doc: () => doc!,
  }
}

const keys = (doc: Y.Doc): string[] => [...doc.getMap(RECORDS_MAP).keys()].sort()

/** What `settle` needs of a Memory. */
const asMemory = async (m: MemoryModules): Promise<Memory> => ({ sync: await m.load('sync'), pools: await m.load('pools') }) as unknown as Memory

describe('sync on the record log', () => {
  test("another handle's pool writes and hard deletes reach this handle's document through the log's catch-up", async () => {
    const storage = memoryStorage()
    const x = await handle(storage, 'alice', 1000)
    const y = await handle(storage, 'alice', 2000)
    const [px, sy] = [await x.load('pools'), await y.load('sync')]
    const pool = (await px.create({ name: 'household' })).id
    const seen = probe()
    await sy.attach(pool, seen.provider)
    const rome = await px.write(pool, fact('Aria', 'lives_in', 'Rome'))
    const oslo = await px.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
    await sy.flush()
    expect(keys(seen.doc())).toEqual(expect.arrayContaining([rome.id, oslo.id]))

    await px.forget(rome.id)
    await sy.flush()
    expect(keys(seen.doc())).not.toContain(rome.id)
    expect(keys(seen.doc())).toContain(oslo.id)
    expect((await sy.status()).pools[0]).toMatchObject({ pool, quarantined: 0, error: null })
  })

  test('what sync accepts is one batch of the record log: it comes back through the feed as this Memory’s own, once, and is not sent again', async () => {
    const net = network()
    const a = await handle(memoryStorage(), 'alice', 1000)
    const bStorage = memoryStorage()
    const b = await handle(bStorage, 'bob', 2000)
    const [pa, sa, sb] = [await a.load('pools'), await a.load('sync'), await b.load('sync')]
    const pool = (await pa.create({ name: 'household' })).id
    await pa.share(pool, (await identityFor('bob')).did, { write: true })
    const changes: LogChange[] = []
    b.log.onAppend((change) => changes.push(change))
    await sa.attach(pool, net.provider('alice'))
    await sb.attach(pool, net.provider('bob'))
    const written = await Promise.all(['Rome', 'Oslo', 'Lima'].map((city, i) => pa.write(pool, fact(`p${i}`, 'lives_in', city))))
    const mems = [await asMemory(a), await asMemory(b)]
    await settle(net, mems)

    const carried = changes.filter((c) => c.records.some((r) => r.kind === PoolKind.MEMORY))
    expect(carried.every((c) => c.local && !c.reload)).toBe(true)
    const ids = carried.flatMap((c) => c.records.filter((r) => r.kind === PoolKind.MEMORY).map((r) => r.id))
    expect(ids.sort()).toEqual(written.map((m) => m.id).sort())

    // Nothing moves any more: no new commit, no new persisted update, nothing in flight.
    const before = { changes: changes.length, rows: (bStorage.dump()['syncUpdates'] ?? []).length }
    await settle(net, mems)
    expect({ changes: changes.length, rows: (bStorage.dump()['syncUpdates'] ?? []).length }).toEqual(before)
    expect(net.inFlight).toBe(0)
  })

  test('when the record log reloads, every open pool looks at all of its stored records again', async () => {
    const storage = memoryStorage()
    const m = await handle(storage, 'alice')
    const [pools, sync] = [await m.load('pools'), await m.load('sync')]
    const pool: PoolId = (await pools.create({ name: 'household' })).id
    const seen = probe()
    await sync.attach(pool, seen.provider)
    await sync.flush()

    // A record stored behind the log's back (no log row): no catch-up would ever deliver it.
    const body = {
      payload: {
        type: 'KNOWLEDGE', subject: 'Aria', predicate: 'lives_in', object: 'Rome', context: null, confidence: 1, source: 'direct_statement', evidence: [],
        createdAt: T0, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
      },
    } as MemoryBody
    const hidden = await m.log.sealPooled(PoolKind.MEMORY, body, { pool, tenant: null })
    await storage.write(['records'], (tx) => tx.put('records', [hidden]))
    await sync.flush()
    expect(keys(seen.doc())).not.toContain(hidden.id)

    // A failed batch makes the log rebuild its state from the records, and say so in the feed.
    await expect(m.log.write(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    await sync.flush()
    expect(keys(seen.doc())).toContain(hidden.id)
  })
})
