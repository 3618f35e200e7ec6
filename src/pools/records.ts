import type { Identity } from '../core/identity.js'
import { signRecord as signGeneric, verifyRecord as verifyGeneric } from '../core/signed-record.js'
import { recordId } from '../core/ids.js'
import type { MemoryType, MergeStrategy, PoolId, PoolPolicies } from './types.js'

/**
 * The records of a pool (DESIGN.md "Records"): `{id, kind, pool, tenant, body, author, hlc, sig}`,
 * immutable, content-addressed (`id` = BLAKE2b-128 over the canonical JSON of everything but `id`
 * and `sig`) and signed (`sig` = the author's Ed25519 signature over the 16 id bytes). Every change
 * to a pool is one more record; nothing is edited in place. These are exactly what the sync issue
 * replicates, one Y.Doc per pool: `pool` says which document a record belongs to.
 */
export const PoolKind = {
  /** Founds the pool; its author is the owner. */
  CREATE: 'pool-create',
  /** Grants or revokes a member's rights (owner only). */
  ACL: 'pool-acl',
  /** Replaces the pool's policies (owner only). */
  POLICY: 'pool-policy',
  /** One pool content key wrapped for one member (owner only; encrypted pools). */
  KEY: 'pool-key',
  /** One memory, plaintext or sealed (writers). */
  MEMORY: 'pool-memory',
  /** Forgets memories: their records are hard-deleted, this keeps only their ids and chain links. */
  TOMBSTONE: 'pool-tombstone',
  /** Resolves a conflict: the losers are superseded by the winner (writers). */
  RESOLVE: 'pool-resolve',
  /** Reads of memories by one reader in one tick: the access count (readers). */
  ACCESS: 'pool-access',
  /** A user's feedback on a memory in [-1, 1] (readers). */
  RATING: 'pool-rating',
} as const
export type PoolKind = (typeof PoolKind)[keyof typeof PoolKind]

export const POOL_KINDS: readonly PoolKind[] = Object.values(PoolKind)

/** AES-256-GCM ciphertext under a pool key (base64 fields). */
export interface Sealed {
  readonly keyId: string
  readonly iv: string
  readonly ct: string
}

export interface CreateBody {
  readonly v: 1
  readonly nonce: string
  readonly encrypted: boolean
  readonly noTraining: boolean
  readonly publicDefault: boolean
  /** Plaintext name (unencrypted pools). */
  readonly name: string | null
  /** The name sealed under the first key (encrypted pools). */
  readonly sealedName: Sealed | null
  readonly policies: PoolPolicies
}

export interface AclBody {
  readonly member: string
  readonly read: boolean
  readonly write: boolean
  readonly expiresAt: number | null
  /**
   * On a record that takes rights away (a revocation, or a writer made a reader): the ids of the
   * member's records the owner held when it signed it, sorted. Every replica refuses any other
   * record of the member dated before this one the rights it takes away, whatever its date: a
   * record's clock is chosen by its author, so a revoked member could otherwise backdate records
   * into its old grant (docs/pools.md, "Revocation"). Absent on grants and on older records.
   */
  readonly cutoff?: readonly string[]
}

export interface PolicyBody {
  readonly policies: PoolPolicies
}

export interface KeyBody {
  readonly keyId: string
  /** Rotation counter: revoking a member starts a new epoch; the highest epoch seals new memories. */
  readonly epoch: number
  readonly member: string
  /** The wrapper's ephemeral Ed25519 point (base64). */
  readonly epk: string
  readonly iv: string
  readonly ct: string
}

/** Everything a memory says. In an encrypted pool this whole object is sealed. */
export interface MemoryPayload {
  readonly type: MemoryType
  readonly subject: string
  readonly predicate: string
  readonly object: string | number | boolean
  readonly context: string | null
  /** 0..1 at basis-point precision. */
  readonly confidence: number
  readonly source: string
  readonly evidence: readonly string[]
  /** Epoch ms; the write time, or the original time for an import. */
  readonly createdAt: number
  /** Seconds, or null. */
  readonly ttl: number | null
  readonly permanent: boolean
  readonly visibility: 'PUBLIC' | 'AUTHORIZED'
  readonly ephemeral: boolean
  readonly noTraining: boolean
  readonly supersedes: readonly string[]
  readonly merged: { readonly strategy: MergeStrategy; readonly from: readonly string[] } | null
}

export type MemoryBody = { readonly payload: MemoryPayload } | { readonly sealed: Sealed }

export type TombstoneReason = 'forget' | 'cascade' | 'ephemeral' | 'session-end' | 'expired' | 'pruned'

export interface TombstoneBody {
  /** Each forgotten memory with the links it had, so a supersession chain can be followed past the hole. */
  readonly targets: ReadonlyArray<{ readonly id: string; readonly supersedes: readonly string[] }>
  readonly reason: TombstoneReason
}

export interface ResolveBody {
  readonly winner: string
  readonly losers: readonly string[]
}

export interface AccessBody {
  readonly reads: readonly string[]
  readonly at: number
}

export interface RatingBody {
  readonly memory: string
  readonly rating: number
}

export type PoolBody = CreateBody | AclBody | PolicyBody | KeyBody | MemoryBody | TombstoneBody | ResolveBody | AccessBody | RatingBody

/** A stored pool record: a `StoredRecord` (src/storage/schema.ts) plus `pool`. */
export interface PoolRecord<B = PoolBody> {
  readonly id: string
  readonly kind: PoolKind
  readonly pool: PoolId
  readonly tenant: string | null
  readonly body: B
  readonly author: string
  readonly hlc: string
  readonly sig: string
}

export type UnsignedRecord<B = PoolBody> = Omit<PoolRecord<B>, 'id' | 'sig'>

/** The pool id an owner's create record must carry: it binds the pool to its owner, so no one else can found it. */
export function derivePoolId(owner: string, nonce: string, tenant: string | null): PoolId {
  return recordId({ kind: 'pool-id', owner, nonce, tenant }) as PoolId
}

/** Computes the id and signs it (src/core/signed-record.ts): raw clients and tests; the store signs through its record log. */
export async function signRecord<B extends PoolBody>(identity: Identity, record: UnsignedRecord<B>): Promise<PoolRecord<B>> {
  return (await signGeneric(identity, record)) as PoolRecord<B>
}

/** True when the id matches the content and the author's key signed it. Never throws. */
export function verifyRecord(record: PoolRecord): Promise<boolean> {
  return verifyGeneric(record)
}

export function isPoolRecord(row: unknown): row is PoolRecord {
  const r = row as PoolRecord | undefined
  return !!r && typeof r.kind === 'string' && r.kind.startsWith('pool-') && typeof r.pool === 'string'
}

/** Total order on records: hybrid-logical-clock text, then id. */
export function compareRecords(a: { hlc: string; id: string }, b: { hlc: string; id: string }): number {
  return a.hlc < b.hlc ? -1 : a.hlc > b.hlc ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
