import { encodeHlc } from '../../src/core/clock.js'
import type { Identity } from '../../src/core/identity.js'
import { signRecord as signAny } from '../../src/core/signed-record.js'
import { ARTIFACT_VERSION_KIND } from '../../src/artifacts/state.js'
import { DEFAULT_POLICIES } from '../../src/pools/input.js'
import {
  PoolKind, derivePoolId, signRecord,
  type AclBody, type CreateBody, type MemoryBody, type MemoryPayload, type PoolBody, type PoolRecord, type TombstoneBody,
} from '../../src/pools/records.js'
import type { PoolId } from '../../src/pools/types.js'
import { SMALL_DOC_KIND, SMALL_PROGRESS_KIND } from '../../src/small/state.js'
import { decodeRecord, encodeRecord } from '../../src/sync/codec.js'
import { SignatureCache } from '../../src/sync/signatures.js'
import { T0 } from './pools-helpers.js'
import { identityFor } from './sync-helpers.js'

/**
 * A universe of Y.Map values for one pool, for property tests that replay random histories of a
 * pool's document: records of every kind whose verdicts depend on each other (grants, a revocation,
 * an expiring grant, policies with the SMALL humans list, tombstones of writers and of a reader,
 * records a tombstone names, content records whose modules' rules depend on each other), values
 * that are not records, bad signatures, other pools and tenants, and overwrites of real keys.
 */

/** One value a key can hold. Several items may share a key (an overwrite). */
export interface Item {
  readonly key: string
  readonly value: unknown
}

export interface Universe {
  readonly pool: PoolId
  readonly items: readonly Item[]
  /** Every distinct key. */
  readonly keys: readonly string[]
  /** The pool's create record (items[0]). */
  readonly create: Item
  /** The well-formed, signed records among the items (to feed a PoolState). */
  readonly records: readonly PoolRecord[]
  /** Verdicts for every decodable item. */
  readonly signatures: ReadonlyMap<string, boolean>
}

const hlc = (ms: number): string => encodeHlc({ wall: T0 + ms, counter: 0, node: 'universe' })

function payload(subject: string, extra: Partial<MemoryPayload> = {}): MemoryPayload {
  return {
    type: 'KNOWLEDGE', subject, predicate: 'lives_in', object: 'Rome', context: null, confidence: 1, source: 'direct_statement',
    evidence: [], createdAt: T0, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral: false, noTraining: false,
    supersedes: [], merged: null, ...extra,
  }
}

export async function recordUniverse(): Promise<Universe> {
  const [alice, bob, carol, dave, mallory, erin] = await Promise.all(['alice', 'bob', 'carol', 'dave', 'mallory', 'erin'].map((n) => identityFor(n)))
  const pool = derivePoolId(alice!.did, '00'.repeat(16), null)
  const sign = <B extends PoolBody>(who: Identity, kind: PoolRecord['kind'], body: B, ms: number, extra: { pool?: PoolId; tenant?: string | null } = {}) =>
    signRecord(who, { kind, pool: extra.pool ?? pool, tenant: extra.tenant ?? null, body, author: who.did, hlc: hlc(ms) })
  const content = (who: Identity, kind: string, body: unknown, ms: number) =>
    signAny(who, { kind, pool, tenant: null, body, author: who.did, hlc: hlc(ms) }) as Promise<PoolRecord>
  const createBody = (nonce: string): CreateBody => ({
    v: 1, nonce, encrypted: false, noTraining: false, publicDefault: false, name: 'planner', sealedName: null, policies: DEFAULT_POLICIES,
  })
  const grant = (member: Identity, write: boolean, read = true, expiresAt: number | null = null): AclBody => ({ member: member.did, read, write, expiresAt })
  const memory = (who: Identity, subject: string, ms: number, extra: Partial<MemoryPayload> = {}, where: { pool?: PoolId; tenant?: string | null } = {}) =>
    sign<MemoryBody>(who, PoolKind.MEMORY, { payload: payload(subject, extra) }, ms, where)
  const forget = (who: Identity, targets: readonly string[], ms: number, reason: TombstoneBody['reason'] = 'forget') =>
    sign<TombstoneBody>(who, PoolKind.TOMBSTONE, { targets: targets.map((id) => ({ id, supersedes: [] })), reason }, ms)

  const aclDave = await sign(alice!, PoolKind.ACL, grant(dave!, false), 3)
  const mAlice = await memory(alice!, 'Aria', 10)
  const mBob = await memory(bob!, 'Bruno', 11)
  const mEph = await memory(alice!, 'Ephemeral', 15, { ephemeral: true, ttl: 3600 })
  const mCarolEarly = await memory(carol!, 'Chen', 14)
  // Erin: a writer revoked at 52 with a cutoff that lists her memory of 9 only; a re-grant at 70.
  const mErinEarly = await memory(erin!, 'Erin', 9)
  // A memory with a TTL that ended at T0 + 10 ms: any writer may sweep it once it has.
  const mShort = await memory(alice!, 'Short', 10, { ttl: 0.01 })
  const records: PoolRecord[] = [
    await sign(alice!, PoolKind.CREATE, createBody('00'.repeat(16)), 0),
    await sign(mallory!, PoolKind.CREATE, createBody('11'.repeat(16)), 1),
    await sign(alice!, PoolKind.ACL, grant(bob!, true), 2),
    aclDave,
    await sign(alice!, PoolKind.ACL, grant(carol!, true, true, T0 + 30), 4),
    await sign(mallory!, PoolKind.ACL, grant(mallory!, true), 5),
    await sign(alice!, PoolKind.POLICY, { policies: { ...DEFAULT_POLICIES, humans: [bob!.did] } }, 6),
    // Records whose order decides: the latest policy, resolution, rating and tombstone link win.
    await sign(alice!, PoolKind.POLICY, { policies: { ...DEFAULT_POLICIES, humans: [] } }, 46),
    await sign(alice!, PoolKind.RESOLVE, { winner: mCarolEarly.id, losers: [mAlice.id] }, 45),
    await sign(dave!, PoolKind.RATING, { memory: mAlice.id, rating: -1 }, 39),
    await sign<TombstoneBody>(alice!, PoolKind.TOMBSTONE, { targets: [{ id: mBob.id, supersedes: [mAlice.id] }], reason: 'forget' }, 44),
    await sign(bob!, PoolKind.POLICY, { policies: DEFAULT_POLICIES }, 7),
    await sign(alice!, PoolKind.ACL, grant(bob!, false, false), 50),
    await sign(alice!, PoolKind.ACL, grant(erin!, true), 8),
    mErinEarly,
    await sign<AclBody>(alice!, PoolKind.ACL, { ...grant(erin!, false, false), cutoff: [mErinEarly.id] }, 52),
    // Signed after the revocation, dated inside the old grant: outside the cutoff, refused.
    await memory(erin!, 'Erin backdated', 18),
    await forget(erin!, [mErinEarly.id], 19),
    await memory(erin!, 'Erin in the gap', 55),
    await sign(alice!, PoolKind.ACL, grant(erin!, true), 70),
    await memory(erin!, 'Erin again', 71),
    mAlice, mBob, mEph, mCarolEarly,
    await memory(bob!, 'Bruno late', 60),
    await memory(dave!, 'Dave', 12),
    await memory(mallory!, 'Mallory', 13),
    await memory(carol!, 'Chen late', 40),
    await memory(alice!, 'Elsewhere', 16, {}, { pool: 'ab'.repeat(16) as PoolId }),
    await memory(alice!, 'Tenant', 17, {}, { tenant: 'acme' }),
    await forget(alice!, [mBob.id], 20),
    await forget(bob!, [mAlice.id], 21),
    await forget(dave!, [mEph.id, mAlice.id], 22, 'ephemeral'),
    await forget(bob!, [aclDave.id], 23),
    mShort,
    await forget(bob!, [mShort.id], 30, 'expired'),
    // Not expired (no TTL), not EPHEMERAL, not his: ignored.
    await forget(bob!, [mCarolEarly.id], 31, 'expired'),
    await forget(bob!, [mCarolEarly.id], 32, 'ephemeral'),
    await forget(alice!, ['cd'.repeat(16)], 24),
    await sign(alice!, PoolKind.RESOLVE, { winner: mAlice.id, losers: [mCarolEarly.id] }, 25),
    await sign(dave!, PoolKind.RESOLVE, { winner: mAlice.id, losers: [mBob.id] }, 26),
    await sign(dave!, PoolKind.ACCESS, { reads: [mAlice.id], at: T0 + 27 }, 27),
    await sign(mallory!, PoolKind.ACCESS, { reads: [mAlice.id], at: T0 + 28 }, 28),
    await sign(dave!, PoolKind.RATING, { memory: mAlice.id, rating: 0.5 }, 29),
    await content(bob!, ARTIFACT_VERSION_KIND, { slug: 'notes', version: 1, parents: [], text: 'hello\n' }, 30),
    await content(dave!, ARTIFACT_VERSION_KIND, { slug: 'notes', version: 1, parents: [], text: 'hi\n' }, 31),
    await content(bob!, SMALL_DOC_KIND, { project: 'p', name: 'intent', text: 'goal: ship\n', prev: null }, 32),
    await content(alice!, SMALL_DOC_KIND, { project: 'p', name: 'progress', text: 'entries:\n  - task_id: t1\n', prev: null }, 33),
    await content(alice!, SMALL_PROGRESS_KIND, { project: 'p', entry: { task_id: 't1' } }, 34),
    await content(bob!, SMALL_DOC_KIND, { project: 'p', name: 'progress', text: 'entries:\n  - task_id: t2\n', prev: null }, 35),
  ]
  const items: Item[] = records.map((r) => ({ key: r.id, value: encodeRecord(r) }))
  items.push(
    { key: 'e'.repeat(32), value: { hello: 'world' } },
    // Stored under another key than its id.
    { key: 'f'.repeat(32), value: encodeRecord(mAlice) },
    // Overwrites of a real key: another record's signature, no signature, a changed body.
    { key: mAlice.id, value: { ...encodeRecord(mAlice), sig: mBob.sig } },
    { key: mBob.id, value: { ...encodeRecord(mBob), sig: undefined } },
    { key: mEph.id, value: { ...encodeRecord(mEph), body: { payload: payload('Forged') } } },
  )
  const decoded = items.map((i) => decodeRecord(i.key, i.value)).flatMap((d) => (d.ok ? [d.record] : []))
  const signatures = await new SignatureCache().verify(decoded)
  return { pool, items, keys: [...new Set(items.map((i) => i.key))], create: items[0]!, records, signatures }
}
