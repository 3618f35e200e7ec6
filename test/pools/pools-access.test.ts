import { describe, expect, test } from 'vitest'
import { createMemory, memoryStorage, type StoragePort } from '../../src/index.js'
import { isPayload } from '../../src/pools/payload.js'
import { PoolKind, derivePoolId, isPoolRecord, signRecord, type PoolRecord } from '../../src/pools/records.js'
import { PoolState } from '../../src/pools/state.js'
import { viewAt } from '../../src/pools/view.js'
import { encodeHlc } from '../../src/core/clock.js'
import { DAY, agents, expectCode, fact, pref } from '../helpers/pools-helpers.js'

/** LCS-004 §2 access control and §9 sharing: who may read, write and administer a pool, enforced on every operation. */

async function inject(storage: StoragePort, records: PoolRecord[]): Promise<void> {
  await storage.write(['records', 'log'], async (tx) => {
    await tx.put('records', records)
    await tx.put('log', records.map((r) => ({ ref: r.id, op: 'put' })))
  })
}

describe('pool access', () => {
  test('the creator owns the pool; a memory without an identity cannot act in pools', async () => {
    const { mem, id, storage, close } = await agents(['alice'])
    const pool = await mem.alice.pools.create({ name: 'prefs' })
    expect(pool).toMatchObject({ owner: id.alice.did, name: 'prefs', access: { read: true, write: true, owner: true }, size: 0 })
    expect(pool.members).toEqual([{ did: id.alice.did, read: true, write: true, owner: true, expiresAt: null }])
    expect(pool.id).toMatch(/^[0-9a-f]{32}$/)
    const anonymous = await createMemory({ storage })
    await expectCode(anonymous.pools.create(), 'PERMISSION_DENIED')
    await expectCode(anonymous.pools.write(pool.id, pref('x')), 'PERMISSION_DENIED')
    await expectCode(anonymous.pools.info(pool.id), 'PERMISSION_DENIED')
    await expectCode(mem.alice.pools.info('00'.repeat(16)), 'NOT_FOUND')
    await anonymous.close()
    await close()
  })

  test('a reader reads but every write is PERMISSION_DENIED; only the owner administers', async () => {
    const { mem, id, close } = await agents(['owner', 'reader', 'stranger'])
    const pool = await mem.owner.pools.create()
    const m = await mem.owner.pools.write(pool.id, pref('bullet_points'))
    await mem.owner.pools.share(pool.id, id.reader.did)
    expect(await mem.reader.pools.access(pool.id)).toEqual({ read: true, write: false, owner: false })
    expect((await mem.reader.pools.query(pool.id)).map((x) => x.id)).toEqual([m.id])
    expect(await mem.reader.pools.get(m.id)).toMatchObject({ id: m.id, content: { object: 'bullet_points' } })

    await expectCode(mem.reader.pools.write(pool.id, pref('paragraphs')), 'PERMISSION_DENIED')
    await expectCode(mem.reader.pools.update(m.id, { confidence: 0.1 }), 'PERMISSION_DENIED')
    await expectCode(mem.reader.pools.forget(m.id), 'PERMISSION_DENIED')
    await expectCode(mem.reader.pools.sweep(pool.id), 'PERMISSION_DENIED')
    await expectCode(mem.reader.pools.import([], { poolId: pool.id }), 'PERMISSION_DENIED')
    await expectCode(mem.reader.pools.share(pool.id, id.stranger.did), 'PERMISSION_DENIED')
    await expectCode(mem.reader.pools.revoke(pool.id, id.owner.did), 'PERMISSION_DENIED')
    await expectCode(mem.reader.pools.configure(pool.id, { autoMerge: true }), 'PERMISSION_DENIED')
    expect((await mem.owner.pools.query(pool.id)).map((x) => x.id)).toEqual([m.id])

    // A writer writes, and still cannot administer.
    await mem.owner.pools.share(pool.id, id.reader.did, { write: true })
    const w = await mem.reader.pools.write(pool.id, fact('Aria', 'lives_in', 'Rome'))
    expect(w.author).toBe(id.reader.did)
    await expectCode(mem.reader.pools.share(pool.id, id.stranger.did), 'PERMISSION_DENIED')
    await expectCode(mem.owner.pools.revoke(pool.id, id.owner.did), 'INVALID_ARGUMENT', 'agentDid')
    expect((await mem.owner.pools.info(pool.id)).members.map((x) => [x.did, x.write])).toEqual([
      [id.owner.did, true],
      [id.reader.did, true],
    ])
    await close()
  })

  test('a revoked agent loses every access; what it wrote while it could stays', async () => {
    const { mem, id, close } = await agents(['owner', 'bob'])
    const pool = await mem.owner.pools.create()
    await mem.owner.pools.share(pool.id, id.bob.did, { write: true })
    const byBob = await mem.bob.pools.write(pool.id, fact('Aria', 'likes', 'tea'))
    const byOwner = await mem.owner.pools.write(pool.id, fact('Aria', 'likes', 'jazz'))
    expect((await mem.bob.pools.query(pool.id)).length).toBe(2)

    await mem.owner.pools.revoke(pool.id, id.bob.did)
    expect(await mem.bob.pools.access(pool.id)).toEqual({ read: false, write: false, owner: false })
    await expectCode(mem.bob.pools.query(pool.id), 'PERMISSION_DENIED')
    await expectCode(mem.bob.pools.get(byOwner.id), 'PERMISSION_DENIED')
    await expectCode(mem.bob.pools.write(pool.id, fact('Aria', 'likes', 'coffee')), 'PERMISSION_DENIED')
    await expectCode(mem.bob.pools.export(pool.id), 'PERMISSION_DENIED')
    await expectCode(mem.bob.pools.conflicts(pool.id), 'PERMISSION_DENIED')
    await expectCode(mem.bob.pools.rate(byOwner.id, 1), 'PERMISSION_DENIED')
    expect((await mem.bob.pools.list()).map((p) => p.id)).toEqual([])
    // Bob's memory was written with the right to write: it stays.
    expect((await mem.owner.pools.query(pool.id)).map((m) => m.id).sort()).toEqual([byBob.id, byOwner.id].sort())
    expect((await mem.owner.pools.info(pool.id)).members.map((m) => m.did)).toEqual([id.owner.did])

    // Sharing again restores access.
    await mem.owner.pools.share(pool.id, id.bob.did)
    expect((await mem.bob.pools.query(pool.id)).length).toBe(2)
    await close()
  })

  test('a grant with a duration lapses on the injected clock', async () => {
    const { mem, id, clock, close } = await agents(['owner', 'specialist'])
    const pool = await mem.owner.pools.create()
    await mem.owner.pools.write(pool.id, pref('video_off'))
    await mem.owner.pools.share(pool.id, id.specialist.did, { duration: 3600 })
    const members = (await mem.owner.pools.info(pool.id)).members
    expect(members[1]).toMatchObject({ did: id.specialist.did, expiresAt: clock.now() + 3600_000 })
    clock.advance(3599_000)
    expect((await mem.specialist.pools.query(pool.id)).length).toBe(1)
    clock.advance(1000)
    await expectCode(mem.specialist.pools.query(pool.id), 'PERMISSION_DENIED')
    expect((await mem.owner.pools.info(pool.id)).members).toHaveLength(1)
    await expectCode(mem.owner.pools.share(pool.id, id.specialist.did, { duration: -1 }), 'INVALID_ARGUMENT', 'duration')
    await close()
  })

  test('PUBLIC memories are readable by any agent; AUTHORIZED ones only by members', async () => {
    const { mem, close } = await agents(['owner', 'stranger'])
    const pool = await mem.owner.pools.create()
    const open = await mem.owner.pools.write(pool.id, fact('memweave', 'license', 'MIT', { privacy: 'PUBLIC' }))
    const closed = await mem.owner.pools.write(pool.id, fact('Aria', 'phone', '555-0100'))
    expect(open.privacy.visibility).toBe('PUBLIC')
    expect(closed.privacy.visibility).toBe('AUTHORIZED')
    await expectCode(mem.stranger.pools.query(pool.id), 'PERMISSION_DENIED')
    expect((await mem.stranger.pools.query(pool.id, { publicOnly: true })).map((m) => m.id)).toEqual([open.id])
    expect(await mem.stranger.pools.get(open.id)).toMatchObject({ content: { object: 'MIT' } })
    await expectCode(mem.stranger.pools.get(closed.id), 'PERMISSION_DENIED')
    // A pool created PUBLIC makes PUBLIC the default; AUTHORIZED still narrows one memory.
    const pub = await mem.owner.pools.create({ privacy: 'PUBLIC' })
    expect((await mem.owner.pools.write(pub.id, fact('a', 'b', 'c'))).privacy.visibility).toBe('PUBLIC')
    expect((await mem.owner.pools.write(pub.id, fact('a', 'b', 'd', { privacy: 'AUTHORIZED' }))).privacy.visibility).toBe('AUTHORIZED')
    await close()
  })

  test('the materializer ignores records whose author had no right, forged signatures and a usurped pool id', async () => {
    const { mem, id, storage, clock, close } = await agents(['owner', 'mallory'])
    const pool = await mem.owner.pools.create()
    const real = await mem.owner.pools.write(pool.id, fact('Aria', 'likes', 'tea'))
    const hlc = (): string => encodeHlc({ wall: clock.now(), counter: 0, node: 'evil' })
    const payload = (object: string) => ({
      type: 'KNOWLEDGE', subject: 'Aria', predicate: 'likes', object, context: null, confidence: 1, source: 'x', evidence: [],
      createdAt: clock.now(), ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
    })
    expect(isPayload(payload('x'))).toBe(true)
    const base = { pool: pool.id, tenant: null, author: id.mallory.did }
    // Mallory signs a memory, a grant to herself and a tombstone: none is hers to write.
    const memory = await signRecord(id.mallory, { ...base, kind: PoolKind.MEMORY, hlc: hlc(), body: { payload: payload('poison') } as never })
    const grant = await signRecord(id.mallory, { ...base, kind: PoolKind.ACL, hlc: hlc(), body: { member: id.mallory.did, read: true, write: true, expiresAt: null } })
    const tomb = await signRecord(id.mallory, { ...base, kind: PoolKind.TOMBSTONE, hlc: hlc(), body: { targets: [{ id: real.id, supersedes: [] }], reason: 'forget' } })
    // A record claiming the owner's name with Mallory's signature.
    const forged = { ...(await signRecord(id.mallory, { ...base, kind: PoolKind.MEMORY, hlc: hlc(), body: { payload: payload('forged') } as never })), author: id.owner.did }
    // A create record for the same pool id by someone else: the id is derived from the owner.
    const usurp = await signRecord(id.mallory, { ...base, kind: PoolKind.CREATE, hlc: hlc(), body: { v: 1, nonce: 'x', encrypted: false, noTraining: false, publicDefault: false, name: 'mine', sealedName: null, policies: (await mem.owner.pools.info(pool.id)).policies } })
    await inject(storage, [memory, grant, tomb, forged, usurp])
    const seen = await mem.owner.pools.query(pool.id)
    expect(seen.map((m) => m.content.object)).toEqual(['tea'])
    expect((await mem.owner.pools.info(pool.id)).owner).toBe(id.owner.did)
    expect(await mem.mallory.pools.access(pool.id)).toEqual({ read: false, write: false, owner: false })
    expect(derivePoolId(id.mallory.did, 'x', null)).not.toBe(pool.id)
    await close()
  })

  test('the derived state does not depend on the order records arrive in (seeded shuffles)', async () => {
    const { mem, id, storage, clock, close } = await agents(['owner', 'w', 'r'])
    const pool = await mem.owner.pools.create({ policies: { multiValuedPredicates: ['knows'] } })
    await mem.owner.pools.share(pool.id, id.w.did, { write: true })
    await mem.owner.pools.share(pool.id, id.r.did)
    const a = await mem.w.pools.write(pool.id, pref('bullet_points'))
    const b = await mem.owner.pools.write(pool.id, pref('paragraphs', { confidence: 0.5 }))
    const c = await mem.owner.pools.update(a.id, { confidence: 0.95 })
    const d = await mem.w.pools.write(pool.id, fact('Aria', 'knows', 'Bo', { evidence: [b.id] }))
    await mem.r.pools.query(pool.id)
    await mem.r.pools.rate(c.id, 1)
    await mem.owner.pools.revoke(pool.id, id.w.did)
    await mem.owner.pools.forget(b.id)
    clock.advance(DAY)
    await mem.owner.pools.write(pool.id, fact('Aria', 'knows', 'Cy'))
    await mem.owner.pools.flush()
    const records = (await storage.read(['records'], (tx) => tx.all<PoolRecord>('records'))).filter(isPoolRecord)
    expect(records.length).toBeGreaterThan(10)
    const summary = (order: PoolRecord[]): string => {
      const st = new PoolState()
      for (const r of order) st.apply(r, 'payload' in (r.body as object) ? ((r.body as { payload: never }).payload) : null)
      const s = st.structure(pool.id)!
      const v = viewAt(s, clock.now())
      return JSON.stringify({
        current: [...v.current.keys()].sort(), live: [...v.live.keys()].sort(), forgotten: [...s.forgotten.keys()].sort(),
        members: s.acl.members(clock.now()), access: [...s.access].sort(), ratings: [...s.ratings], superseded: [...v.supersededBy].sort(),
      })
    }
    const expected = summary(records)
    expect(JSON.parse(expected).current).toContain(c.id)
    expect(JSON.parse(expected).current).toContain(d.id)
    const seed0 = 20260101
    for (let k = 0; k < 25; k++) {
      let seed = seed0 + k
      const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
      const shuffled = [...records]
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1))
        ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
      }
      expect(summary(shuffled), `seed ${seed0 + k}: repro with this seed in test/pools/pools-access.test.ts`).toBe(expected)
    }
    await close()
  })

  test('two memories on one storage are two agents: share on one handle is seen by the other on its next call', async () => {
    const storage = memoryStorage()
    const { mem, id, close } = await agents(['a', 'b'], { storage: () => storage })
    const pool = await mem.a.pools.create()
    await expectCode(mem.b.pools.query(pool.id), 'PERMISSION_DENIED')
    await mem.a.pools.share(pool.id, id.b.did)
    expect(await mem.b.pools.query(pool.id)).toEqual([])
    expect((await mem.b.pools.list()).map((p) => p.id)).toEqual([pool.id])
    await close()
  })
})
