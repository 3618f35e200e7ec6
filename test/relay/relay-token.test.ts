import { base64urlnopad } from '@scure/base'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { concatBytes, utf8 } from '../../src/core/bytes.js'
import { isMemweaveError } from '../../src/core/errors.js'
import { createPoolToken, verifyPoolToken, TokenFailure } from '../../src/sync/pool-token.js'
import { HOUR, identity, poolOf } from './relay-helpers.js'

const NOW = 1_750_000_000_000
const now = (): number => NOW

async function refusal(token: string | null, options: Parameters<typeof verifyPoolToken>[1]): Promise<string> {
  try {
    await verifyPoolToken(token, { now, ...options })
  } catch (err) {
    if (isMemweaveError(err) && err.code === 'PERMISSION_DENIED') return String(err.details.reason)
    throw err
  }
  throw new Error('the token was accepted')
}

/** Re-signs a hand-made payload with `signer`, as a forger who controls the JSON would. */
async function craft(payload: Record<string, unknown>, signer: { sign(m: Uint8Array): Promise<Uint8Array> }): Promise<string> {
  const body = base64urlnopad.encode(utf8(JSON.stringify(payload)))
  const sig = await signer.sign(concatBytes(utf8('memweave-pool-token/v1\n'), utf8(body)))
  return `${body}.${base64urlnopad.encode(sig)}`
}

describe('pool tokens', () => {
  test('round trip: the grant comes back as signed; the token is URL-safe', async () => {
    const owner = await identity('owner')
    const reader = await identity('reader')
    const { pool } = poolOf(owner)
    const token = await createPoolToken(owner, { pool, sub: reader.did, write: false, expiresAt: new Date(NOW + HOUR) })
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(token.length).toBeLessThan(500)
    expect(await verifyPoolToken(token, { pool, owner: owner.did, now })).toEqual({
      pool, sub: reader.did, write: false, expiresAt: NOW + HOUR, owner: owner.did, ownerProven: false,
    })
    // Deterministic: Ed25519 and canonical JSON give one text per grant.
    expect(await createPoolToken(owner, { pool, sub: reader.did, write: false, expiresAt: NOW + HOUR })).toBe(token)
  })

  test('missing, expired, forged, for another pool, from another owner: each refused with its reason', async () => {
    const owner = await identity('owner')
    const stranger = await identity('stranger')
    const writer = await identity('writer')
    const { pool } = poolOf(owner)
    const other = poolOf(owner, 9).pool
    const good = { pool, sub: writer.did, write: true, expiresAt: NOW + HOUR }
    expect(await refusal(null, { pool })).toBe(TokenFailure.MISSING)
    expect(await refusal('', { pool })).toBe(TokenFailure.MISSING)
    expect(await refusal(await createPoolToken(owner, { ...good, expiresAt: NOW }), { pool })).toBe(TokenFailure.EXPIRED)
    // Forged: claims the owner as issuer, signed by someone else.
    const forged = await craft({ exp: NOW + HOUR, iss: owner.did, pool, sub: writer.did, v: 1, write: true }, stranger)
    expect(await refusal(forged, { pool })).toBe(TokenFailure.BAD_SIGNATURE)
    expect(await refusal(forged, { pool, owner: owner.did })).toBe(TokenFailure.BAD_SIGNATURE)
    // A genuine token with one bit of the payload changed.
    const genuine = await createPoolToken(owner, good)
    const flipped = await craft({ exp: NOW + HOUR, iss: owner.did, pool, sub: writer.did, v: 1, write: false }, { sign: async () => base64urlnopad.decode(genuine.split('.')[1]!) })
    expect(await refusal(flipped, { pool })).toBe(TokenFailure.BAD_SIGNATURE)
    expect(await refusal(genuine, { pool: other })).toBe(TokenFailure.WRONG_POOL)
    const byStranger = await createPoolToken(stranger, good)
    expect(await refusal(byStranger, { pool, owner: owner.did })).toBe(TokenFailure.WRONG_OWNER)
    // Without a known owner (trust on first use) a stranger's own token is valid: the relay decides.
    expect((await verifyPoolToken(byStranger, { pool, now })).owner).toBe(stranger.did)
  })

  test('malformed tokens', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const base = { exp: NOW + HOUR, iss: owner.did, pool, sub: owner.did, v: 1, write: true }
    const cases: string[] = [
      'nonsense',
      'a.b.c',
      '!!!.???',
      `${'A'.repeat(5000)}.x`,
      await craft({ ...base, v: 2 }, owner),
      await craft({ ...base, extra: 1 }, owner),
      await craft({ ...base, sub: 'did:web:example.com' }, owner),
      await craft({ ...base, pool: 'Not A Pool' }, owner),
      await craft({ ...base, exp: '2030-01-01' }, owner),
      await craft({ ...base, write: 'yes' }, owner),
      // Not canonical: same fields, another key order, so another text for the same grant.
      await craft({ v: 1, pool, sub: owner.did, write: true, exp: NOW + HOUR, iss: owner.did }, owner),
    ]
    const good = await createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt: NOW + HOUR })
    cases.push(`${good.split('.')[0]}.${base64urlnopad.encode(new Uint8Array(63))}`)
    for (const token of cases) expect(await refusal(token, { pool }), token.slice(0, 60)).toBe(TokenFailure.MALFORMED)
    // The canonical craft of the same payload verifies: the check is about form, not content.
    expect((await verifyPoolToken(await craft(base, owner), { pool, now })).write).toBe(true)
  })

  test('ownership proof: the pool id derives from the issuer; a wrong proof is refused on both sides', async () => {
    const owner = await identity('owner')
    const stranger = await identity('stranger')
    const { pool, nonce } = poolOf(owner, 3)
    const proven = await createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt: NOW + HOUR, ownerProof: { nonce } })
    expect((await verifyPoolToken(proven, { pool, now })).ownerProven).toBe(true)
    await expect(createPoolToken(stranger, { pool, sub: stranger.did, write: true, expiresAt: NOW + HOUR, ownerProof: { nonce } })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT', details: { field: 'ownerProof' },
    })
    // A stranger who copies the owner's nonce into a token of their own.
    const fake = await craft({ exp: NOW + HOUR, iss: stranger.did, nonce, pool, sub: stranger.did, v: 1, write: true }, stranger)
    expect(await refusal(fake, { pool })).toBe(TokenFailure.BAD_OWNER_PROOF)
    // Tenant-scoped pools carry the tenant in the proof.
    const scoped = poolOf(owner, 4)
    const { derivePoolId } = await import('../../src/pools/records.js')
    const tenantPool = derivePoolId(owner.did, scoped.nonce, 'acme')
    const t = await createPoolToken(owner, { pool: tenantPool, sub: owner.did, write: true, expiresAt: NOW + HOUR, ownerProof: { nonce: scoped.nonce, tenant: 'acme' } })
    expect((await verifyPoolToken(t, { pool: tenantPool, now })).ownerProven).toBe(true)
  })

  test('createPoolToken validates its input', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const ok = { pool, sub: owner.did, write: true, expiresAt: NOW + HOUR }
    for (const [field, bad] of [
      ['pool', { ...ok, pool: '../etc' }],
      ['sub', { ...ok, sub: 'alice' }],
      ['write', { ...ok, write: 'true' }],
      ['expiresAt', { ...ok, expiresAt: Number.NaN }],
    ] as const) {
      await expect(createPoolToken(owner, bad as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field } })
    }
  })

  test('property: arbitrary text is refused with PERMISSION_DENIED, never another error', async () => {
    const owner = await identity('owner')
    const { pool } = poolOf(owner)
    const good = await createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt: NOW + HOUR })
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.base64String().map((s) => s.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')),
          // A genuine token with one character replaced.
          fc.tuple(fc.nat({ max: good.length - 1 }), fc.constantFrom(...'ABCdef012_-.')).map(([i, c]) => good.slice(0, i) + c + good.slice(i + 1)),
        ),
        async (text) => {
          fc.pre(text !== good)
          expect(Object.values(TokenFailure)).toContain(await refusal(text, { pool }))
        },
      ),
      { numRuns: 300, seed: 8 },
    )
  })
})
