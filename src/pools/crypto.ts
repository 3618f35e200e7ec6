import { fromBase64, toBase64 } from '../core/bytes.js'
import { ErrorCode, MemweaveError } from '../core/errors.js'
import type { Sealed } from './records.js'

/**
 * AES-256-GCM and HKDF-SHA-256 through WebCrypto (`globalThis.crypto.subtle`: Node 20, every
 * current browser, workers). Keys used for sealing are imported non-extractable; the raw bytes of a
 * pool key live only in the key ring of an open handle, for wrapping it to new members.
 */

// TS types Uint8Array over ArrayBufferLike; WebCrypto wants ArrayBuffer-backed views. Ours always are.
const bs = (u: Uint8Array): Uint8Array<ArrayBuffer> => u as Uint8Array<ArrayBuffer>

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle
  if (!s) {
    throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'encrypted pools need WebCrypto (crypto.subtle), which this runtime lacks', {
      capability: 'webcrypto', operation: 'encrypt',
    })
  }
  return s
}

export function randomBytes(length: number): Uint8Array {
  return globalThis.crypto.getRandomValues(new Uint8Array(length))
}

/** Imports 32 raw bytes as a non-extractable AES-256-GCM key. */
export function importAesKey(raw: Uint8Array): Promise<CryptoKey> {
  return subtle().importKey('raw', bs(raw), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
}

/** Seals `plaintext` with a fresh 96-bit IV; `aad` binds the ciphertext to where it is stored. */
export async function seal(key: CryptoKey, keyId: string, plaintext: Uint8Array, aad: Uint8Array): Promise<Sealed> {
  const iv = randomBytes(12)
  const ct = new Uint8Array(await subtle().encrypt({ name: 'AES-GCM', iv: bs(iv), additionalData: bs(aad) }, key, bs(plaintext)))
  return { keyId, iv: toBase64(iv), ct: toBase64(ct) }
}

/** @throws MemweaveError INTEGRITY when the tag does not verify (wrong key, wrong aad, tampered bytes). */
export async function open(key: CryptoKey, sealed: Sealed, aad: Uint8Array): Promise<Uint8Array> {
  try {
    const iv = fromBase64(sealed.iv)
    const ct = fromBase64(sealed.ct)
    return new Uint8Array(await subtle().decrypt({ name: 'AES-GCM', iv: bs(iv), additionalData: bs(aad) }, key, bs(ct)))
  } catch (cause) {
    throw new MemweaveError(ErrorCode.INTEGRITY, 'sealed content does not decrypt under this key', {}, { cause })
  }
}

/** HKDF-SHA-256 (RFC 5869) to `length` bytes. */
export async function hkdf(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array, length = 32): Promise<Uint8Array> {
  const base = await subtle().importKey('raw', bs(ikm), 'HKDF', false, ['deriveBits'])
  const bits = await subtle().deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: bs(salt), info: bs(info) }, base, length * 8)
  return new Uint8Array(bits)
}

/** AES-GCM with a one-off key (key wrapping). */
export async function sealWith(raw: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Promise<{ iv: string; ct: string }> {
  const { iv, ct } = await seal(await importAesKey(raw), '', plaintext, aad)
  return { iv, ct }
}

export async function openWith(raw: Uint8Array, iv: string, ct: string, aad: Uint8Array): Promise<Uint8Array> {
  return open(await importAesKey(raw), { keyId: '', iv, ct }, aad)
}
