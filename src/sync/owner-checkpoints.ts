import type { PoolRecord } from '../pools/records.js'
import { CHECKPOINT_KIND, MAX_COVERED, checkpointBody, isCheckpointKind } from './checkpoint.js'
import { toDoc } from './outbound.js'
import type { PassHost } from './pass-host.js'
import type { PoolSync } from './pool-sync.js'

/**
 * On the owner's replica: once `checkpointEvery` accepted records are covered by no checkpoint,
 * sign checkpoints over them (MAX_COVERED each), store them and put them into the document.
 * Only records this replica accepted, so verified here, are vouched for.
 */
export async function signCheckpoints(host: PassHost, ps: PoolSync, accepted: readonly PoolRecord[]): Promise<void> {
  const me = host.log.identity
  const s = ps.planner.structure
  if (host.checkpointEvery <= 0 || !me || !s || s.owner !== me.did) return
  // Each accepted record is looked at once: a full pass hands over every accepted record, and
  // hashing them all again made a forget in a pool of 100k cost seconds on the owner's replica.
  for (const r of accepted) {
    if (isCheckpointKind(r.kind) || ps.counted.has(r.id)) continue
    ps.counted.add(r.id)
    if (!ps.checkpoints.covers(r)) ps.uncovered.set(r.id, r)
  }
  if (ps.uncovered.size < host.checkpointEvery) return
  // Only what the plan still accepts (a record may have left since it was counted).
  const todo = [...ps.uncovered.values()].filter((r) => ps.stored.has(r.id) && !ps.checkpoints.covers(r))
  ps.uncovered.clear()
  const made: PoolRecord[] = []
  for (let i = 0; i < todo.length; i += MAX_COVERED) {
    const body = checkpointBody(todo.slice(i, i + MAX_COVERED))
    made.push((await host.log.sealPooled(CHECKPOINT_KIND, body, { pool: s.id, tenant: s.tenant })) as unknown as PoolRecord)
  }
  if (made.length === 0) return
  for (const r of made) ps.stored.add(r.id)
  await host.log.append(made)
  toDoc(ps, made)
}
