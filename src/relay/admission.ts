import { isMemweaveError } from '../core/errors.js'
import type { OwnerPin } from './owner-pin.js'
import { RelayCloseCode } from '../sync/relay-protocol.js'
import type { RoomSource, ServedRoom } from './room-source.js'
import { TokenFailure, verifyPoolToken, type PoolGrant } from '../sync/pool-token.js'

/** How the relay decides whose tokens open a room. */
export interface AdmissionPolicy {
  /** Owners fixed by configuration, by pool id: their rooms never learn or change owners. */
  readonly owners: ReadonlyMap<string, string>
  /** `required`: a room without a configured owner is pinned only by a token with an ownership proof. */
  readonly ownerProof: 'optional' | 'required'
  readonly now: () => number
}

/** A connection the relay refuses: the close code and a reason of at most 123 bytes. */
export class Refusal extends Error {
  readonly code: number
  constructor(code: number, reason: string) {
    super(reason)
    this.name = 'Refusal'
    this.code = code
  }
}

/** Close reasons by token failure: short (they travel in a close frame), no DIDs. */
const REASONS: Record<TokenFailure, [number, string]> = {
  [TokenFailure.MISSING]: [RelayCloseCode.UNAUTHORIZED, 'missing: connect with ?token=<pool token signed by the pool owner>'],
  [TokenFailure.MALFORMED]: [RelayCloseCode.UNAUTHORIZED, 'malformed: the token is not a memweave pool token'],
  [TokenFailure.BAD_SIGNATURE]: [RelayCloseCode.UNAUTHORIZED, 'bad-signature: the token is not signed by its issuer'],
  [TokenFailure.EXPIRED]: [RelayCloseCode.UNAUTHORIZED, 'expired: the token has expired; connect with a fresh one'],
  [TokenFailure.WRONG_POOL]: [RelayCloseCode.FORBIDDEN, 'wrong-pool: the token is for another pool'],
  [TokenFailure.WRONG_OWNER]: [RelayCloseCode.FORBIDDEN, "wrong-owner: the token is not issued by this pool's owner"],
  [TokenFailure.BAD_OWNER_PROOF]: [RelayCloseCode.FORBIDDEN, 'bad-owner-proof: the pool id does not derive from the issuer and nonce'],
}

function refuse(failure: TokenFailure): Refusal {
  const [code, reason] = REASONS[failure]
  return new Refusal(code, reason)
}

/**
 * Admits a connection to a room: verifies its token, then checks the issuer against the room's
 * owner (configured, proven or pinned on first use; see owner-pin.ts), pinning or re-pinning it
 * when this token is the first or proves ownership. The document is loaded only once the token is
 * known good. On success the room is held (the caller releases it when the connection closes).
 *
 * @returns the held room and the grant
 * @throws Refusal
 */
export async function admit(
  token: string | null,
  roomName: string,
  rooms: RoomSource,
  policy: AdmissionPolicy,
): Promise<{ room: ServedRoom; grant: PoolGrant }> {
  const configured = policy.owners.get(roomName) ?? null
  let grant: PoolGrant
  try {
    grant = await verifyPoolToken(token, { pool: roomName, owner: configured, now: policy.now })
  } catch (err) {
    if (isMemweaveError(err) && typeof err.details.reason === 'string' && err.details.reason in REASON_KEYS) throw refuse(err.details.reason as TokenFailure)
    throw err
  }
  if (configured !== null) return { room: await rooms.acquire(roomName), grant }
  if (policy.ownerProof === 'required' && !grant.ownerProven) {
    throw new Refusal(RelayCloseCode.FORBIDDEN, 'owner-proof-required: this relay admits only tokens that prove pool ownership')
  }
  // Refuse before loading anything when the pin already says no.
  const known = await rooms.pinOf(roomName)
  if (known && verdict(known, grant) === 'refuse') throw refuse(TokenFailure.WRONG_OWNER)
  const room = await rooms.acquire(roomName)
  // Decided and pinned with no await in between, so two first connections cannot both pin.
  const pin = room.owner
  const outcome = pin ? verdict(pin, grant) : 'pin'
  if (outcome === 'refuse') {
    rooms.release(roomName, room)
    throw refuse(TokenFailure.WRONG_OWNER)
  }
  if (outcome === 'pin' || outcome === 'repin') {
    try {
      await room.pin({ owner: grant.owner, source: grant.ownerProven ? 'proof' : 'tofu', at: policy.now() })
    } catch (err) {
      rooms.release(roomName, room)
      throw err
    }
  }
  if (outcome === 'repin') {
    for (const peer of room.peers()) {
      if (peer.grant.owner !== grant.owner) peer.close(RelayCloseCode.FORBIDDEN, 'owner-changed: a token proved another owner for this pool')
    }
  }
  return { room, grant }
}

const REASON_KEYS: Record<string, true> = Object.fromEntries(Object.values(TokenFailure).map((r) => [r, true]))

/**
 * What a token does to a pinned room: `ok` (same owner), `pin` (same owner, now proven: upgrade
 * the pin), `repin` (another owner, proven, over a pin taken on trust: the room changes hands and
 * everyone admitted under the old owner is closed), `refuse`.
 */
function verdict(pin: OwnerPin, grant: PoolGrant): 'ok' | 'pin' | 'repin' | 'refuse' {
  if (pin.owner === grant.owner) return pin.source === 'tofu' && grant.ownerProven ? 'pin' : 'ok'
  return pin.source === 'tofu' && grant.ownerProven ? 'repin' : 'refuse'
}
