import { base64urlnopad } from '@scure/base'
import { concatBytes, fromUtf8, utf8 } from '../core/bytes.js'
import { ErrorCode, MemweaveError, invalidArgument } from '../core/errors.js'
import { parseAgentDid, publicKeyFromDid, verifySignature, type AgentDid, type Identity } from '../core/identity.js'
import { canonicalJson } from '../core/ids.js'
import { derivePoolId } from '../pools/records.js'
import { ROOM_PATTERN, type PoolTokenPayload } from './relay-protocol.js'

/**
 * Pool tokens: a compact grant signed by the pool owner's Ed25519 key, carried in the relay URL.
 *
 *   token   = base64url(canonical JSON of the payload) "." base64url(signature)
 *   message = utf8("memweave-pool-token/v1\n") ‖ utf8(first part)
 *
 * The payload is `{v: 1, pool, sub, write, exp, iss[, nonce, tenant]}` (relay-protocol.ts). The
 * signature covers the base64url text exactly as sent, with a domain prefix so that no other
 * memweave signature (records sign 16-byte ids) can be replayed as a token. Verification rejects a
 * payload that is not in canonical form, so one grant has exactly one token text.
 *
 * A token is a bearer capability: whoever holds it can use it until `exp`, whatever `sub` says
 * (the relay cannot ask a stock y-websocket client to prove its key). Keep expiries short and mint
 * a fresh token on reconnect; revoking a member in the pool's ACL stops the replicas from accepting
 * its records at once, and stops the relay from accepting its connection when its token expires.
 * Browser-safe: no Node imports. Owners mint tokens in the browser; the relay (src/relay/admission.ts)
 * verifies them with the same code.
 */

const DOMAIN = utf8('memweave-pool-token/v1\n')
/** Longest token text accepted, before any decoding: a grant is ~400 characters. */
const MAX_TOKEN_LENGTH = 4096
const HEX32 = /^[0-9a-f]{32}$/

/** Why a token was refused (`MemweaveError.details.reason`, code PERMISSION_DENIED). */
export const TokenFailure = {
  MISSING: 'missing',
  MALFORMED: 'malformed',
  BAD_SIGNATURE: 'bad-signature',
  EXPIRED: 'expired',
  WRONG_POOL: 'wrong-pool',
  WRONG_OWNER: 'wrong-owner',
  BAD_OWNER_PROOF: 'bad-owner-proof',
} as const
export type TokenFailure = (typeof TokenFailure)[keyof typeof TokenFailure]

export interface PoolTokenOptions {
  /** The pool id the token opens (the relay room). */
  readonly pool: string
  /** The member the grant is for (did:key). */
  readonly sub: string
  /** May push document changes. */
  readonly write: boolean
  /** Expiry as epoch ms or a Date. */
  readonly expiresAt: number | Date
  /**
   * The pool-create record's `nonce` (and `tenant`), to prove to the relay that the signer owns
   * the pool: then a relay that pinned another owner on first use re-pins to this one.
   */
  readonly ownerProof?: { readonly nonce: string; readonly tenant?: string | null }
}

/** A verified token. */
export interface PoolGrant {
  readonly pool: string
  readonly sub: AgentDid
  readonly write: boolean
  /** Epoch ms. */
  readonly expiresAt: number
  /** The issuer, whose key signed the token. */
  readonly owner: AgentDid
  /** True when the token proves `owner` owns `pool` (its pool id derives from owner, nonce, tenant). */
  readonly ownerProven: boolean
}

export interface VerifyPoolTokenOptions {
  /** The pool the client is connecting to; a token for another pool is refused. */
  readonly pool: string
  /** The pool's known owner: a token issued by anyone else is refused. Omitted: any issuer (trust on first use). */
  readonly owner?: string | null
  /** The clock, epoch ms. Default `Date.now`. */
  readonly now?: () => number
}

/**
 * Signs a pool token as the pool owner.
 *
 * @param owner the pool owner's identity (the signer; becomes `iss`)
 * @returns the token text, URL-safe
 * @throws MemweaveError INVALID_ARGUMENT for a bad pool id, did, expiry or proof.
 * @example
 * const token = await createPoolToken(owner, { pool, sub: member.did, write: false, expiresAt: Date.now() + 3_600_000 })
 * new WebsocketProvider('ws://127.0.0.1:7412', pool, doc, { params: { token } })
 */
export async function createPoolToken(owner: Identity, options: PoolTokenOptions): Promise<string> {
  if (typeof options !== 'object' || options === null) throw invalidArgument('options', 'must be an object')
  const { pool, sub, write, ownerProof } = options
  if (typeof pool !== 'string' || !ROOM_PATTERN.test(pool)) throw invalidArgument('pool', 'must be a pool id ([a-z0-9_-]{1,128})')
  try {
    parseAgentDid(sub)
  } catch {
    throw invalidArgument('sub', 'must be an Ed25519 did:key')
  }
  if (typeof write !== 'boolean') throw invalidArgument('write', 'must be a boolean')
  const exp = options.expiresAt instanceof Date ? options.expiresAt.getTime() : options.expiresAt
  if (!Number.isSafeInteger(exp) || exp <= 0) throw invalidArgument('expiresAt', 'must be an epoch-ms integer or a Date')
  let proof: { nonce?: string; tenant?: string } = {}
  if (ownerProof !== undefined) {
    const tenant = ownerProof.tenant ?? null
    if (typeof ownerProof.nonce !== 'string' || !HEX32.test(ownerProof.nonce)) throw invalidArgument('ownerProof.nonce', 'must be 32 lowercase hex digits')
    if (tenant !== null && typeof tenant !== 'string') throw invalidArgument('ownerProof.tenant', 'must be a string or null')
    if (derivePoolId(owner.did, ownerProof.nonce, tenant) !== pool) throw invalidArgument('ownerProof', 'does not derive this pool id from the signer')
    proof = tenant === null ? { nonce: ownerProof.nonce } : { nonce: ownerProof.nonce, tenant }
  }
  const payload: PoolTokenPayload = { v: 1, pool, sub, write, exp, iss: owner.did, ...proof }
  const body = base64urlnopad.encode(utf8(canonicalJson(payload)))
  const sig = await owner.sign(concatBytes(DOMAIN, utf8(body)))
  return `${body}.${base64urlnopad.encode(sig)}`
}

/**
 * Checks a pool token: form, pool, issuer, expiry, signature, and the ownership proof when it
 * carries one. Cheap checks run first, so a flood of junk tokens costs no signature verification.
 *
 * @returns the grant it carries
 * @throws MemweaveError PERMISSION_DENIED with `details.reason` a {@link TokenFailure}.
 * @example
 * const grant = await verifyPoolToken(token, { pool, owner: ownerDid })
 * if (!grant.write) console.log(`${grant.sub} may read, not write`)
 */
export async function verifyPoolToken(token: string | null | undefined, options: VerifyPoolTokenOptions): Promise<PoolGrant> {
  if (token === null || token === undefined || token === '') throw denied(TokenFailure.MISSING, 'no pool token: connect with ?token=<pool token>')
  const parsed = parse(token)
  const p = parsed.payload
  if (p.pool !== options.pool) throw denied(TokenFailure.WRONG_POOL, `the token is for pool ${p.pool}, not ${options.pool}`)
  const owner = options.owner ?? null
  if (owner !== null && p.iss !== owner) throw denied(TokenFailure.WRONG_OWNER, `the token is issued by ${p.iss}; pool ${p.pool} is owned by ${owner}`)
  const now = (options.now ?? Date.now)()
  if (now >= p.exp) throw denied(TokenFailure.EXPIRED, `the token expired at ${new Date(p.exp).toISOString()}`)
  if (!(await verifySignature(parsed.sig, concatBytes(DOMAIN, utf8(parsed.body)), publicKeyFromDid(p.iss)))) {
    throw denied(TokenFailure.BAD_SIGNATURE, `the token is not signed by its issuer ${p.iss}`)
  }
  let ownerProven = false
  if (p.nonce !== undefined) {
    if (derivePoolId(p.iss, p.nonce, p.tenant ?? null) !== p.pool) throw denied(TokenFailure.BAD_OWNER_PROOF, `pool ${p.pool} does not derive from ${p.iss} and the token's nonce`)
    ownerProven = true
  }
  return { pool: p.pool, sub: p.sub as AgentDid, write: p.write, expiresAt: p.exp, owner: p.iss as AgentDid, ownerProven }
}

function parse(token: string): { payload: PoolTokenPayload; body: string; sig: Uint8Array } {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw malformed('not a string of at most 4096 characters')
  const dot = token.indexOf('.')
  if (dot < 0 || token.indexOf('.', dot + 1) >= 0) throw malformed('not two base64url parts joined by "."')
  const body = token.slice(0, dot)
  let json: unknown
  let sig: Uint8Array
  try {
    sig = base64urlnopad.decode(token.slice(dot + 1))
    json = JSON.parse(fromUtf8(base64urlnopad.decode(body)))
  } catch {
    throw malformed('not base64url-encoded JSON')
  }
  if (sig.length !== 64 || base64urlnopad.encode(sig) !== token.slice(dot + 1)) throw malformed('the signature is not 64 bytes of base64url')
  const p = json as Record<string, unknown>
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw malformed('the payload is not an object')
  const known = new Set(['v', 'pool', 'sub', 'write', 'exp', 'iss', 'nonce', 'tenant'])
  if (Object.keys(p).some((k) => !known.has(k))) throw malformed('the payload has unknown fields')
  if (p['v'] !== 1) throw malformed('unknown token version')
  if (typeof p['pool'] !== 'string' || !ROOM_PATTERN.test(p['pool'])) throw malformed('bad pool')
  if (typeof p['write'] !== 'boolean') throw malformed('bad write flag')
  if (!Number.isSafeInteger(p['exp'])) throw malformed('bad exp')
  for (const field of ['sub', 'iss'] as const) {
    try {
      parseAgentDid(p[field] as string)
    } catch {
      throw malformed(`${field} is not an Ed25519 did:key`)
    }
  }
  if (p['nonce'] !== undefined && (typeof p['nonce'] !== 'string' || !HEX32.test(p['nonce']))) throw malformed('bad nonce')
  if (p['tenant'] !== undefined && (typeof p['tenant'] !== 'string' || p['nonce'] === undefined)) throw malformed('bad tenant')
  // One grant, one text: a re-encoded payload must be byte-identical to what was signed.
  if (base64urlnopad.encode(utf8(canonicalJson(p))) !== body) throw malformed('the payload is not canonical JSON')
  return { payload: p as unknown as PoolTokenPayload, body, sig }
}

function malformed(why: string): MemweaveError {
  return denied(TokenFailure.MALFORMED, `malformed pool token: ${why}`)
}

function denied(reason: TokenFailure, message: string): MemweaveError {
  return new MemweaveError(ErrorCode.PERMISSION_DENIED, message, { reason })
}
