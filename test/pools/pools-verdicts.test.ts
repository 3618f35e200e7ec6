import { expect, test, vi } from 'vitest'
import { createIdentity } from '../../src/core/identity.js'
import * as signed from '../../src/core/signed-record.js'
import { createMemory, memoryStorage, type StoragePort } from '../../src/index.js'
import { PoolKind, signRecord, type PoolRecord } from '../../src/pools/records.js'
import { fact } from '../helpers/pools-helpers.js'

// Every full signature check goes through verifyRecord: count them.
vi.mock('../../src/core/signed-record.js', async (original) => {
  const real = await original<typeof import('../../src/core/signed-record.js')>()
  return { ...real, verifyRecord: vi.fn(real.verifyRecord) }
})
const checks = (): number => vi.mocked(signed.verifyRecord).mock.calls.length

async function rows(storage: StoragePort, table: string): Promise<Array<Record<string, unknown>>> {
  return storage.read([table], (tx) => tx.all<Record<string, unknown>>(table))
}

/**
 * Signature verdicts outlive the session (src/core/signature-cache.ts, verifyStored): a reopened
 * Memory checks no Ed25519 signature of a record that verified (or was signed) on this storage
 * before, only that its id is still its content's; a record changed under its id and signature,
 * and one put into storage without passing through memweave, are checked in full and refused.
 */
test('a reopened Memory trusts what verified on this storage before, and still refuses changed or injected records', async () => {
  const storage = memoryStorage()
  // Held open by the test itself, so it can read and change rows between sessions.
  await storage.open()
  const owner = await createIdentity()
  const mallory = await createIdentity()
  const first = await createMemory({ storage, identity: owner })
  const pool = (await first.pools.create({ name: 'kept' })).id
  const written: Array<{ id: string }> = []
  for (let i = 0; i < 30; i++) written.push(await first.pools.write(pool, fact(`person${i}`, 'lives_in', `city${i}`)))
  await first.close()
  expect((await rows(storage, 'meta')).some((r) => String(r['key']).startsWith('pool-verdicts:'))).toBe(true)

  // A stored memory whose object is changed under its id and signature, and a record claiming the
  // owner's name with Mallory's signature, put into storage directly.
  const records = (await rows(storage, 'records')) as unknown as PoolRecord[]
  const victim = records.find((r) => r.id === written[0]!.id)!
  const body = victim.body as unknown as { payload: { content: { object: string } } }
  const changed = { ...victim, body: { ...body, payload: { ...body.payload, content: { ...body.payload.content, object: 'Mallorca' } } } }
  const forged = {
    ...(await signRecord(mallory, { kind: PoolKind.MEMORY, pool, tenant: null, author: mallory.did, hlc: victim.hlc, body: { payload: { ...body.payload, content: { ...body.payload.content, object: 'forged' } } } as never })),
    author: owner.did,
  }
  await storage.write(['records', 'log'], async (tx) => {
    await tx.put('records', [changed, forged])
    await tx.put('log', [{ ref: changed.id, op: 'put' }, { ref: forged.id, op: 'put' }])
  })

  const before = checks()
  const second = await createMemory({ storage, identity: owner })
  const seen = await second.pools.query(pool, { limit: 100 })
  const objects = seen.map((m) => String(m.content.object))
  expect(objects).toHaveLength(29)
  expect(objects).not.toContain('Mallorca')
  expect(objects).not.toContain('forged')
  expect(objects).not.toContain('city0')
  // The changed and the forged record were checked in full; the 29 others and the pool's own records were not.
  expect(checks() - before).toBe(2)
  await second.close()

  // Without the saved verdicts, every record is checked again (what the test above spares).
  await storage.write(['meta'], async (tx) => {
    const keys = (await tx.all<{ key: string }>('meta')).map((r) => r.key).filter((k) => k.startsWith('pool-verdicts:'))
    await tx.delete('meta', keys)
  })
  const again = checks()
  const third = await createMemory({ storage, identity: owner })
  expect(await third.pools.query(pool, { limit: 100 })).toHaveLength(29)
  expect(checks() - again).toBeGreaterThanOrEqual(31)
  await third.close()
  await storage.close()
})
