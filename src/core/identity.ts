import { MemweaveError, ErrorCode, invalidArgument } from './errors.js'
import { concatBytes, fromBase58, toBase58, toHex, bytesFrom } from './bytes.js'
import { publicKeyFromSeed, randomSeed, sign, verify, type Ed25519Backend } from './ed25519.js'

/** A `did:key` identifier of an Ed25519 public key, e.g. `did:key:z6Mk...`. */
export type AgentDid = string & { readonly __brand: 'AgentDid' }

// Multicodec varint for ed25519-pub (0xed), per the did:key method spec.
const ED25519_MULTICODEC = Uint8Array.from([0xed, 0x01])

/** Encodes a 32-byte Ed25519 public key as `did:key:z...` (multibase base58btc, multicodec 0xed). */
export function didFromPublicKey(publicKey: Uint8Array): AgentDid {
  if (publicKey.length !== 32) throw invalidArgument('publicKey', `must be 32 bytes, got ${publicKey.length}`)
  return `did:key:z${toBase58(concatBytes(ED25519_MULTICODEC, publicKey))}` as AgentDid
}

/** Decodes a `did:key` of an Ed25519 key back to its 32 public-key bytes. */
export function publicKeyFromDid(did: string): Uint8Array {
  if (typeof did !== 'string' || !did.startsWith('did:key:z')) {
    throw invalidArgument('did', 'must be a did:key with a base58btc (z) multibase value')
  }
  let bytes: Uint8Array
  try {
    bytes = fromBase58(did.slice('did:key:z'.length))
  } catch (cause) {
    throw new MemweaveError(ErrorCode.INVALID_ARGUMENT, 'did: is not valid base58btc', { field: 'did' }, { cause })
  }
  if (bytes.length !== 34 || bytes[0] !== 0xed || bytes[1] !== 0x01) {
    throw invalidArgument('did', 'is not an Ed25519 did:key (multicodec 0xed01, 32-byte key)')
  }
  return bytes.slice(2)
}

/** Parses and brands a did:key string. */
export function parseAgentDid(did: string): AgentDid {
  publicKeyFromDid(did)
  return did as AgentDid
}

/**
 * An agent's signing identity. The seed never leaves the object: it is kept in a private field,
 * and `toJSON` shows only the public half.
 */
export interface Identity {
  readonly did: AgentDid
  readonly publicKey: Uint8Array
  /** Signs bytes with Ed25519. */
  sign(message: Uint8Array): Promise<Uint8Array>
}

class SeedIdentity implements Identity {
  readonly did: AgentDid
  readonly publicKey: Uint8Array
  readonly #seed: Uint8Array
  readonly #backend: Ed25519Backend

  constructor(seed: Uint8Array, publicKey: Uint8Array, backend: Ed25519Backend) {
    this.#seed = seed
    this.#backend = backend
    this.publicKey = publicKey
    this.did = didFromPublicKey(publicKey)
  }

  sign(message: Uint8Array): Promise<Uint8Array> {
    return sign(message, this.#seed, this.#backend)
  }

  /** The 32-byte seed, for the caller to persist. Handle with care. */
  exportSeed(): Uint8Array {
    return this.#seed.slice()
  }

  toJSON(): { did: string; publicKey: string } {
    return { did: this.did, publicKey: toHex(this.publicKey) }
  }
}

export interface CreateIdentityOptions {
  /** A 32-byte Ed25519 seed (RFC 8032 private key), as bytes, hex or base64. Random when absent. */
  readonly seed?: Uint8Array | string
  readonly backend?: Ed25519Backend
}

/**
 * Makes an Ed25519 identity from a seed, or a fresh random one.
 *
 * @throws MemweaveError INVALID_ARGUMENT when the seed is not 32 bytes.
 * @example
 * const alice = await createIdentity()
 * alice.did // 'did:key:z6Mk...'
 */
export async function createIdentity(options: CreateIdentityOptions = {}): Promise<Identity & { exportSeed(): Uint8Array }> {
  const seed = options.seed === undefined ? randomSeed() : bytesFrom(options.seed, [32])
  if (!seed) throw invalidArgument('seed', 'must be 32 bytes (Uint8Array, 64 hex digits or base64)')
  return new SeedIdentity(seed.slice(), await publicKeyFromSeed(seed), options.backend ?? 'auto')
}

/** Verifies an Ed25519 signature; false (never a throw) for anything malformed. */
export function verifySignature(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
  return verify(signature, message, publicKey)
}

export function isIdentity(value: unknown): value is Identity {
  return (
    typeof value === 'object' && value !== null &&
    typeof (value as Identity).sign === 'function' &&
    (value as Identity).publicKey instanceof Uint8Array
  )
}
