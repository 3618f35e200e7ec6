import * as Y from 'yjs'
import { afterEach, expect, test, vi } from 'vitest'
import type { Memory, PoolId } from '../../src/index.js'
import { encodeHlc } from '../../src/core/clock.js'
import { toHex } from '../../src/core/bytes.js'
import { signRecord, signedRecordId, type SignedRecord, type UnsignedRecord } from '../../src/core/signed-record.js'
import { PoolKind } from '../../src/pools/records.js'
import { CHECKPOINT_KIND, checkpointBody, recordDigest, type CheckpointBody } from '../../src/sync/checkpoint.js'
import { RECORDS_MAP } from '../../src/sync/index.js'
import { T0, fact } from '../helpers/pools-helpers.js'
import { clock, devices, identityFor, network, seedCrypto, settle, snapshot, type Device } from '../helpers/sync-helpers.js'

/**
 * Checkpoints (src/sync/checkpoint.ts, docs/sync.md "Checkpoints"): the owner signs the digests of
 * records it verified, and a joiner checks one signature per checkpoint plus each covered record's
 * content id instead of one Ed25519 signature per record. What a joiner stores must not depend on
 * whether it trusts checkpoints: a forged checkpoint (not the owner's, a bad signature, or one that
 * lists a record whose value was altered) changes nothing, and records no checkpoint covers are
 * verified one by one.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
  vi.restoreAllMocks()
})

/** alice owns the pool and signs a checkpoint every 4 records; bob writes; carol joins trusting checkpoints, dave joins without. */
async function cast(): Promise<{ alice: Device; bob: Device; carol: Device; dave: Device }> {
  restore = seedCrypto(15)
  const c = clock()
  const { alice, bob, carol } = await devices(['alice', 'bob', 'carol'] as const, { clock: c, extra: { sync: { checkpointEvery: 4 } } })
  const { dave } = await devices(['dave'] as const, { clock: c, clientIdBase: 7000, extra: { sync: { trustCheckpoints: false } } })
  open.push(alice.mem, bob.mem, carol.mem, dave.mem)
  return { alice, bob, carol, dave }
}

const valuesOf = (doc: Y.Doc): Array<SignedRecord> => [...doc.getMap(RECORDS_MAP).values()] as SignedRecord[]

/** Ids of the pool's records a device stores, sorted (every kind: pool records, checkpoints). */
function storedIds(x: Device, pool: PoolId): string[] {
  const rows = (x.storage.dump() as { records?: Array<{ id: string; pool?: string }> }).records ?? []
  return rows.filter((r) => r.pool === pool).map((r) => r.id).sort()
}

/** Counts Ed25519 verifications (WebCrypto's, the backend `verifyRecord` uses here). */
function countVerifications(): { readonly count: number } {
  const spy = vi.spyOn(globalThis.crypto.subtle, 'verify')
  return { get count() { return spy.mock.calls.length } }
}

/** A pool of 10 memories by alice and 3 by bob, replicated between them; alice made checkpoints along the way. */
async function pool(alice: Device, bob: Device, readers: readonly Device[]) {
  const net = network()
  const id = (await alice.mem.pools.create({ name: 'household' })).id
  await alice.mem.pools.share(id, bob.id.did, { write: true })
  for (const r of readers) await alice.mem.pools.share(id, r.id.did)
  for (const x of [alice, bob]) await x.mem.sync.attach(id, net.provider(x.name))
  for (let i = 0; i < 10; i++) await alice.mem.pools.write(id, fact(`Person ${i}`, 'lives_in', `City ${i}`))
  await settle(net, [alice.mem, bob.mem])
  for (let i = 0; i < 3; i++) await bob.mem.pools.write(id, fact(`Guest ${i}`, 'likes', `Dish ${i}`))
  await settle(net, [alice.mem, bob.mem])
  return { net, pool: id }
}

test('a joiner trusting checkpoints stores what a joiner verifying every signature stores, and checks one signature per checkpoint plus the uncovered records', async () => {
  const { alice, bob, carol, dave } = await cast()
  const { net, pool: id } = await pool(alice, bob, [carol, dave])
  // Written while alice is away: no checkpoint of hers can cover them.
  net.setOnline('alice', false)
  for (let i = 0; i < 2; i++) await bob.mem.pools.write(id, fact(`Late ${i}`, 'likes', `Tea ${i}`))
  await settle(net, [alice.mem, bob.mem])
  net.setOnline('alice', true)
  // What the pool's document holds: checkpoints, the records they cover, and the rest.
  const spy = new Y.Doc()
  net.provider('observer').connect(id, spy, () => undefined)
  await settle(net, [alice.mem, bob.mem])
  const values = valuesOf(spy)
  const checkpoints = values.filter((v) => v.kind === CHECKPOINT_KIND)
  const covered = new Set(checkpoints.flatMap((c) => (c.body as CheckpointBody).digests.match(/.{32}/g)!))
  const records = values.filter((v) => v.kind !== CHECKPOINT_KIND)
  const uncovered = records.filter((r) => !covered.has(recordDigest(r)))
  expect(checkpoints.length).toBeGreaterThanOrEqual(2)
  expect(uncovered.length).toBeGreaterThan(0)
  expect(uncovered.length).toBeLessThan(records.length / 2)

  const verified = countVerifications()
  await carol.mem.sync.attach(id, net.provider('carol'))
  await settle(net, [alice.mem, bob.mem, carol.mem])
  const byCarol = verified.count
  await dave.mem.sync.attach(id, net.provider('dave'))
  await settle(net, [alice.mem, bob.mem, carol.mem, dave.mem])
  const byDave = verified.count - byCarol

  expect(byCarol).toBe(checkpoints.length + uncovered.length)
  expect(byDave).toBe(values.length)
  expect(storedIds(carol, id)).toEqual(storedIds(dave, id))
  expect(storedIds(carol, id)).toEqual(storedIds(alice, id))
  expect(await snapshot(carol.mem, id)).toEqual(await snapshot(dave.mem, id))
  expect(await snapshot(carol.mem, id)).toEqual(await snapshot(alice.mem, id))
  expect((await carol.mem.pools.info(id)).size).toBe(15)
})

test('forged checkpoints change nothing: not the owner, a bad signature, an altered record under a listed id; an uncovered forgery is still refused', async () => {
  const { alice, bob, carol, dave } = await cast()
  const { net, pool: id } = await pool(alice, bob, [carol, dave])
  // Mallory's copy of the pool, which the joiners will get from her alone.
  const evil = new Y.Doc()
  net.provider('mallory').connect(id, evil, () => undefined)
  await settle(net, [alice.mem, bob.mem])
  net.setOnline('alice', false)
  net.setOnline('bob', false)
  const map = evil.getMap(RECORDS_MAP)
  const values = valuesOf(evil)
  const listed = new Set(values.filter((v) => v.kind === CHECKPOINT_KIND).flatMap((c) => (c.body as CheckpointBody).digests.match(/.{32}/g)!))
  const victim = values.find((v) => v.kind === PoolKind.MEMORY && listed.has(recordDigest(v)))!
  const mallory = await identityFor('mallory')
  // Dated by the devices' clock (a record further than a minute ahead of it waits: docs/sync.md, "Clocks").
  const hlc = encodeHlc({ wall: T0 + 1, counter: 0, node: 'mallory' })
  // A record under someone else's name: its id is its content's, its signature is nobody's.
  let n = 0
  const unsigned = (r: UnsignedRecord): SignedRecord => ({ id: signedRecordId(r), ...r, sig: toHex(new Uint8Array(64).fill(++n)) })

  // 1. A listed id whose value was altered (same id and signature, another body).
  const victimBody = victim.body as { payload: { object: string } }
  map.set(victim.id, { ...victim, body: { payload: { ...victimBody.payload, object: 'Atlantis' } } })
  // 2. A memory "by alice" with a signature that is not hers, covered by a checkpoint bob (a writer, not the owner) signed.
  const forged = unsigned({ kind: PoolKind.MEMORY, pool: id, tenant: null, body: { payload: { ...victimBody.payload, object: 'Mordor' } }, author: alice.id.did, hlc })
  const byBob = await signRecord(bob.id, { kind: CHECKPOINT_KIND, pool: id, tenant: null, body: checkpointBody([forged]), author: bob.id.did, hlc })
  // 3. The same, in a checkpoint claiming alice as its author, signed by mallory (a bad signature).
  const forged2 = unsigned({ kind: PoolKind.MEMORY, pool: id, tenant: null, body: { payload: { ...victimBody.payload, object: 'Gondor' } }, author: alice.id.did, hlc })
  const mine = await signRecord(mallory, { kind: CHECKPOINT_KIND, pool: id, tenant: null, body: checkpointBody([forged2]), author: mallory.did, hlc })
  const { id: _, sig, ...rest } = mine
  const claimedUnsigned = { ...rest, author: alice.id.did }
  const claimed: SignedRecord = { id: signedRecordId(claimedUnsigned), ...claimedUnsigned, sig }
  // 4. Uncovered: bob's memory signed by mallory, listed by no checkpoint.
  const loose = unsigned({ kind: PoolKind.MEMORY, pool: id, tenant: null, body: { payload: { ...victimBody.payload, object: 'Narnia' } }, author: bob.id.did, hlc })
  evil.transact(() => {
    for (const r of [forged, byBob, forged2, claimed, loose]) map.set(r.id, { ...r })
  })

  for (const x of [carol, dave]) await x.mem.sync.attach(id, net.provider(x.name))
  await settle(net, [carol.mem, dave.mem])

  const reasons = async (mem: Memory): Promise<Record<string, string>> =>
    Object.fromEntries((await mem.sync.quarantine(id)).map((q) => [q.key, q.reason]))
  const expected = {
    [victim.id]: 'bad-signature', [forged.id]: 'bad-signature', [byBob.id]: 'not-owner',
    [forged2.id]: 'bad-signature', [claimed.id]: 'bad-signature', [loose.id]: 'bad-signature',
  }
  expect(await reasons(carol.mem)).toEqual(expected)
  expect(await reasons(dave.mem)).toEqual(expected)
  const objects = async (mem: Memory): Promise<string[]> => (await mem.pools.export(id)).memories.map((m) => String(m.content.object)).sort()
  for (const x of [carol, dave]) {
    const got = await objects(x.mem)
    for (const bad of ['Atlantis', 'Mordor', 'Gondor', 'Narnia']) expect(got).not.toContain(bad)
    expect(got).toHaveLength(12)
  }
  expect(storedIds(carol, id)).toEqual(storedIds(dave, id))
  expect(await snapshot(carol.mem, id)).toEqual(await snapshot(dave.mem, id))
})
