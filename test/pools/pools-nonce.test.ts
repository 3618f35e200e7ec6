import { describe, expect, test } from 'vitest'
import { createPoolToken, verifyPoolToken } from '../../src/index.js'
import { derivePoolId } from '../../src/pools/records.js'
import { agents } from '../helpers/pools-helpers.js'

// PoolInfo.nonce exists so that an application (the demo) can mint owner-proven pool tokens
// through the public API, without reading the pool-create record out of IndexedDB.
describe('PoolInfo.nonce: the ownership proof of pool tokens', () => {
  test.each([null, 'acme'])('the nonce derives the pool id and proves the owner to verifyPoolToken (tenant %s)', async (tenantId) => {
    const a = await agents(['owner', 'member'])
    try {
      const pool = await a.mem.owner.pools.create({ name: 'household', tenantId })
      expect(pool.nonce).toMatch(/^[0-9a-f]{32}$/)
      expect(derivePoolId(a.id.owner.did, pool.nonce, pool.tenantId)).toBe(pool.id)
      await a.mem.owner.pools.share(pool.id, a.id.member.did, { write: true })
      // Another agent holding the pool's records sees the same nonce (it is public, like the record).
      expect((await a.mem.member.pools.info(pool.id)).nonce).toBe(pool.nonce)
      expect((await a.mem.owner.pools.list()).map((p) => p.nonce)).toEqual([pool.nonce])
      const token = await createPoolToken(a.id.owner, {
        pool: pool.id, sub: a.id.member.did, write: true, expiresAt: Date.now() + 60_000,
        ownerProof: { nonce: pool.nonce, tenant: pool.tenantId },
      })
      const grant = await verifyPoolToken(token, { pool: pool.id })
      expect(grant).toMatchObject({ owner: a.id.owner.did, sub: a.id.member.did, ownerProven: true })
    } finally {
      await a.close()
    }
  })
})
