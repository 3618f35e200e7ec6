import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createIdentity, didFromPublicKey, publicKeyFromDid, verifySignature } from '../../src/core/identity.js'
import { sign, verify } from '../../src/core/ed25519.js'
import { fromHex, toHex } from '../../src/core/bytes.js'
import { SHARED_DIR } from '../helpers/shared-path.js'

const vectors = JSON.parse(readFileSync(join(SHARED_DIR, 'specs/gmp/test-vectors.json'), 'utf8'))
const v = vectors.ed25519_provenance

describe('Ed25519 (RFC 8032 test 1 and the GMP provenance vector)', () => {
  test('derives the RFC 8032 public key from the seed', async () => {
    const id = await createIdentity({ seed: v['private_key_seed_hex (RFC 8032 test 1)'] })
    expect(toHex(id.publicKey)).toBe(v.public_key_hex)
  })

  test('RFC 8032 test 1: empty message signature', async () => {
    const seed = fromHex(v['private_key_seed_hex (RFC 8032 test 1)'])
    const expected =
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b'
    expect(toHex(await sign(new Uint8Array(0), seed, 'noble'))).toBe(expected)
    expect(toHex(await sign(new Uint8Array(0), seed, 'webcrypto'))).toBe(expected)
  })

  test.each(['noble', 'webcrypto'] as const)('%s signs the fact id to the known signature, byte for byte', async (backend) => {
    const seed = fromHex(v['private_key_seed_hex (RFC 8032 test 1)'])
    const sig = await sign(fromHex(v.fact_id_hex), seed, backend)
    expect(toHex(sig)).toBe(v.signature_hex)
    expect(await verify(sig, fromHex(v.fact_id_hex), fromHex(v.public_key_hex), backend)).toBe(true)
    expect(await verify(sig, fromHex(v.tampered_fact_id_hex), fromHex(v.public_key_hex), backend)).toBe(false)
    const flipped = sig.slice()
    flipped[0]! ^= 1
    expect(await verify(flipped, fromHex(v.fact_id_hex), fromHex(v.public_key_hex), backend)).toBe(false)
  })

  test('verify never throws on malformed input', async () => {
    expect(await verifySignature(new Uint8Array(3), new Uint8Array(1), new Uint8Array(32))).toBe(false)
    expect(await verifySignature(new Uint8Array(64), new Uint8Array(1), new Uint8Array(5))).toBe(false)
  })

  test('imported verification keys are reused: the same answers on every call, a refused key stays refused', async () => {
    const id = await createIdentity({ seed: new Uint8Array(32).fill(9) })
    const message = new Uint8Array([1, 2, 3])
    const sig = await id.sign(message)
    const forged = sig.slice()
    forged[0]! ^= 1
    for (let i = 0; i < 3; i++) {
      expect(await verify(sig, message, id.publicKey, 'webcrypto')).toBe(true)
      expect(await verify(forged, message, id.publicKey, 'webcrypto')).toBe(false)
      // Not a valid encoded point: false every time, whether the import or the check refuses it.
      expect(await verify(sig, message, new Uint8Array(32).fill(0xff), 'webcrypto')).toBe(false)
    }
  })
})

describe('did:key', () => {
  test('encodes Ed25519 keys as z6Mk... and decodes them back', async () => {
    const id = await createIdentity()
    expect(id.did.startsWith('did:key:z6Mk')).toBe(true)
    expect(toHex(publicKeyFromDid(id.did))).toBe(toHex(id.publicKey))
  })

  test('decoded did:keys are remembered, and each caller gets its own copy', async () => {
    const id = await createIdentity({ seed: new Uint8Array(32).fill(8) })
    const first = publicKeyFromDid(id.did)
    first.fill(0)
    expect(toHex(publicKeyFromDid(id.did))).toBe(toHex(id.publicKey))
  })

  test('the did:key spec example key round-trips', () => {
    // From the did:key method spec (w3c-ccg): an Ed25519 example identifier.
    const did = 'did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK'
    expect(didFromPublicKey(publicKeyFromDid(did))).toBe(did)
  })

  test.each(['did:web:example.com', 'did:key:zzzz', 'did:key:z0OIl', 'did:key:z6LSbysY2xFMRpGMhb7tFTLMpeuPRaqaWM1yECx2AtzE3KCc'])(
    'rejects %s with INVALID_ARGUMENT',
    (did) => {
      expect(() => publicKeyFromDid(did)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }))
    },
  )

  test('identities keep the seed private in JSON', async () => {
    const id = await createIdentity({ seed: new Uint8Array(32).fill(7) })
    const json = JSON.stringify(id)
    expect(json).toContain(id.did)
    expect(json).not.toContain('0707070707')
    await expect(createIdentity({ seed: 'abcd' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  })
})
