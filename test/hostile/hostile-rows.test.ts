import { expect, test } from 'vitest'
import { SignatureCache } from '../../src/core/signature-cache.js'
import { signRecord, PoolKind, type AclBody, type PoolRecord } from '../../src/pools/records.js'
import type { StoragePort } from '../../src/index.js'
import { agents, fact } from '../helpers/pools-helpers.js'

/**
 * Regression (issue 26, case 9): a second handle on the same storage (another tab's Dexie, another
 * file handle) deleted the owner's ACL record and put another body back under its id and signature.
 * The open Memory had verified that id once and applied the row put back without a check: a forged
 * owner grant gave a stranger write access on that replica. Every row put back is checked again.
 */

/** What a second handle writes: rows of `records` and their log row, outside any Memory. */
async function plant(storage: StoragePort, put: readonly PoolRecord[], del: readonly string[]): Promise<void> {
  await storage.write(['records', 'log'], async (tx) => {
    if (del.length) await tx.delete('records', [...del])
    if (put.length) await tx.put('records', [...put])
    await tx.put('log', [{ put: put.map((r) => r.id), del: [...del] }])
  })
}

test('an owner ACL row deleted and put back with another body under its id and signature gives the stranger nothing', async () => {
  const { mem, id, storage, close } = await agents(['owner', 'reader', 'stranger'])
  const pool = (await mem.owner.pools.create()).id
  await mem.owner.pools.share(pool, id.reader.did, { write: false })
  const grant = (await storage.read(['records'], (tx) => tx.where<PoolRecord>('records', 'kind', PoolKind.ACL)))
    .find((r) => (r.body as AclBody).member === id.reader.did)!
  expect(grant).toBeDefined()

  // The second handle takes the row away, the Memory catches up, and the row comes back forged.
  await plant(storage, [], [grant.id])
  expect(await mem.owner.pools.access(pool, id.reader.did)).toEqual({ read: false, write: false, owner: false })
  const forged: PoolRecord = { ...grant, body: { ...(grant.body as AclBody), member: id.stranger.did, read: true, write: true } }
  await plant(storage, [forged], [])

  expect(await mem.owner.pools.access(pool, id.stranger.did)).toEqual({ read: false, write: false, owner: false })
  await expect(mem.stranger.pools.write(pool, fact('Mallory', 'owns', 'everything'))).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
  // The genuine row put back is accepted again: a checked row, not a refused id.
  await plant(storage, [grant], [])
  expect(await mem.owner.pools.access(pool, id.reader.did)).toEqual({ read: true, write: false, owner: false })
  await close()
})

test('a row read back from storage under a verified id and signature is verified again when its bytes differ', async () => {
  const { id, close } = await agents(['owner'])
  const cache = new SignatureCache()
  const record = await signRecord(id.owner, {
    kind: PoolKind.ACL, pool: '0'.repeat(32) as never, tenant: null, author: id.owner.did, hlc: '000000000001.000000',
    body: { member: id.owner.did, read: true, write: false, expiresAt: null },
  })
  expect((await cache.verifyStored([{ ...record }])).get(SignatureCache.key(record))).toBe(true)
  const other = { ...record, body: { ...record.body, write: true } }
  expect((await cache.verifyStored([other])).get(SignatureCache.key(other))).toBe(false)
  // And after a session saved its verdicts (restore), likewise.
  const next = new SignatureCache()
  next.restore(cache.takeUnsaved())
  expect((await next.verifyStored([other])).get(SignatureCache.key(other))).toBe(false)
  expect((await next.verifyStored([{ ...record }])).get(SignatureCache.key(record))).toBe(true)
  await close()
})

test('an oversized memory put into storage by another handle is not taken in: facts, writes, share and revoke go on', async () => {
  const { mem, id, storage, close } = await agents(['owner', 'member', 'other'])
  const pool = (await mem.owner.pools.create()).id
  await mem.owner.pools.share(pool, id.member.did, { write: true })
  await mem.owner.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  // The member signs a memory the API would refuse and stores it without any Memory: a valid signature, a 10 MB object.
  const big = await signRecord(id.member, {
    kind: PoolKind.MEMORY, pool, tenant: null, author: id.member.did, hlc: `${Date.now().toString(16).padStart(12, '0')}.000000.member`,
    body: { payload: {
      type: 'KNOWLEDGE', subject: 'Mallory', predicate: 'is', object: 'x'.repeat(10 << 20), context: null, confidence: 1, source: 'direct_statement',
      evidence: [], createdAt: Date.now(), ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
    } },
  })
  await plant(storage, [big as PoolRecord], [])

  await mem.owner.pools.write(pool, fact('Bruno', 'lives_in', 'Oslo'))
  await mem.owner.pools.share(pool, id.other.did, { write: false })
  await mem.owner.pools.revoke(pool, id.other.did)
  expect((await mem.owner.pools.export(pool)).memories.map((m) => m.content.subject).sort()).toEqual(['Aria', 'Bruno'])
  const facts = (await mem.owner.facts.audit()).filter((f) => f.metadata['pool'] === pool).map((f) => f.metadata['subject']).sort()
  expect(facts).toEqual(['Aria', 'Bruno'])
  await close()
})
