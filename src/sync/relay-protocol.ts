/**
 * What crosses the relay boundary: the y-websocket message framing (unchanged, so any y-websocket
 * client works), the one way the relay refuses a read-only member's write, the close codes, and
 * the pool token's payload. It lives on the client side of sync (the browser entry exports the close
 * codes and the refusal; websocket.ts sends TOKEN_PARAM); the Node-only relay (src/relay/) imports it
 * from here, never the other way round.
 *
 * Wire format of one websocket frame (binary; y-websocket/src/y-websocket.js, y-protocols):
 *
 *   varUint MessageType
 *   SYNC:            varUint SyncType, varUint8Array (a state vector for STEP1, a V1 update else)
 *   AWARENESS:       varUint8Array (an awareness update)
 *   AUTH:            varUint 0 (permission denied), varString reason      (relay to client only)
 *   QUERY_AWARENESS: nothing                                               (asks for awareness states)
 */

/** Top-level y-websocket message types. */
export const MessageType = {
  SYNC: 0,
  AWARENESS: 1,
  AUTH: 2,
  QUERY_AWARENESS: 3,
} as const
export type MessageType = (typeof MessageType)[keyof typeof MessageType]

/** y-protocols/sync message types inside a SYNC message. STEP2 and UPDATE carry document changes. */
export const SyncType = {
  STEP1: 0,
  STEP2: 1,
  UPDATE: 2,
} as const
export type SyncType = (typeof SyncType)[keyof typeof SyncType]

/**
 * A frame from a client, as the relay decodes it (frames.ts). The y-websocket framing has no
 * version field of its own: it is y-websocket's, unchanged; memweave's versioned part is the token.
 */
export type ClientMessage =
  | { readonly type: 'sync-step1'; readonly stateVector: Uint8Array }
  | { readonly type: 'sync-update'; readonly step: 'step2' | 'update'; readonly update: Uint8Array }
  | { readonly type: 'awareness'; readonly update: Uint8Array }
  | { readonly type: 'query-awareness' }

/**
 * How the relay refuses a write from a read-only member: an AUTH message "permission denied"
 * (y-protocols/auth) whose reason starts with this prefix. The connection stays open (the member
 * keeps reading) and the update is never applied, stored or forwarded. A stock y-websocket
 * client logs it (`console.warn('Permission denied to access <url>.\n<reason>')`); the sync layer
 * can observe it by replacing `provider.messageHandlers[MessageType.AUTH]`.
 */
export const READ_ONLY_REFUSAL = 'read-only:' as const

/**
 * Close codes the relay uses. y-websocket (>= 3.1) treats 4400-4499 as permanent: the provider
 * stops reconnecting and emits `closed` with the code and reason, so a client whose token is bad
 * does not hammer the relay; every other code is transient and the provider reconnects with
 * backoff. (Plain 1008 "policy violation" would make stock clients retry a dead token forever.)
 */
export const RelayCloseCode = {
  /** The relay is shutting down; reconnect later. */
  GOING_AWAY: 1001,
  /** A frame that is not a well-formed y-websocket message (text, truncated, unknown type, a bad update). */
  MALFORMED: 1007,
  /**
   * An update the relay refuses by rule (not applied, the sender reconnects): one that deletes or
   * replaces a pool tombstone's key (src/relay/tombstone-guard.ts). Not a 44xx: a replica that
   * holds such a change from elsewhere must keep reconnecting, its other changes are welcome.
   */
  REFUSED: 1008,
  /** A frame above `limits.maxMessageBytes` (sent by the `ws` library before the frame is buffered), or more than that before admission. */
  MESSAGE_TOO_BIG: 1009,
  /** The relay failed (a storage error, a bug); reconnect later. */
  INTERNAL: 1011,
  /** A cluster node lost its Redis (the pools' storage): every connection is closed, and new ones refused, until Redis is back; reconnect (another node may have it). */
  UNAVAILABLE: 1013,
  /** The token is missing, malformed, wrongly signed or expired (also when it expires mid-connection). */
  UNAUTHORIZED: 4401,
  /** The token is valid but not for this pool, or not issued by this pool's owner. */
  FORBIDDEN: 4403,
  /** The room name is not a valid pool id (`[a-z0-9_-]{1,128}`). */
  BAD_ROOM: 4404,
  /**
   * The update would grow the pool's document above `limits.maxDocumentBytes` (not applied), or it
   * left more than `limits.maxPendingBytes` of content whose dependencies are missing (that part dropped).
   */
  DOCUMENT_TOO_LARGE: 4413,
} as const
export type RelayCloseCode = (typeof RelayCloseCode)[keyof typeof RelayCloseCode]

/** Room names the relay accepts: memweave pool ids are 32 lowercase hex digits. Lowercase only, so a room is one directory on case-insensitive file systems too. */
export const ROOM_PATTERN = /^[a-z0-9_-]{1,128}$/

/** The query parameter that carries the pool token: `ws://host:port/<pool>?token=<token>`. */
export const TOKEN_PARAM = 'token' as const

/**
 * The signed part of a pool token (see pool-token.ts). Epoch milliseconds, did:key identities.
 * `nonce` and `tenant` are the pool-create record's: when present they prove that `iss` owns the
 * pool, since a memweave pool id is `derivePoolId(owner, nonce, tenant)`.
 */
export interface PoolTokenPayload {
  readonly v: 1
  /** The pool id (= the room name). */
  readonly pool: string
  /** The client the grant was issued to (did:key). Informational: the token is a bearer capability. */
  readonly sub: string
  /** Whether the client may push document changes; false = read-only member. */
  readonly write: boolean
  /** Expiry, epoch ms. */
  readonly exp: number
  /** The issuer, the pool owner (did:key); the signature is checked against this key. */
  readonly iss: string
  /** The pool-create nonce (hex), as an ownership proof. */
  readonly nonce?: string
  /** The pool's tenant, with `nonce`; absent = null. */
  readonly tenant?: string
}
