import * as ed from '@noble/ed25519'
import { concatBytes, fromBase64, toBase64, utf8 } from '../core/bytes.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import { publicKeyFromDid, type Identity } from '../core/identity.js'
import { hkdf, openWith, randomBytes, sealWith } from './crypto.js'
import type { KeyBody } from './records.js'

/**
 * Per-member wrapping of a pool content key, ECIES-style: X25519 between a fresh ephemeral key and
 * the member's identity key, HKDF-SHA-256, then AES-256-GCM over the 32 key bytes.
 *
 * The member's X25519 key is its Ed25519 `did:key` under the RFC 7748 birational map (the one
 * libsodium's `crypto_sign_ed25519_pk_to_curve25519` applies), so the owner can wrap for any DID
 * without a key-exchange round trip. The Diffie-Hellman runs on the Edwards form with
 * @noble/ed25519's constant-time `Point.multiply`, already a dependency, and outputs the Montgomery
 * u-coordinate: byte for byte the X25519 shared secret of the converted keys (a test checks this
 * against node:crypto's X25519). No new package is needed.
 *
 * Opening a wrap needs the member's secret scalar: an identity with `exportSeed()` (a seed
 * identity) has it; a non-extractable WebCrypto identity has none, and cannot open encrypted pools
 * unless it offers `agree(peerPublicKey)` (the X25519 shared secret with an Ed25519 public key).
 */
export interface KeyAgreement {
  /** The 32-byte X25519 shared secret between this identity and an Ed25519 public key. */
  agree(peerEd25519PublicKey: Uint8Array): Promise<Uint8Array>
}

const P = 2n ** 255n - 19n
const INFO = 'memweave/pool-key-wrap/v1'

function modPow(base: bigint, exp: bigint): bigint {
  let result = 1n
  let b = ((base % P) + P) % P
  let e = exp
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P
    b = (b * b) % P
    e >>= 1n
  }
  return result
}

/** RFC 7748 §4.1: u = (1 + y) / (1 - y) mod p, 32 bytes little-endian. */
export function montgomeryU(point: ed.Point): Uint8Array {
  const { y } = point.toAffine()
  const u = (((1n + y) * modPow(1n - y, P - 2n)) % P + P) % P
  const out = new Uint8Array(32)
  let v = u
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

/** Decodes a peer key and refuses small-order or mixed-order points (which would leak or fix the secret). */
function peerPoint(publicKey: Uint8Array): ed.Point {
  let p: ed.Point
  try {
    p = ed.Point.fromBytes(publicKey)
  } catch (cause) {
    throw new MemweaveError(ErrorCode.INTEGRITY, 'key agreement: not an Ed25519 point', {}, { cause })
  }
  if (p.isSmallOrder() || !p.isTorsionFree()) throw new MemweaveError(ErrorCode.INTEGRITY, 'key agreement: small-order or mixed-order point')
  return p
}

/** X25519 between an Ed25519 secret scalar and an Ed25519 public key (both under the RFC 7748 map). */
export function sharedSecret(scalar: bigint, peerPublicKey: Uint8Array): Uint8Array {
  return montgomeryU(peerPoint(peerPublicKey).multiply(scalar))
}

/** Key agreement from a seed (RFC 8032 secret scalar), cached per identity object. */
const cache = new WeakMap<object, KeyAgreement | null>()

export async function keyAgreementFor(identity: Identity): Promise<KeyAgreement | null> {
  if (cache.has(identity)) return cache.get(identity)!
  const withAgree = identity as Identity & Partial<KeyAgreement>
  const withSeed = identity as Identity & { exportSeed?: () => Uint8Array }
  let agreement: KeyAgreement | null = null
  if (typeof withAgree.agree === 'function') {
    agreement = { agree: (peer) => withAgree.agree!(peer) }
  } else if (typeof withSeed.exportSeed === 'function') {
    const seed = withSeed.exportSeed()
    const { scalar } = await ed.utils.getExtendedPublicKeyAsync(seed)
    seed.fill(0)
    agreement = { agree: async (peer) => sharedSecret(scalar, peer) }
  }
  cache.set(identity, agreement)
  return agreement
}

function wrapInfo(pool: string, keyId: string, epoch: number, member: string): Uint8Array {
  return utf8([INFO, pool, keyId, String(epoch), member].join('\u001f'))
}

/** Wraps `rawKey` for `member` (a did:key). Anyone can wrap; only the member can unwrap. */
export async function wrapKey(pool: string, keyId: string, epoch: number, member: string, rawKey: Uint8Array): Promise<KeyBody> {
  const memberPub = publicKeyFromDid(member)
  const eph = randomBytes(32)
  const { scalar, pointBytes } = await ed.utils.getExtendedPublicKeyAsync(eph)
  eph.fill(0)
  const shared = sharedSecret(scalar, memberPub)
  const info = wrapInfo(pool, keyId, epoch, member)
  const kek = await hkdf(shared, concatBytes(pointBytes, memberPub), info)
  const { iv, ct } = await sealWith(kek, rawKey, info)
  return { keyId, epoch, member, epk: toBase64(pointBytes), iv, ct }
}

/** @throws MemweaveError INTEGRITY when the wrap is not for this identity or was tampered with. */
export async function unwrapKey(pool: string, body: KeyBody, agreement: KeyAgreement, memberPublicKey: Uint8Array): Promise<Uint8Array> {
  const epk = fromBase64(body.epk)
  const shared = await agreement.agree(epk)
  const info = wrapInfo(pool, body.keyId, body.epoch, body.member)
  const kek = await hkdf(shared, concatBytes(epk, memberPublicKey), info)
  const raw = await openWith(kek, body.iv, body.ct, info)
  if (raw.length !== 32) throw new MemweaveError(ErrorCode.INTEGRITY, 'unwrapped pool key is not 32 bytes')
  return raw
}
