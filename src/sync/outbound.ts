import { isPooled } from '../core/signed-record.js'
import { POOL_KINDS, PoolKind, type PoolRecord } from '../pools/records.js'
import type { PoolId } from '../pools/types.js'
import type { LogChange } from '../records/types.js'
import type { RecordLog } from '../records/log.js'
import { CHECKPOINT_KIND } from './checkpoint.js'
import { CONTENT_KINDS } from './content.js'
import { Origin } from './pool-doc.js'
import type { PoolSync } from './pool-sync.js'

// The outbound side of a pass: stored records into their pool's document, from the record log's
// feed as it goes, or all of a pool's at once (on open, or when the log reloaded).

/** Every record of the pool in storage enters the document (on open, or when the record log reloaded). */
export async function reconcile(log: RecordLog, ps: PoolSync): Promise<void> {
  ps.wantReconcile = false
  const stored = await log.recordsOfKinds([...POOL_KINDS, ...CONTENT_KINDS, CHECKPOINT_KIND])
  const records = stored.filter((r) => isPooled(r) && r.pool === ps.pool) as unknown as PoolRecord[]
  ps.stored.clear()
  for (const r of records) ps.stored.add(r.id)
  toDoc(ps, records)
  ps.catchUpOn(records.map((r) => r.id))
  ps.fullCheck = true
  ps.fullApply = true
  ps.wantMaterialize = true
}

/**
 * What the record log appended since the last pass: pooled records not held yet enter their
 * pool's document. Net of the changes in between: a record removed after it was appended is not
 * sent. What this layer appended itself comes back here too, already held (`stored`): skipped.
 */
export function outbound(changes: readonly LogChange[], pools: ReadonlyMap<PoolId, { readonly sync: PoolSync }>): void {
  const appended = new Map<string, PoolRecord>()
  for (const change of changes) {
    for (const r of change.records) if (isPooled(r)) appended.set(r.id, r as PoolRecord)
    for (const id of change.removed) {
      appended.delete(id)
      for (const { sync } of pools.values()) sync.stored.delete(id)
    }
  }
  const byPool = new Map<PoolId, PoolRecord[]>()
  for (const r of appended.values()) {
    const entry = pools.get(r.pool)
    // A pool still loading takes every stored record in its first reconcile.
    if (!entry || !entry.sync.loaded || entry.sync.stored.has(r.id)) continue
    entry.sync.stored.add(r.id)
    let list = byPool.get(r.pool)
    if (!list) byPool.set(r.pool, (list = []))
    list.push(r)
  }
  for (const [pool, records] of byPool) toDoc(pools.get(pool)!.sync, records)
}

/**
 * Local records into the document. The keys a tombstone forgets leave it in the materialize step
 * of the same pass, after the tombstone (so no peer sees a removal before the tombstone that
 * justifies it), and only those the plan says it forgets: a stored tombstone is not a licence to
 * delete its targets, who may forget whose memory is authority.ts `mayForget` (issue 13).
 */
export function toDoc(ps: PoolSync, records: readonly PoolRecord[]): void {
  ps.noteSent(ps.pdoc.write(records, [], Origin.LOCAL))
  if (records.some((r) => r.kind === PoolKind.TOMBSTONE)) ps.wantMaterialize = true
}
