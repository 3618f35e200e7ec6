import { expect, test } from 'vitest'
import { PoolKind, type TombstoneBody } from '../../src/pools/records.js'
import { asValue } from '../../e2e/raw-client.js'
import { fact } from '../helpers/pools-helpers.js'
import { arena, writersArena, eventually, memoryBody, objects, signedAt, sleep } from '../helpers/hostile-helpers.js'
import { identityFor } from '../helpers/sync-helpers.js'

/**
 * Regression (issue 13, "Hostile peers" 2): records are judged by their author's rights at their
 * own timestamp, which the author chooses. A member revoked by the owner signed records after the
 * revocation, dated them between its grant and the revocation, and every replica accepted them.
 * The revocation now carries a cutoff (the member's records the owner held): nothing else of the
 * member dated before it counts, whatever its date.
 */
test('a revoked member that backdates its records into its old grant is refused on every replica', async () => {
  const { a, bob, malloryId } = await writersArena()
  const mallory = await a.raw(malloryId.did, true)
  await sleep(30)

  // While a writer, mallory writes honestly: that memory stays after the revocation.
  const early = await signedAt(malloryId, a.pool, PoolKind.MEMORY, memoryBody('mallory', 'early'), Date.now())
  mallory.records.set(early.id, asValue(early))
  for (const r of [a.owner, bob]) await eventually(() => objects(r.mem, a.pool), ['early'])
  await sleep(30)
  const insideOldGrant = Date.now()
  await sleep(30)
  await a.owner.mem.pools.revoke(a.pool, malloryId.did)
  await eventually(async () => (await bob.mem.pools.info(a.pool)).members.some((m) => m.did === malloryId.did), false)

  // After the revocation (her token still valid at the relay), records dated inside the old grant.
  const backdated = await signedAt(malloryId, a.pool, PoolKind.MEMORY, memoryBody('mallory', 'backdated'), insideOldGrant)
  const erase = await signedAt<TombstoneBody>(malloryId, a.pool, PoolKind.TOMBSTONE, { targets: [{ id: early.id, supersedes: [] }], reason: 'forget' }, insideOldGrant)
  mallory.doc.transact(() => {
    mallory.records.set(backdated.id, asValue(backdated))
    mallory.records.set(erase.id, asValue(erase))
  })
  // An honest write after the attack: once it is everywhere, the attack was judged everywhere.
  await bob.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  for (const r of [a.owner, bob]) {
    await eventually(() => objects(r.mem, a.pool), ['Rome', 'early'])
    await eventually(async () => (await r.mem.sync.quarantine(a.pool)).map((q) => `${q.key} ${q.reason}`).sort(), [`${backdated.id} not-member`, `${erase.id} not-member`].sort())
  }
  // A device that joins later judges the same.
  const carol = await a.replica('carol')
  await a.owner.mem.pools.share(a.pool, carol.id.did, { write: false })
  await eventually(() => objects(carol.mem, a.pool), ['Rome', 'early'])
  expect((await carol.mem.sync.quarantine(a.pool)).map((q) => q.key).sort()).toEqual([backdated.id, erase.id].sort())
}, 60_000)

test('a writer made a reader cannot backdate writes into its old grant; its reads still count', async () => {
  const a = await arena()
  const malloryId = await identityFor('mallory')
  await a.owner.mem.pools.share(a.pool, malloryId.did, { write: true })
  const mallory = await a.raw(malloryId.did, true)
  await sleep(30)
  const early = await signedAt(malloryId, a.pool, PoolKind.MEMORY, memoryBody('mallory', 'early'), Date.now())
  mallory.records.set(early.id, asValue(early))
  await eventually(() => objects(a.owner.mem, a.pool), ['early'])
  await sleep(30)
  const insideOldGrant = Date.now()
  await sleep(30)
  await a.owner.mem.pools.share(a.pool, malloryId.did, { write: false })
  expect(await a.owner.mem.pools.access(a.pool, malloryId.did)).toMatchObject({ read: true, write: false })

  const backdated = await signedAt(malloryId, a.pool, PoolKind.MEMORY, memoryBody('mallory', 'backdated'), insideOldGrant)
  const rating = await signedAt(malloryId, a.pool, PoolKind.RATING, { memory: early.id, rating: 1 }, insideOldGrant)
  mallory.doc.transact(() => {
    mallory.records.set(backdated.id, asValue(backdated))
    mallory.records.set(rating.id, asValue(rating))
  })
  await eventually(async () => (await a.owner.mem.sync.quarantine(a.pool)).map((q) => `${q.key} ${q.reason}`), [`${backdated.id} read-only`])
  expect(await objects(a.owner.mem, a.pool)).toEqual(['early'])
}, 60_000)
