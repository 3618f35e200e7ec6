import { MemweaveError, ErrorCode, invalidArgument } from './errors.js'
import { concatBytes, fromBase58, toBase58, toHex, bytesFrom } from './bytes.js'
import { hasWebCryptoEd25519, importSigningKey, publicKeyFromSeed, randomSeed, sign, signWithKey, verify, type Ed25519Backend, type WebCryptoKey } from './ed25519.js'

/** A `did:key` identifier of an Ed25519 public key, e.g. `did:key:z6Mk...`. */
export type AgentDid = string & { readonly __brand: 'AgentDid' }

// Multicodec varint for ed25519-pub (0xed), per the did:key method spec.
const ED25519_MULTICODEC = Uint8Array.from([0xed, 0x01])

/** Encodes a 32-byte Ed25519 public key as `did:key:z...` (multibase base58btc, multicodec 0xed). */
export function didFromPublicKey(publicKey: Uint8Array): AgentDid {
  if (publicKey.length !== 32) throw invalidArgument('publicKey', `must be 32 bytes, got ${publicKey.length}`)
  return `did:key:z${toBase58(concatBytes(ED25519_MULTICODEC, publicKey))}` as AgentDid
}

/**
 * Decoded did:keys. Base58 decoding is quadratic in the length and ran once per verified record
 * (a quarter of verifying a synced pool); a replica sees few distinct authors. Bounded.
 */
const decodedDids = new Map<string, Uint8Array>()
const DECODED_DIDS_MAX = 1024

/** Decodes a `did:key` of an Ed25519 key back to its 32 public-key bytes. */
export function publicKeyFromDid(did: string): Uint8Array {
  const known = decodedDids.get(did)
  if (known) return known.slice()
  const key = decodeDid(did)
  if (decodedDids.size >= DECODED_DIDS_MAX) decodedDids.clear()
  decodedDids.set(did, key.slice())
  return key
}

function decodeDid(did: string): Uint8Array {
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
  #key: Promise<CryptoKey> | undefined

  constructor(seed: Uint8Array, publicKey: Uint8Array, backend: Ed25519Backend) {
    this.#seed = seed
    this.#backend = backend
    this.publicKey = publicKey
    this.did = didFromPublicKey(publicKey)
  }

  async sign(message: Uint8Array): Promise<Uint8Array> {
    // Importing the key costs as much as signing: import it once per identity.
    if (this.#backend !== 'noble' && (this.#backend === 'webcrypto' || (await hasWebCryptoEd25519()))) {
      this.#key ??= importSigningKey(this.#seed)
      return signWithKey(message, await this.#key)
    }
    return sign(message, this.#seed, 'noble')
  }

  /** The 32-byte seed, for the caller to persist. Handle with care. */
  exportSeed(): Uint8Array {
    return this.#seed.slice()
  }

  toJSON(): { did: string; publicKey: string } {
    return { did: this.did, publicKey: toHex(this.publicKey) }
  }
}

/**
 * An identity whose private key is a WebCrypto CryptoKey. Made non-extractable, the key cannot be
 * read by any script, yet it can be stored in IndexedDB and posted to a worker (structured clone).
 */
class CryptoKeyIdentity implements Identity {
  readonly did: AgentDid
  readonly publicKey: Uint8Array
  readonly privateKey: WebCryptoKey

  constructor(publicKey: Uint8Array, privateKey: WebCryptoKey) {
    this.publicKey = publicKey
    this.privateKey = privateKey
    this.did = didFromPublicKey(publicKey)
  }

  sign(message: Uint8Array): Promise<Uint8Array> {
    return signWithKey(message, this.privateKey)
  }

  toJSON(): { did: string; publicKey: string } {
    return { did: this.did, publicKey: toHex(this.publicKey) }
  }
}

/** A key pair as it crosses a worker boundary or sits in IndexedDB: no functions, structured-cloneable. */
export type IdentityKeys =
  | { readonly type: 'seed'; readonly seed: Uint8Array }
  | { readonly type: 'cryptokey'; readonly publicKey: Uint8Array; readonly privateKey: WebCryptoKey }

/** The cloneable key material of an identity made by this module. */
export function identityKeys(identity: Identity): IdentityKeys {
  if (identity instanceof SeedIdentity) return { type: 'seed', seed: identity.exportSeed() }
  if (identity instanceof CryptoKeyIdentity) return { type: 'cryptokey', publicKey: identity.publicKey, privateKey: identity.privateKey }
  throw invalidArgument('identity', 'must be made by createIdentity() or identityFromKeys() to cross a worker boundary')
}

/** Rebuilds an identity from its key material (the inverse of identityKeys). */
export async function identityFromKeys(keys: IdentityKeys): Promise<Identity> {
  if (keys?.type === 'seed') return createIdentity({ seed: keys.seed })
  if (keys?.type === 'cryptokey' && keys.publicKey instanceof Uint8Array && keys.publicKey.length === 32) {
    return new CryptoKeyIdentity(keys.publicKey, keys.privateKey)
  }
  throw invalidArgument('identity', 'is not a seed or an Ed25519 CryptoKey pair')
}

export interface CreateIdentityOptions {
  /** A 32-byte Ed25519 seed (RFC 8032 private key), as bytes, hex or base64. Random when absent. */
  readonly seed?: Uint8Array | string
  readonly backend?: Ed25519Backend
  /**
   * Generate the key inside WebCrypto as a non-extractable CryptoKey (needs Ed25519 in WebCrypto:
   * Chrome 137+, Firefox 129+, Safari 17+, Node 20). Such an identity has no `exportSeed()`.
   */
  readonly nonExtractable?: boolean
}

/**
 * Makes an Ed25519 identity from a seed, or a fresh random one.
 *
 * @throws MemweaveError INVALID_ARGUMENT when the seed is not 32 bytes.
 * @example
 * const alice = await createIdentity()
 * alice.did // 'did:key:z6Mk...'
 */
export async function createIdentity(options: CreateIdentityOptions & { nonExtractable: true }): Promise<Identity>
export async function createIdentity(options?: CreateIdentityOptions): Promise<Identity & { exportSeed(): Uint8Array }>
export async function createIdentity(options: CreateIdentityOptions = {}): Promise<Identity> {
  if (options.nonExtractable) {
    if (options.seed !== undefined) throw invalidArgument('seed', 'cannot be combined with nonExtractable')
    let pair: CryptoKeyPair
    try {
      pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify'])) as CryptoKeyPair
    } catch (cause) {
      throw new MemweaveError(ErrorCode.CAPABILITY_NOT_SUPPORTED, 'this runtime has no Ed25519 in WebCrypto; use a seed identity', { capability: 'webcrypto-ed25519', operation: 'createIdentity' }, { cause })
    }
    const pub = new Uint8Array(await crypto.subtle.exportKey('raw', pair.publicKey))
    return new CryptoKeyIdentity(pub, pair.privateKey)
  }
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
