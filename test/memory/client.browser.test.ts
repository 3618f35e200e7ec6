import { describe, expect, test } from 'vitest'
import { createIdentity, isMemweaveError, openMemory, type OpenMemoryOptions, type RemoteMemory } from '../../src/index.js'

const worker = new URL('../../worker/memory-worker.ts', import.meta.url)
const open = (o: OpenMemoryOptions): Promise<RemoteMemory> => openMemory({ worker, ...o })
const nextCall = <T>() => {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

describe.each(['shared', 'dedicated'] as const)('openMemory in %s mode', (mode) => {
  test('the client has the API of createMemory, runs in a worker, and errors keep their code', async () => {
    const name = `client-${mode}-${crypto.randomUUID()}`
    const mem = await open({ name, mode, capabilities: ['audit', 'provenance'] })
    expect(mem.runtime.mode).toBe(mode)
    const ref = await mem.facts.write('written through the worker')
    expect((await mem.facts.audit()).map((m) => m.ref)).toEqual([ref])
    let caught: unknown
    try {
      await mem.facts.supersede(ref, 'x')
    } catch (err) {
      caught = err
    }
    expect(isMemweaveError(caught)).toBe(true)
    expect(caught).toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', details: { capability: 'supersession_chain', operation: 'supersede' } })
    await expect(mem.facts.write(42 as unknown as string)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'content' } })
    await mem.close()
    await mem.close()
  })

  test('facts.freeTextConflicts reaches the worker: off, two contradicting texts list nothing; on (default), one pair (issue 29)', async () => {
    const listed = async (facts: OpenMemoryOptions['facts']) => {
      const mem = await open({ name: `client-${mode}-${crypto.randomUUID()}`, mode, ...(facts ? { facts } : {}) })
      await mem.facts.write('The weekly sync is on Tuesday')
      await mem.facts.write('The weekly sync is on Thursday')
      const kinds = (await mem.facts.conflicts()).map((c) => c.kind)
      await mem.close()
      return kinds
    }
    expect(await listed(undefined)).toEqual(['free-text'])
    expect(await listed({ freeTextConflicts: false })).toEqual([])
  })

  test('two clients of one origin see each other; live queries fire across them', async () => {
    const name = `client-${mode}-${crypto.randomUUID()}`
    const a = await open({ name, mode })
    const b = await open({ name, mode })
    const hits = nextCall<string[]>()
    const results: string[][] = []
    const stop = await a.facts.subscribe('lighthouse keeper', { budgetTokens: 500 }, (ms) => {
      results.push(ms.map((m) => m.content))
      if (ms[0]?.content.includes('lighthouse')) hits.resolve(ms.map((m) => m.content))
    })
    const t0 = performance.now()
    const written = await Promise.all(Array.from({ length: 50 }, (_, i) => b.facts.write(`note ${i} from b`)))
    await b.facts.write('The lighthouse keeper retires in May')
    expect(await hits.promise).toContain('The lighthouse keeper retires in May')
    console.log(`live query in A fired ${(performance.now() - t0).toFixed(1)} ms after B began writing (${mode})`)
    expect(new Set(written).size).toBe(50)
    expect((await a.facts.audit()).length).toBe(51)
    stop()
    await a.close()
    await b.close()
  })

  test('a non-extractable identity signs in the worker; provenance verifies in the page', async () => {
    const identity = await createIdentity({ nonExtractable: true })
    const mem = await open({ name: `client-${mode}-${crypto.randomUUID()}`, mode, identity })
    await mem.facts.write('signed in the worker')
    const [m] = await mem.facts.retrieve('signed', { topK: 1 })
    expect(m!.source!.publicKey).toEqual(identity.publicKey)
    expect(await mem.facts.verifyProvenance(m!, m!.factId)).toBe(true)
    await mem.close()
  })
})

describe('dedicated fallback: Web Locks leader election', () => {
  test('one worker leads; a follower forwards writes; leadership hands over without losing queued writes', async () => {
    const name = `election-${crypto.randomUUID()}`
    const a = await open({ name, mode: 'dedicated' })
    const b = await open({ name, mode: 'dedicated' })
    const leaders = async () => [await a.runtime.isLeader(), await b.runtime.isLeader()]
    await expect.poll(leaders).toSatisfy((l: Array<boolean | null>) => l.filter(Boolean).length === 1)
    const [leader, follower] = (await a.runtime.isLeader()) ? [a, b] : [b, a]
    const fromFollower = await Promise.all(Array.from({ length: 100 }, (_, i) => follower.facts.write(`follower fact ${i}`)))
    expect(new Set(fromFollower).size).toBe(100)
    expect((await leader.facts.audit()).length).toBe(100)
    // The follower queues a burst, and the leader goes away mid-burst.
    const burst = Array.from({ length: 100 }, (_, i) => follower.facts.write(`handover fact ${i}`))
    await leader.close()
    const refs = await Promise.all(burst)
    expect(new Set(refs).size).toBe(100)
    await expect.poll(() => follower.runtime.isLeader()).toBe(true)
    const all = await follower.facts.audit()
    expect(all.length).toBe(200)
    expect(new Set(all.map((m) => m.content)).size).toBe(200)
    await follower.close()
  })
})

describe('dedicated fallback: one sync replica per origin', () => {
  test("only the leader runs sync: a follower's calls and status go through it, and a new leader takes its links over", async () => {
    const name = `tab-sync-${crypto.randomUUID()}`
    const identity = await createIdentity()
    const a = await open({ name, mode: 'dedicated', identity })
    const b = await open({ name, mode: 'dedicated', identity })
    await expect.poll(async () => [await a.runtime.isLeader(), await b.runtime.isLeader()].filter(Boolean).length).toBe(1)
    const [leader, follower] = (await a.runtime.isLeader()) ? [a, b] : [b, a]
    const pool = (await follower.pools.create({ name: 'tabs' })).id
    // Nothing listens on port 9: the link stays down, which is all this test needs to see where it lives.
    await follower.sync.connect(pool, { url: 'ws://127.0.0.1:9', token: 'opaque' })
    const seen: string[] = []
    await follower.sync.subscribe((s) => void seen.push(s.pools.map((p) => `${p.pool}:${p.links}`).join()))
    const status = await leader.sync.status()
    expect(status.pools).toMatchObject([{ pool, links: 1, connected: false }])
    expect(await follower.sync.status()).toEqual(status)
    expect(seen.at(-1)).toBe(`${pool}:1`)
    // The follower's write reaches the leader's document through the shared database.
    await follower.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: 'tab', predicate: 'is', object: 'follower' } })
    await expect.poll(async () => (await leader.sync.status()).pools[0]?.records).toBe(2)

    await leader.close()
    await expect.poll(() => follower.runtime.isLeader()).toBe(true)
    // The new leader connected the same pool to the same relay by itself, with what it had queued.
    await expect.poll(async () => (await follower.sync.status()).pools).toMatchObject([{ pool, links: 1, records: 2 }])
    await follower.sync.disconnect(pool)
    expect((await follower.sync.status()).pools).toMatchObject([{ pool, links: 0 }])
    await follower.close()
  })
})

describe('identities kept in IndexedDB', () => {
  test('a saved identity comes back with the same DID and a key no script can export', async () => {
    const { loadOrCreateIdentity, deleteIdentity } = await import('../../src/index.js')
    const label = `agent-${crypto.randomUUID()}`
    const first = await loadOrCreateIdentity(label)
    const again = await loadOrCreateIdentity(label)
    expect(again.did).toBe(first.did)
    const keys = (await import('../../src/index.js')).identityKeys(again)
    expect(keys.type).toBe('cryptokey')
    if (keys.type === 'cryptokey') {
      expect(keys.privateKey.extractable).toBe(false)
      await expect(crypto.subtle.exportKey('pkcs8', keys.privateKey)).rejects.toThrow()
    }
    const mem = await open({ name: `ident-${crypto.randomUUID()}`, identity: again })
    await mem.facts.write('signed by a stored key')
    const [m] = await mem.facts.retrieve('stored key', { topK: 1 })
    expect(await mem.facts.verifyProvenance(m!, m!.factId)).toBe(true)
    await mem.close()
    await deleteIdentity(label)
    expect((await loadOrCreateIdentity(label)).did).not.toBe(first.did)
    await deleteIdentity(label)
  })
})
