import fc from 'fast-check'
import * as Y from 'yjs'
import { describe, expect, test } from 'vitest'
import { encodeHlc } from '../../src/core/clock.js'
import type { Identity } from '../../src/index.js'
import {
  PoolKind, derivePoolId, signRecord, verifyRecord,
  type AclBody, type CreateBody, type MemoryBody, type MemoryPayload, type PoolBody, type PoolRecord, type TombstoneBody,
} from '../../src/pools/records.js'
import { DEFAULT_POLICIES } from '../../src/pools/input.js'
import type { PoolId } from '../../src/pools/types.js'
import { RECORDS_MAP, decodeRecord, encodeRecord } from '../../src/sync/codec.js'
import { materialize, type Plan } from '../../src/sync/materialize.js'
import { SignatureCache } from '../../src/sync/signatures.js'
import { T0 } from '../helpers/pools-helpers.js'
import { identityFor, seeded } from '../helpers/sync-helpers.js'

/** The materializer as a pure function: verdicts, quarantine reasons, and independence from arrival order. */

let tick = 0
const hlc = (ms: number): string => encodeHlc({ wall: T0 + ms, counter: tick++ % 1000, node: 'test' })

function payload(subject: string, object: string, extra: Partial<MemoryPayload> = {}): MemoryPayload {
  return {
    type: 'KNOWLEDGE', subject, predicate: 'lives_in', object, context: null, confidence: 1, source: 'direct_statement', evidence: [],
    createdAt: T0, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false, supersedes: [], merged: null,
    ...extra,
  }
}

interface World {
  readonly pool: PoolId
  readonly ids: Record<'alice' | 'bob' | 'dave' | 'mallory', Identity>
  sign<B extends PoolBody>(who: Identity, kind: PoolRecord['kind'], body: B, ms: number, pool?: PoolId): Promise<PoolRecord<B>>
}

async function world(): Promise<World> {
  const ids = {
    alice: await identityFor('alice'), bob: await identityFor('bob'), dave: await identityFor('dave'), mallory: await identityFor('mallory'),
  }
  const nonce = '00'.repeat(16)
  const pool = derivePoolId(ids.alice.did, nonce, null)
  return {
    pool, ids,
    sign: (who, kind, body, ms, p = pool) => signRecord(who, { kind, pool: p, tenant: null, body, author: who.did, hlc: hlc(ms) }),
  }
}

const createBody = (nonce: string): CreateBody => ({
  v: 1, nonce, encrypted: false, noTraining: false, publicDefault: false, name: 'trip', sealedName: null, policies: DEFAULT_POLICIES,
})
const grant = (member: string, write: boolean, read = true): AclBody => ({ member, read, write, expiresAt: null })

async function plan(pool: PoolId, entries: ReadonlyArray<readonly [string, unknown]>): Promise<Plan> {
  const records = entries.map(([k, v]) => decodeRecord(k, v)).flatMap((d) => (d.ok ? [d.record] : []))
  return materialize({ pool, entries, signatures: await new SignatureCache().verify(records) })
}

const reasons = (p: Plan): Record<string, string> => Object.fromEntries(p.quarantined.map((q) => [q.key, q.reason]))

describe('the materializer', () => {
  test('accepts what the pool rules allow and quarantines everything else, with the reason', async () => {
    const w = await world()
    const { alice, bob, dave, mallory } = w.ids
    const create = await w.sign(alice, PoolKind.CREATE, createBody('00'.repeat(16)), 0)
    const aclBob = await w.sign(alice, PoolKind.ACL, grant(bob.did, true), 1)
    const aclDave = await w.sign(alice, PoolKind.ACL, grant(dave.did, false), 2)
    const mine = await w.sign<MemoryBody>(alice, PoolKind.MEMORY, { payload: payload('Aria', 'Rome') }, 3)
    const bobs = await w.sign<MemoryBody>(bob, PoolKind.MEMORY, { payload: payload('Aria', 'Milan') }, 4)
    const davesWrite = await w.sign<MemoryBody>(dave, PoolKind.MEMORY, { payload: payload('Aria', 'Oslo') }, 5)
    const intruder = await w.sign<MemoryBody>(mallory, PoolKind.MEMORY, { payload: payload('Aria', 'Lima') }, 6)
    const selfGrant = await w.sign(mallory, PoolKind.ACL, grant(mallory.did, true), 7)
    const forgetBobs = await w.sign<TombstoneBody>(alice, PoolKind.TOMBSTONE, { targets: [{ id: bobs.id, supersedes: [] }], reason: 'forget' }, 8)
    // A writer may forget memories, not the owner's ACL records.
    const eraseAcl = await w.sign<TombstoneBody>(bob, PoolKind.TOMBSTONE, { targets: [{ id: aclDave.id, supersedes: [] }], reason: 'forget' }, 9)
    const forgedCreate = await w.sign(mallory, PoolKind.CREATE, createBody('11'.repeat(16)), 10)
    const otherPool = await w.sign<MemoryBody>(alice, PoolKind.MEMORY, { payload: payload('Aria', 'Bern') }, 11, 'ab'.repeat(16) as PoolId)
    const unsigned = { ...encodeRecord(await w.sign<MemoryBody>(bob, PoolKind.MEMORY, { payload: payload('Aria', 'Kyiv') }, 12)), sig: undefined }
    const tampered = { ...encodeRecord(mine), body: { payload: payload('Aria', 'Paris') } }

    const entries: Array<readonly [string, unknown]> = [
      ...[create, aclBob, aclDave, mine, bobs, davesWrite, intruder, selfGrant, forgetBobs, eraseAcl, forgedCreate, otherPool].map(
        (r) => [r.id, encodeRecord(r)] as const,
      ),
      [unsigned.id, unsigned],
      ['f'.repeat(32), tampered],
      ['e'.repeat(32), { hello: 'world' }],
    ]
    const p = await plan(w.pool, entries)
    expect(p.accepted.map((r) => r.id).sort()).toEqual([create, aclBob, aclDave, mine, forgetBobs, eraseAcl].map((r) => r.id).sort())
    expect([...p.forgotten]).toEqual([bobs.id])
    expect(reasons(p)).toEqual({
      [davesWrite.id]: 'read-only',
      [intruder.id]: 'not-member',
      [selfGrant.id]: 'not-owner',
      [forgedCreate.id]: 'forged-create',
      [otherPool.id]: 'wrong-pool',
      [unsigned.id]: 'missing-signature',
      ['f'.repeat(32)]: 'malformed',
      ['e'.repeat(32)]: 'malformed',
    })
  })

  test('a record whose signature does not cover its content is refused as bad-signature', async () => {
    const w = await world()
    const create = await w.sign(w.ids.alice, PoolKind.CREATE, createBody('00'.repeat(16)), 0)
    const mine = await w.sign<MemoryBody>(w.ids.alice, PoolKind.MEMORY, { payload: payload('Aria', 'Rome') }, 1)
    const other = await w.sign<MemoryBody>(w.ids.alice, PoolKind.MEMORY, { payload: payload('Aria', 'Oslo') }, 2)
    // Same id, the signature of another record: well-formed, and wrong.
    const swapped = { ...encodeRecord(mine), sig: other.sig }
    const p = await plan(w.pool, [[create.id, encodeRecord(create)], [mine.id, swapped]])
    expect(reasons(p)).toEqual({ [mine.id]: 'bad-signature' })
  })

  test('regression: a writer\'s tombstone naming the owner\'s ACL record used to purge it; now only memories are forgotten', async () => {
    const w = await world()
    const { alice, bob, dave } = w.ids
    const create = await w.sign(alice, PoolKind.CREATE, createBody('00'.repeat(16)), 0)
    const aclBob = await w.sign(alice, PoolKind.ACL, grant(bob.did, true), 1)
    const aclDave = await w.sign(alice, PoolKind.ACL, grant(dave.did, true), 2)
    const erase = await w.sign<TombstoneBody>(bob, PoolKind.TOMBSTONE, { targets: [{ id: aclDave.id, supersedes: [] }, { id: create.id, supersedes: [] }], reason: 'forget' }, 3)
    const davesWrite = await w.sign<MemoryBody>(dave, PoolKind.MEMORY, { payload: payload('Aria', 'Oslo') }, 4)
    const p = await plan(w.pool, [create, aclBob, aclDave, erase, davesWrite].map((r) => [r.id, encodeRecord(r)] as const))
    expect([...p.forgotten]).toEqual([])
    expect(p.accepted.map((r) => r.id)).toEqual(expect.arrayContaining([aclDave.id, create.id, davesWrite.id]))
  })

  test('regression: a member-signed record with a malformed body is quarantined instead of crashing the derivation', async () => {
    const w = await world()
    const create = await w.sign(w.ids.alice, PoolKind.CREATE, createBody('00'.repeat(16)), 0)
    const broken = await w.sign(w.ids.alice, PoolKind.TOMBSTONE, { targets: 7, reason: 'forget' } as unknown as TombstoneBody, 1)
    const p = await plan(w.pool, [create, broken].map((r) => [r.id, encodeRecord(r)] as const))
    expect(reasons(p)).toEqual({ [broken.id]: 'malformed' })
    expect(p.accepted.map((r) => r.id)).toEqual([create.id])
  })

  test('nothing is accepted before the pool is founded in the set', async () => {
    const w = await world()
    const mine = await w.sign<MemoryBody>(w.ids.alice, PoolKind.MEMORY, { payload: payload('Aria', 'Rome') }, 1)
    const p = await plan(w.pool, [[mine.id, encodeRecord(mine)]])
    expect(p.accepted).toEqual([])
    expect(reasons(p)).toEqual({ [mine.id]: 'unknown-pool' })
  })

  test('a writer is judged at its record timestamp: a revocation dated before the write refuses it, whenever it arrives', async () => {
    const w = await world()
    const { alice, bob } = w.ids
    const create = await w.sign(alice, PoolKind.CREATE, createBody('00'.repeat(16)), 0)
    const share = await w.sign(alice, PoolKind.ACL, grant(bob.did, true), 1)
    const early = await w.sign<MemoryBody>(bob, PoolKind.MEMORY, { payload: payload('Aria', 'Rome') }, 2)
    const revoke = await w.sign(alice, PoolKind.ACL, grant(bob.did, false, false), 3)
    const late = await w.sign<MemoryBody>(bob, PoolKind.MEMORY, { payload: payload('Aria', 'Milan') }, 4)
    const before = await plan(w.pool, [create, share, early, late].map((r) => [r.id, encodeRecord(r)] as const))
    expect(before.accepted.map((r) => r.id)).toContain(late.id)
    const after = await plan(w.pool, [create, share, early, late, revoke].map((r) => [r.id, encodeRecord(r)] as const))
    expect(after.accepted.map((r) => r.id)).toContain(early.id)
    expect(reasons(after)).toEqual({ [late.id]: 'not-member' })
  })

  test('the plan does not depend on the order the entries arrived in', async () => {
    const w = await world()
    const { alice, bob, dave } = w.ids
    const records: PoolRecord[] = [
      await w.sign(alice, PoolKind.CREATE, createBody('00'.repeat(16)), 0),
      await w.sign(alice, PoolKind.ACL, grant(bob.did, true), 1),
      await w.sign(alice, PoolKind.ACL, grant(dave.did, false), 2),
    ]
    for (let i = 0; i < 12; i++) {
      const who = [alice, bob, dave][i % 3]!
      records.push(await w.sign<MemoryBody>(who, PoolKind.MEMORY, { payload: payload(`S${i % 4}`, `O${i}`) }, 10 + i))
    }
    records.push(await w.sign(alice, PoolKind.ACL, grant(bob.did, false, true), 15))
    records.push(await w.sign<TombstoneBody>(bob, PoolKind.TOMBSTONE, { targets: [{ id: records[3]!.id, supersedes: [] }], reason: 'forget' }, 13))
    const entries = records.map((r) => [r.id, encodeRecord(r)] as const)
    const reference = await plan(w.pool, entries)
    expect(reference.quarantined.length).toBeGreaterThan(0)
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (seed) => {
        const random = seeded(seed)
        const shuffled = [...entries].sort(() => random() - 0.5)
        expect(await plan(w.pool, shuffled)).toEqual(reference)
      }),
      { seed: 8, numRuns: 40 },
    )
  })
})

describe('the record codec', () => {
  test('a record survives a Y.Doc round trip byte for byte: same id, signature still valid', async () => {
    const w = await world()
    // Any text the API accepts (input.ts assertText: not blank, no lone surrogate): other payloads are malformed.
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((t) => t.trim() !== '' && t.isWellFormed())
    await fc.assert(
      fc.asyncProperty(text, fc.oneof(text, fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)), fc.boolean()), fc.double({ min: 0, max: 1, noNaN: true }), async (subject, object, confidence) => {
        const r = await w.sign<MemoryBody>(w.ids.alice, PoolKind.MEMORY, { payload: payload(subject, object as string, { confidence, context: subject || null }) }, 1)
        const a = new Y.Doc()
        a.getMap(RECORDS_MAP).set(r.id, encodeRecord(r))
        const b = new Y.Doc()
        Y.applyUpdate(b, Y.encodeStateAsUpdate(a))
        const d = decodeRecord(r.id, b.getMap(RECORDS_MAP).get(r.id))
        expect(d.ok).toBe(true)
        if (d.ok) {
          expect(d.record).toEqual(r)
          expect(await verifyRecord(d.record)).toBe(true)
        }
      }),
      { seed: 3, numRuns: 60 },
    )
  })

  test('refuses values that are not pool records, naming the problem', () => {
    expect(decodeRecord('a'.repeat(32), 'text')).toMatchObject({ ok: false, reason: 'malformed' })
    expect(decodeRecord('a'.repeat(32), { id: 'b'.repeat(32) })).toMatchObject({ ok: false, detail: 'stored under another key than its id' })
    expect(decodeRecord('a'.repeat(32), { id: 'a'.repeat(32), kind: 'fact' })).toMatchObject({ ok: false, detail: 'unknown kind' })
  })
})
