import type { RecordLog } from '../records/log.js'
import type { StoragePort } from '../storage/port.js'
import type { PoolId } from '../pools/types.js'
import type { PoolSync } from './pool-sync.js'
import type { SignatureCache } from './signatures.js'

/**
 * What the steps of a sync pass share with the loop that runs them (loop.ts): the Memory's record
 * log, sync's own tables, the signature verdicts, the settings, and the loop's signals. Steps run
 * one at a time, inside the loop, so none races another.
 */
export interface PassHost {
  readonly log: RecordLog
  /** The quarantine and `syncUpdates` tables: sync's own, not the record log's (stored records are read through `log`). */
  readonly storage: StoragePort
  readonly sigs: SignatureCache
  /** On the pool owner's replica: sign a checkpoint once this many accepted records are covered by none (0: never). */
  readonly checkpointEvery: number
  /** Take a valid checkpoint of the owner in place of each covered record's signature check. */
  readonly trustCheckpoints: boolean
  /** Called after records of a pool were stored or hard-deleted from another replica (the pool store's fact view catches up). */
  readonly onApplied: ((pool: PoolId, ids: readonly string[], options: { readonly background: boolean }) => Promise<void>) | undefined
  /** Awaited before records another replica sent are stored or hard-deleted (the pools' fact view marks its session). */
  readonly beforeApply: (() => Promise<void>) | undefined
  /** A change of this many records or more is taken in by the pools module in the background. */
  readonly backgroundFrom: number
  /** Whether sync was closed (a held record's timer is not set then). */
  readonly closed: boolean
  /** Records a pool's failure in its status (the pass goes on with the other pools). */
  fail(ps: PoolSync, err: unknown): void
  /** Runs a pass soon (after the ones running). */
  kick(): void
  /** Runs a pass and tells subscribers of the new status. */
  changed(): void
}
