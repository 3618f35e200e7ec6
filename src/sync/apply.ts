import type { MemoryBody, PoolRecord, ResolveBody } from '../pools/records.js'
import { PoolKind } from '../pools/records.js'
import { isCheckpointKind } from './checkpoint.js'
import { decodeRecord } from './codec.js'
import { isContentKind } from './content.js'
import type { Plan } from './materialize.js'
import { signCheckpoints } from './owner-checkpoints.js'
import type { PassHost } from './pass-host.js'
import type { PoolSync } from './pool-sync.js'
import { EVICTING_REASONS, quarantineRowId, toQuarantineRow, type QuarantinedRecord } from './quarantine.js'
import { storeQuarantine } from './quarantine-store.js'

/** Records per record-log batch when a pass stores many (a device catching up): large transactions, not one per pass of everything. */
const APPEND_CHUNK = 10_000

/** Whether two quarantine reports say the same (the stored row is rewritten only when not). */
function sameReport(a: QuarantinedRecord | undefined, b: QuarantinedRecord): boolean {
  return a !== undefined && JSON.stringify(a) === JSON.stringify(b)
}

/**
 * The plan into storage: accepted records in, forgotten and no-longer-authorized ones out,
 * quarantine rewritten. What changed since the last pass (the planner's delta) when it can,
 * the whole plan against what is stored after a full pass, on open, or after a failed pass.
 */
export async function applyPlan(host: PassHost, ps: PoolSync, plan: Plan): Promise<void> {
  const delta = ps.planner.takeDelta()
  const full = delta === null || ps.fullApply
  ps.fullApply = true
  let puts: PoolRecord[]
  let forgotten: string[]
  let evictedRows: QuarantinedRecord[]
  let qChanged: QuarantinedRecord[]
  let qGone: string[]
  if (full) {
    puts = plan.accepted.filter((r) => !ps.stored.has(r.id))
    forgotten = [...plan.forgotten].filter((id) => ps.stored.has(id))
    evictedRows = plan.quarantined.filter((q) => EVICTING_REASONS.has(q.reason) && ps.stored.has(q.key))
    const after = new Map(plan.quarantined.map((q) => [q.key, q]))
    qChanged = plan.quarantined.filter((q) => !sameReport(ps.quarantine.get(q.key), q))
    qGone = [...ps.quarantine.keys()].filter((key) => !after.has(key))
  } else {
    puts = delta.accepted.filter((r) => !ps.stored.has(r.id))
    // A tombstone judged by itself forgets what it names (planner.ts `#forgetBy`).
    forgotten = delta.forgotten.filter((id) => ps.stored.has(id))
    evictedRows = delta.quarantined.filter((q) => EVICTING_REASONS.has(q.reason) && ps.stored.has(q.key))
    qChanged = delta.quarantined.filter((q) => !sameReport(ps.quarantine.get(q.key), q))
    qGone = delta.released.filter((key) => ps.quarantine.has(key))
  }
  const evicted = evictedRows.map((q) => q.key)
  const deletes = [...new Set([...forgotten, ...evicted])]
  const qPuts = qChanged.map((q) => toQuarantineRow(q, ps.pdoc.map.get(q.key)))
  const qDeletes = qGone.map((key) => quarantineRowId(ps.pool, key))
  const setQuarantine = (): void => {
    if (full) ps.quarantine = new Map(plan.quarantined.map((q) => [q.key, q]))
    else {
      for (const q of qChanged) ps.quarantine.set(q.key, q)
      for (const key of qGone) ps.quarantine.delete(key)
    }
  }
  if (puts.length === 0 && deletes.length === 0 && qPuts.length === 0 && qDeletes.length === 0) {
    setQuarantine()
    ps.fullApply = false
    await signCheckpoints(host, ps, full ? plan.accepted : delta.accepted)
    return
  }
  // One batch of the record log (forwarded to the leader where one commits for this handle); it
  // comes back through the feed as local, already held. A big catch-up goes in a few large
  // batches rather than one transaction of everything.
  // Marked first: a handle killed between these records and their facts is caught by the next open.
  await host.beforeApply?.()
  for (let i = 0; i < Math.max(puts.length, 1); i += APPEND_CHUNK) {
    const chunk = puts.slice(i, i + APPEND_CHUNK)
    const dels = i === 0 ? deletes : []
    if (chunk.length || dels.length) await host.log.append(chunk, dels)
    for (const r of chunk) ps.stored.add(r.id)
    for (const id of dels) {
      ps.stored.delete(id)
      ps.counted.delete(id)
    }
  }
  setQuarantine()
  // After the records, in transactions of their own: the report of a refused value must never
  // hold back an accepted record (issue 13: one unstorable row used to wedge the pool for good).
  await storeQuarantine(host.storage, qPuts, qDeletes, [...qChanged], (err) => host.fail(ps, err))
  // Stored and reported: the next pass may go by the planner's delta again.
  ps.fullApply = false
  await signCheckpoints(host, ps, full ? plan.accepted : delta.accepted)
  // Other modules' records reach their modules through the log; the pool store hears of its own only.
  const poolKind = (kind: string): boolean => !isContentKind(kind) && !isCheckpointKind(kind)
  const evictedOwn = evictedRows.filter((q) => poolKind(q.kind ?? '')).map((q) => q.key)
  const changed = [...puts.filter((r) => poolKind(r.kind)).map((r) => r.id), ...forgotten, ...evictedOwn, ...revived(ps, evictedOwn)]
  for (const id of changed) ps.unapplied.add(id)
}

/**
 * The pools module hears what was stored or removed (its fact view catches up): after each pass,
 * or, while the pool catches up (a join, a return from offline), once, when the catch-up ends, so
 * that the fact view is written in bulk. A change of `backgroundFrom` records or more (a join of
 * a big pool) is not waited for: the pool is `synced` once its records are stored and its pools
 * state has them, and the fact view is brought in line after; `mem.facts` reads wait for it
 * (FactLookup.hold) and `mem.pools.flush()` resolves once it is done. A smaller change is waited
 * for: the pool is not `synced` before it heard.
 */
export async function tellApplied(host: PassHost, ps: PoolSync): Promise<void> {
  if (ps.unapplied.size === 0 || !host.onApplied) return
  if (ps.catchingUp) {
    ps.wantMaterialize = true
    return
  }
  const ids = [...ps.unapplied]
  for (const id of ids) ps.unapplied.delete(id)
  const background = ids.length >= host.backgroundFrom
  const heard = host.onApplied(ps.pool, ids, { background }).catch((err: unknown) => {
    // Heard again on the next pass: nothing of the change is lost.
    for (const id of ids) ps.unapplied.add(id)
    throw err
  })
  // A waited-for failure fails this pass (the loop reports it and materializes again).
  if (!background) return heard
  heard.catch((err: unknown) => {
    ps.wantMaterialize = true
    host.fail(ps, err)
    host.changed()
  })
}

/**
 * Memories that may be current again because records leaving the store (refused after a grant
 * changed) superseded them: a merge's sources, an update's predecessor, a resolution's losers.
 * The fact view creates views only for memories it is told about.
 */
function revived(ps: PoolSync, evicted: readonly string[]): string[] {
  const out: string[] = []
  for (const id of evicted) {
    const d = decodeRecord(id, ps.pdoc.map.get(id))
    if (!d.ok) continue
    const body = d.record.body as Partial<MemoryBody & ResolveBody>
    if (d.record.kind === PoolKind.MEMORY && 'payload' in body && body.payload) out.push(...body.payload.supersedes, ...(body.payload.merged?.from ?? []))
    if (d.record.kind === PoolKind.RESOLVE && Array.isArray(body.losers)) out.push(...body.losers)
  }
  return out
}
