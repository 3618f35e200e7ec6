import { describe, expect, test } from 'vitest'
import { createIdentity, createMemory, indexedDbStorage, isMemweaveError, openMemory, type Memory } from '../../src/index.js'
import { dumpIndexedDb } from '../helpers/raw-indexeddb.js'

/**
 * Pools on real IndexedDB in Chromium, read back without Dexie: an encrypted pool leaves only
 * ciphertext in the rows, and forget leaves no row holding what was forgotten. Two agents are two
 * Memory objects on one database (as two tabs would be); WebCrypto here is Chromium's.
 */

async function twoAgents(name: string): Promise<{ a: Memory; b: Memory; bDid: string }> {
  const [ia, ib] = [await createIdentity(), await createIdentity()]
  const a = await createMemory({ storage: indexedDbStorage({ name }), identity: ia })
  const b = await createMemory({ storage: indexedDbStorage({ name }), identity: ib })
  return { a, b, bDid: ib.did }
}

describe('pools on real IndexedDB (Chromium)', () => {
  test('an encrypted pool: the raw IndexedDB rows contain no plaintext; the same data in a plain pool does', async () => {
    const secrets = ['Kestrel-40917', 'dermatologist_referral', 'prefers_morning_slot', 'before_the_school_run', 'Operation Larkspur']
    const run = async (encrypted: boolean): Promise<string> => {
      const name = `pools-${encrypted ? 'sealed' : 'plain'}-${crypto.randomUUID()}`
      const { a, b, bDid } = await twoAgents(name)
      const pool = await a.pools.create({ name: 'Operation Larkspur', privacy: encrypted ? ['ENCRYPTED', 'NO_TRAINING'] : ['NO_TRAINING'] })
      const m = await a.pools.write(pool.id, {
        type: 'PREFERENCE',
        content: { subject: 'dermatologist_referral', predicate: 'prefers_morning_slot', object: 'Kestrel-40917', context: 'before_the_school_run' },
        confidence: 0.9,
      })
      await a.pools.share(pool.id, bDid, { write: true })
      // The other agent reads it through its own handle: the wrap opened with Chromium's WebCrypto.
      const seen = await b.pools.query(pool.id)
      expect(seen.map((x) => x.content.object)).toEqual(['Kestrel-40917'])
      expect(seen[0]!.privacy).toMatchObject({ encrypted, noTraining: true })
      await b.pools.update(m.id, { confidence: 0.95 })
      await a.pools.revoke(pool.id, bDid)
      await a.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'dermatologist_referral', predicate: 'booked_for', object: 'Kestrel-40917 follow-up' } })
      await a.close()
      await b.close()
      return dumpIndexedDb(indexedDB, name)
    }
    const sealed = await run(true)
    expect(sealed).toContain('pool-memory')
    expect(sealed).toContain('"sealed"')
    for (const s of secrets) expect(sealed, s).not.toContain(s)
    const plain = await run(false)
    for (const s of secrets) expect(plain, s).toContain(s)
  })

  test('forget with and without cascade leaves no row holding the forgotten content; a fresh handle agrees', async () => {
    const name = `pools-forget-${crypto.randomUUID()}`
    const identity = await createIdentity()
    const mem = await createMemory({ storage: indexedDbStorage({ name }), identity })
    const pool = await mem.pools.create()
    const root = await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'said', object: 'Quillfeather-88 is my password hint' } })
    const dep = await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'hint_word', object: 'Quillfeather-88' }, evidence: [root.id] })
    const lone = await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Bo', predicate: 'pet', object: 'Marrowbone-51' } })
    const kept = await mem.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Cy', predicate: 'city', object: 'Oslo' } })
    expect(dep.factRef).not.toBeNull()
    expect(await mem.pools.forget(lone.id)).toEqual([lone.id])
    expect((await mem.pools.forget(root.id, { cascade: true })).sort()).toEqual([root.id, dep.id].sort())
    await mem.close()
    const raw = await dumpIndexedDb(indexedDB, name)
    expect(raw).not.toContain('Quillfeather-88')
    expect(raw).not.toContain('Marrowbone-51')
    expect(raw).toContain('Oslo')
    const again = await createMemory({ storage: indexedDbStorage({ name }), identity })
    expect((await again.pools.query(pool.id)).map((m) => m.id)).toEqual([kept.id])
    expect(await again.pools.status(root.id)).toBe('forgotten')
    expect((await again.facts.audit()).map((f) => f.metadata['memoryId'])).toEqual([kept.id])
    await again.close()
  })

  test('pools through openMemory: the worker hosts them, results and error codes cross comlink', async () => {
    const name = `pools-worker-${crypto.randomUUID()}`
    const worker = new URL('../../worker/memory-worker.ts', import.meta.url)
    const [ia, ib] = [await createIdentity(), await createIdentity()]
    const a = await openMemory({ name, worker, mode: 'dedicated', identity: ia })
    const b = await createMemory({ storage: indexedDbStorage({ name }), identity: ib })
    const pool = await a.pools.create({ name: 'via worker', privacy: 'ENCRYPTED' })
    const m = await a.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
    await a.pools.share(pool.id, ib.did)
    expect((await b.pools.query(pool.id)).map((x) => x.id)).toEqual([m.id])
    let caught: unknown
    try {
      await b.pools.write(pool.id, { type: 'KNOWLEDGE', content: { subject: 'x', predicate: 'y', object: 'z' } })
    } catch (err) {
      caught = err
    }
    expect(isMemweaveError(caught) && caught.code).toBe('PERMISSION_DENIED')
    await expect(a.pools.write(pool.id, { type: 'NOPE' as never, content: { subject: 'x', predicate: 'y', object: 'z' } }))
      .rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'type' } })
    const exported = await a.pools.export(pool.id)
    expect(exported.memories.map((x) => x.content.object)).toEqual(['Rome'])
    await a.close()
    await b.close()
  })
})
