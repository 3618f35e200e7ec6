import type { Acl } from './acl.js'
import type { CreateBody, KeyBody, MemoryBody, MemoryPayload, PoolRecord, TombstoneBody } from './records.js'
import type { PoolId, PoolPolicies } from './types.js'

/**
 * What a pool's records derive to (state.ts derives it, view.ts looks at it at one instant). The
 * maps are kept up to date in place when a memory, access or rating record arrives (state.ts
 * `patch`): hold a Structure for one synchronous step, not across awaits.
 */
export interface ValidMemory {
  readonly id: string
  readonly record: PoolRecord<MemoryBody>
  /** Null while sealed under a key this identity does not hold. */
  readonly payload: MemoryPayload | null
}

export interface Structure {
  readonly id: PoolId
  readonly owner: string
  readonly tenant: string | null
  readonly createdAt: number
  readonly create: PoolRecord<CreateBody>
  readonly policies: PoolPolicies
  readonly acl: Acl
  /** Owner-signed key wraps. */
  readonly keys: readonly PoolRecord<KeyBody>[]
  readonly epoch: number
  /** Valid memories not covered by a tombstone (payload null when sealed to us). */
  readonly memories: ReadonlyMap<string, ValidMemory>
  /** Present memory records a valid tombstone covers: to be deleted from storage. */
  readonly dead: ReadonlySet<string>
  /**
   * Ids a valid tombstone forgot, with the links they had (chain repair). A target whose record is
   * not in the set counts (it cannot be judged, and after a hard delete it is absent everywhere);
   * a replica that holds it judges it with `forgottenBy` before believing its absence.
   */
  readonly forgotten: ReadonlyMap<string, readonly string[]>
  /** Valid tombstones by the ids they name (whether or not they may forget them). */
  readonly forgetters: ReadonlyMap<string, readonly PoolRecord<TombstoneBody>[]>
  /** In force (latest per pair wins): loser -> winner. */
  readonly resolutions: ReadonlyMap<string, string>
  readonly access: ReadonlyMap<string, { readonly count: number; readonly last: number }>
  readonly ratings: ReadonlyMap<string, number>
  /** How many of `memories` are sealed to this identity (payload null), counted as they come: `info()` reports it. */
  readonly sealed: number
}

export interface LiveMemory extends ValidMemory {
  readonly payload: MemoryPayload
}

/** Epoch ms at which a memory expires, or null. */
export function expiresAt(p: MemoryPayload): number | null {
  return p.permanent || p.ttl === null ? null : p.createdAt + Math.round(p.ttl * 1000)
}
