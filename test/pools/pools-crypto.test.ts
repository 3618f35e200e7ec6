import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto'
import * as ed from '@noble/ed25519'
import { sha512 } from '@noble/hashes/sha2.js'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, test } from 'vitest'
import { createIdentity, indexedDbStorage, type StoragePort } from '../../src/index.js'
import { KeyRing } from '../../src/pools/keyring.js'
import { keyAgreementFor, montgomeryU, sharedSecret, unwrapKey, wrapKey } from '../../src/pools/key-wrap.js'
import { PoolKind, isPoolRecord, type KeyBody, type MemoryBody, type PoolRecord } from '../../src/pools/records.js'
import { PoolState } from '../../src/pools/state.js'
import { dumpIndexedDb } from '../helpers/raw-indexeddb.js'
import { agents, expectCode, fact, rawMemory } from '../helpers/pools-helpers.js'

/** ENCRYPTED pools: AES-256-GCM under a pool key, wrapped per member with X25519 of their did:key; storage holds only ciphertext. */

const b64url = (b: Uint8Array): string => Buffer.from(b).toString('base64url')

/** RFC 7748 X25519 through node:crypto (OpenSSL), from the Ed25519 seed and public key. */
function nodeX25519(seed: Uint8Array, peerEd25519: Uint8Array): Uint8Array {
  const priv = sha512(seed).slice(0, 32)
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b656e04220420', 'hex'), priv]), format: 'der', type: 'pkcs8' })
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: b64url(montgomeryU(ed.Point.fromBytes(peerEd25519))) }, format: 'jwk' })
  return new Uint8Array(diffieHellman({ privateKey, publicKey }))
}

async function poolRecords(storage: StoragePort): Promise<PoolRecord[]> {
  return (await storage.read(['records'], (tx) => tx.all<PoolRecord>('records'))).filter(isPoolRecord)
}

describe('encrypted pools', () => {
  test('the key agreement is X25519 of the did:key under RFC 7748: byte-equal to OpenSSL\'s, and symmetric', async () => {
    for (let i = 0; i < 4; i++) {
      const a = await createIdentity(), b = await createIdentity()
      const ours = await (await keyAgreementFor(a))!.agree(b.publicKey)
      expect(Buffer.from(ours).toString('hex')).toBe(Buffer.from(nodeX25519(a.exportSeed(), b.publicKey)).toString('hex'))
      expect(await (await keyAgreementFor(b))!.agree(a.publicKey)).toEqual(ours)
    }
    // Small-order points are refused (they would fix the shared secret).
    const identity = ed.Point.ZERO.toBytes()
    expect(() => sharedSecret(5n, identity)).toThrow(/small-order/)
  })

  test('a wrapped key opens only for its member, and not after tampering', async () => {
    const alice = await createIdentity(), bob = await createIdentity(), eve = await createIdentity()
    const raw = crypto.getRandomValues(new Uint8Array(32))
    const pool = 'aa'.repeat(16)
    const wrap = await wrapKey(pool, 'k1', 1, alice.did, raw)
    expect(await unwrapKey(pool, wrap, (await keyAgreementFor(alice))!, alice.publicKey)).toEqual(raw)
    await expectCode(unwrapKey(pool, wrap, (await keyAgreementFor(bob))!, bob.publicKey), 'INTEGRITY')
    await expectCode(unwrapKey(pool, { ...wrap, epoch: 2 }, (await keyAgreementFor(alice))!, alice.publicKey), 'INTEGRITY')
    await expectCode(unwrapKey('bb'.repeat(16), wrap, (await keyAgreementFor(alice))!, alice.publicKey), 'INTEGRITY')
    const ct = Buffer.from(wrap.ct, 'base64')
    ct[0]! ^= 1
    await expectCode(unwrapKey(pool, { ...wrap, ct: ct.toString('base64') }, (await keyAgreementFor(alice))!, alice.publicKey), 'INTEGRITY')
    expect(eve.did).not.toBe(alice.did)
  })

  const backends: Array<[string, () => { storage: () => StoragePort; raw: (s: StoragePort) => Promise<string> }]> = [
    ['in-memory storage', () => ({ storage: undefined as never, raw: async (s) => rawMemory(s) })],
    ['Dexie over fake-indexeddb', () => {
      const factory = new IDBFactory()
      const name = `pools-${Math.random()}`
      return { storage: () => indexedDbStorage({ name, indexedDB: factory, IDBKeyRange }), raw: () => dumpIndexedDb(factory, name) }
    }],
  ]
  for (const [label, backend] of backends) {
    test(`${label}: an encrypted pool's rows hold no plaintext; a plain pool's do (control)`, async () => {
      const b = backend()
      const { mem, id, storage, close } = await agents(['a', 'b'], b.storage ? { storage: b.storage } : {})
      const secretWords = ['Zanzibar-7731', 'orthodontist_visit', 'prefers_aisle_seat', 'window_vs_aisle', 'told_me_directly', 'Project Nightjar']
      const sealed = await mem.a.pools.create({ name: 'Project Nightjar', privacy: ['ENCRYPTED'] })
      const m = await mem.a.pools.write(sealed.id, {
        type: 'PREFERENCE', content: { subject: 'orthodontist_visit', predicate: 'prefers_aisle_seat', object: 'Zanzibar-7731', context: 'window_vs_aisle' },
        source: 'told_me_directly',
      })
      await mem.a.pools.share(sealed.id, id.b.did)
      expect((await mem.b.pools.query(sealed.id)).map((x) => x.content)).toEqual([m.content])
      expect((await mem.b.pools.info(sealed.id)).name).toBe('Project Nightjar')
      await mem.a.pools.update(m.id, { confidence: 0.5 })
      await mem.a.pools.flush()
      await mem.b.pools.flush()
      const rows = await b.raw(storage)
      expect(rows).toContain(sealed.id)
      for (const w of secretWords) expect(rows, w).not.toContain(w)
      const plain = await mem.a.pools.create({ name: 'control' })
      await mem.a.pools.write(plain.id, { type: 'KNOWLEDGE', content: { subject: 'orthodontist_visit', predicate: 'p', object: 'o' } })
      await mem.a.pools.flush()
      expect(await b.raw(storage)).toContain('orthodontist_visit')
      await close()
    })
  }

  test('revoking rotates the key: new content is sealed under a key the revoked member never receives', async () => {
    const { mem, id, storage, close } = await agents(['owner', 'bob', 'carol'])
    const pool = await mem.owner.pools.create({ privacy: 'ENCRYPTED' })
    await mem.owner.pools.share(pool.id, id.bob.did)
    await mem.owner.pools.share(pool.id, id.carol.did, { write: true })
    const before = await mem.owner.pools.write(pool.id, fact('plan', 'is', 'alpha'))
    expect((await mem.bob.pools.query(pool.id)).length).toBe(1)
    await mem.owner.pools.revoke(pool.id, id.bob.did)
    const after = await mem.carol.pools.write(pool.id, fact('plan', 'is', 'beta'))
    await expectCode(mem.bob.pools.query(pool.id), 'PERMISSION_DENIED')
    expect((await mem.carol.pools.query(pool.id)).map((m) => m.content.object).sort()).toEqual(['alpha', 'beta'])

    // Below the ACL, at the level of bytes a relay would carry: Bob's key ring opens the old record, not the new.
    const records = await poolRecords(storage)
    const keys = records.filter((r) => r.kind === PoolKind.KEY) as PoolRecord<KeyBody>[]
    expect(keys.filter((k) => k.body.epoch === 2).map((k) => k.body.member).sort()).toEqual([id.owner.did, id.carol.did].sort())
    expect(keys.filter((k) => k.body.epoch === 1).map((k) => k.body.member).sort()).toEqual([id.owner.did, id.bob.did, id.carol.did].sort())
    const state = new PoolState()
    for (const r of records) state.apply(r)
    const ring = new KeyRing(id.bob)
    await ring.openWraps(state.structure(pool.id)!)
    const byId = new Map(records.map((r) => [r.id, r as PoolRecord<MemoryBody>]))
    expect(await ring.openPayload(byId.get(before.id)!)).toMatchObject({ object: 'alpha' })
    expect(await ring.openPayload(byId.get(after.id)!)).toBeNull()
    // Carol was kept: her ring opens both.
    const carol = new KeyRing(id.carol)
    await carol.openWraps(state.structure(pool.id)!)
    expect(await carol.openPayload(byId.get(after.id)!)).toMatchObject({ object: 'beta' })
    await close()
  })

  test('tampered ciphertext in storage is ignored (the record no longer matches its id and signature)', async () => {
    const { mem, storage, clock, close } = await agents(['a'])
    const pool = await mem.a.pools.create({ privacy: 'ENCRYPTED' })
    const keep = await mem.a.pools.write(pool.id, fact('a', 'b', 'kept'))
    const hit = await mem.a.pools.write(pool.id, fact('a', 'b', 'tampered'))
    await mem.a.pools.flush()
    const r = (await poolRecords(storage)).find((x) => x.id === hit.id) as PoolRecord<MemoryBody>
    const sealed = (r.body as { sealed: { ct: string } }).sealed
    const ct = Buffer.from(sealed.ct, 'base64')
    ct[3]! ^= 0x40
    await storage.write(['records'], (tx) => tx.put('records', [{ ...r, body: { sealed: { ...sealed, ct: ct.toString('base64') } } }]))
    // A new handle of the same identity reloads from storage and verifies every record.
    const { createMemory } = await import('../../src/index.js')
    const reader = await createMemory({ storage, identity: mem.a.identity, now: clock.now })
    expect((await reader.pools.query(pool.id)).map((m) => m.id)).toEqual([keep.id])
    // Rejected outright (not merely undecryptable, which would count as sealed).
    expect(await reader.pools.info(pool.id)).toMatchObject({ size: 1, sealed: 0 })
    await reader.close()
    await close()
  })

  test('an identity that cannot do key agreement (non-extractable WebCrypto key) sees encrypted memories as sealed', async () => {
    const { mem, storage, clock, close } = await agents(['owner'])
    const { createMemory } = await import('../../src/index.js')
    const locked = await createIdentity({ nonExtractable: true })
    const other = await createMemory({ storage, identity: locked, now: clock.now })
    const pool = await mem.owner.pools.create({ privacy: 'ENCRYPTED', name: 'n' })
    await mem.owner.pools.write(pool.id, fact('a', 'b', 'c'))
    await mem.owner.pools.share(pool.id, locked.did, { write: true })
    expect(await other.pools.query(pool.id)).toEqual([])
    expect(await other.pools.info(pool.id)).toMatchObject({ sealed: 1, name: null })
    await expectCode(other.pools.write(pool.id, fact('x', 'y', 'z')), 'PERMISSION_DENIED')
    await other.close()
    await close()
  })
})
