import * as noble from '@noble/ed25519'

/**
 * A WebCrypto `CryptoKey` (the browser's, or Node's `crypto.webcrypto`). Spelled through
 * `globalThis` so the shipped types need neither the DOM lib nor an @types/node that declares a
 * global CryptoKey: where neither does, it is an opaque object.
 */
export type WebCryptoKey = typeof globalThis extends { CryptoKey: { prototype: infer K } } ? K : object
import { concatBytes, toHex } from './bytes.js'

/**
 * Ed25519 through WebCrypto where the runtime has it (about five times faster than pure JS,
 * see DESIGN.md "Records"), else @noble/ed25519. Ed25519 is deterministic (RFC 8032), so both
 * paths give byte-identical signatures; a test pins that.
 */

// PKCS#8 wrapper for a raw 32-byte Ed25519 seed (RFC 8410): WebCrypto cannot import raw private keys.
const PKCS8_PREFIX = Uint8Array.from([0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20])

// TS types Uint8Array over ArrayBufferLike; WebCrypto wants ArrayBuffer-backed views. Ours always are.
const bs = (u: Uint8Array): Uint8Array<ArrayBuffer> => u as Uint8Array<ArrayBuffer>

let webCryptoOk: Promise<boolean> | undefined

function subtle(): SubtleCrypto | undefined {
  return globalThis.crypto?.subtle
}

/** Whether this runtime's WebCrypto signs with Ed25519 (Node 20+, Chrome 137+, Firefox 129+, Safari 17+). */
export function hasWebCryptoEd25519(): Promise<boolean> {
  webCryptoOk ??= (async () => {
    const s = subtle()
    if (!s) return false
    try {
      await s.importKey('raw', new Uint8Array(32), { name: 'Ed25519' }, false, ['verify'])
      return true
    } catch {
      return false
    }
  })()
  return webCryptoOk
}

export type Ed25519Backend = 'webcrypto' | 'noble' | 'auto'

async function useWebCrypto(backend: Ed25519Backend): Promise<boolean> {
  return backend === 'webcrypto' || (backend === 'auto' && (await hasWebCryptoEd25519()))
}

export function randomSeed(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32))
}

export async function publicKeyFromSeed(seed: Uint8Array): Promise<Uint8Array> {
  return noble.getPublicKeyAsync(seed)
}

/** Imports a seed as a WebCrypto private key; `extractable: false` keeps it out of reach of page scripts. */
export async function importSigningKey(seed: Uint8Array, extractable = false): Promise<WebCryptoKey> {
  return subtle()!.importKey('pkcs8', bs(concatBytes(PKCS8_PREFIX, seed)), { name: 'Ed25519' }, extractable, ['sign'])
}

export async function sign(message: Uint8Array, seed: Uint8Array, backend: Ed25519Backend = 'auto'): Promise<Uint8Array> {
  if (await useWebCrypto(backend)) {
    const key = await importSigningKey(seed)
    return new Uint8Array(await subtle()!.sign({ name: 'Ed25519' }, key, bs(message)))
  }
  return noble.signAsync(message, seed)
}

export async function signWithKey(message: Uint8Array, key: WebCryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await subtle()!.sign({ name: 'Ed25519' }, key, bs(message)))
}

/**
 * Imported verification keys by public key (hex). Importing costs about as much as verifying, and
 * a replica verifies thousands of records by the same few authors (a 100k-record pool of one
 * writer: 100k imports of one key). Public keys only; bounded, so a flood of authors cannot grow it.
 */
const verifyKeys = new Map<string, Promise<CryptoKey>>()
const VERIFY_KEYS_MAX = 1024

function verifyKey(publicKey: Uint8Array): Promise<CryptoKey> {
  const hex = toHex(publicKey)
  let key = verifyKeys.get(hex)
  if (!key) {
    if (verifyKeys.size >= VERIFY_KEYS_MAX) verifyKeys.clear()
    key = subtle()!.importKey('raw', bs(publicKey.slice()), { name: 'Ed25519' }, false, ['verify'])
    // A key WebCrypto refuses is not remembered: the next call fails the same way, and nothing leaks.
    key.catch(() => verifyKeys.delete(hex))
    verifyKeys.set(hex, key)
  }
  return key
}

/** Never throws: malformed keys or signatures verify as false. */
export async function verify(
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
  backend: Ed25519Backend = 'auto',
): Promise<boolean> {
  if (signature.length !== 64 || publicKey.length !== 32) return false
  try {
    if (await useWebCrypto(backend)) {
      return await subtle()!.verify({ name: 'Ed25519' }, await verifyKey(publicKey), bs(signature), bs(message))
    }
    // zip215 off: the strict RFC 8032 rules, which is what WebCrypto implements too.
    return await noble.verifyAsync(signature, message, publicKey, { zip215: false })
  } catch {
    return false
  }
}
