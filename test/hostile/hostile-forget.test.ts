import { expect, test } from 'vitest'
import { PoolKind, type TombstoneBody } from '../../src/pools/records.js'
import { asValue } from '../../e2e/raw-client.js'
import { fact } from '../helpers/pools-helpers.js'
import { arena, writersArena, eventually, memoryBody, objects, signedAt } from '../helpers/hostile-helpers.js'

/**
 * Regression (issue 13, "Hostile peers" 3): any writer's signed `forget` tombstone of anyone's
 * memory was obeyed on every replica, and `bob.pools.forget(aliceMemory)` succeeded. Now only the
 * memory's author or the pool's owner may forget it (unless the pool's policy says
 * `forgetBy: 'writers'`); expiry and EPHEMERAL consumption count only where the record shows them.
 */
test('a writer’s tombstones of the owner’s memory, from a raw client, are ignored on every replica; its own memory it may forget', async () => {
  const { a, bob, malloryId } = await writersArena()
  const rome = await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  const mallory = await a.raw(malloryId.did, true)
  const own = await signedAt(malloryId, a.pool, PoolKind.MEMORY, memoryBody('mallory', 'mine'), Date.now())
  mallory.records.set(own.id, asValue(own))
  for (const r of [a.owner, bob]) await eventually(() => objects(r.mem, a.pool), ['Rome', 'mine'])

  // Signed by a writer in good standing, for every reason a tombstone can give, plus the key's removal.
  const reasons: TombstoneBody['reason'][] = ['forget', 'cascade', 'expired', 'ephemeral', 'pruned', 'session-end']
  const tombstones = await Promise.all(reasons.map((reason) =>
    signedAt<TombstoneBody>(malloryId, a.pool, PoolKind.TOMBSTONE, { targets: [{ id: rome.id, supersedes: [] }], reason }, Date.now())))
  const mineGone = await signedAt<TombstoneBody>(malloryId, a.pool, PoolKind.TOMBSTONE, { targets: [{ id: own.id, supersedes: [] }], reason: 'forget' }, Date.now())
  mallory.doc.transact(() => {
    for (const t of tombstones) mallory.records.set(t.id, asValue(t))
    mallory.records.delete(rome.id)
    mallory.records.set(mineGone.id, asValue(mineGone))
  })

  // Her own memory goes everywhere; the owner's stays everywhere, and is back in her document (healed).
  await bob.mem.pools.write(a.pool, fact('Bruno', 'lives_in', 'Oslo'))
  for (const r of [a.owner, bob]) {
    await eventually(() => objects(r.mem, a.pool), ['Oslo', 'Rome'])
    expect(await r.mem.pools.status(rome.id)).not.toBe('forgotten')
    expect(await r.mem.pools.status(own.id)).toBe('forgotten')
  }
  await eventually(() => mallory.records.has(rome.id), true)
  // Who forgot what, as every replica tells it: her own memory, by her; nothing else.
  for (const r of [a.owner, bob]) {
    expect((await r.mem.pools.forgotten(a.pool)).map((f) => [f.memory, f.by, f.reason])).toEqual([[own.id, malloryId.did, 'forget']])
  }
  // A device that joins later gets the owner's memory.
  const carol = await a.replica('carol')
  await a.owner.mem.pools.share(a.pool, carol.id.did, { write: false })
  await eventually(() => objects(carol.mem, a.pool), ['Oslo', 'Rome'])
}, 60_000)

test('the public API refuses a writer’s forget of another’s memory with PERMISSION_DENIED, and nothing changes', async () => {
  const a = await arena()
  const bob = await a.replica('bob')
  await a.owner.mem.pools.share(a.pool, bob.id.did, { write: true })
  const rome = await a.owner.mem.pools.write(a.pool, fact('Aria', 'lives_in', 'Rome'))
  await eventually(() => objects(bob.mem, a.pool), ['Rome'])
  const before = await bob.mem.pools.export(a.pool)

  await expect(bob.mem.pools.forget(rome.id)).rejects.toMatchObject({ code: 'PERMISSION_DENIED', details: { ids: [rome.id] } })
  await expect(bob.mem.pools.forget(rome.id, { cascade: true })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
  // Bob's own memory built on Alice's: a cascade from his would be fine, one from hers reaches it and is refused whole.
  const mine = await bob.mem.pools.write(a.pool, fact('Aria', 'visits', 'Oslo', { evidence: [rome.id] }))
  await expect(bob.mem.pools.forget(rome.id, { cascade: true })).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
  expect(await bob.mem.pools.status(mine.id)).not.toBe('forgotten')
  expect((await bob.mem.pools.export(a.pool)).memories.length).toBe(before.memories.length + 1)
  for (const r of [a.owner, bob]) await eventually(() => objects(r.mem, a.pool), ['Oslo', 'Rome'])

  // The owner may; and under forgetBy: 'writers' a writer may too.
  expect(await bob.mem.pools.forget(mine.id)).toEqual([mine.id])
  const lima = await bob.mem.pools.write(a.pool, fact('Carla', 'lives_in', 'Lima'))
  await eventually(() => objects(a.owner.mem, a.pool), ['Lima', 'Rome'])
  expect(await a.owner.mem.pools.forget(lima.id)).toEqual([lima.id])
  await a.owner.mem.pools.configure(a.pool, { forgetBy: 'writers' })
  await eventually(async () => (await bob.mem.pools.info(a.pool)).policies.forgetBy, 'writers')
  expect(await bob.mem.pools.forget(rome.id)).toEqual([rome.id])
  for (const r of [a.owner, bob]) await eventually(() => objects(r.mem, a.pool), [])
}, 60_000)
