import type { WriteTx } from '../storage/port.js'
import type { LogRow } from '../storage/schema.js'

/** Keep this many log rows; a handle further behind reloads from the records instead. */
export const LOG_KEEP = 20_000
/** Trim at most once per this many new rows, and at most this many rows at a time (bounded work per commit). */
const TRIM_EVERY = 1000
const TRIM_MAX = 5000

/**
 * The log's one trim rule: once the log is more than LOG_KEEP rows long, drop the oldest (up to
 * TRIM_MAX per commit) and record the new floor in `meta.logFloor`, so a handle whose position is
 * below it knows to reload. Forwarded-write results older than the kept log go too: a follower that
 * far behind has long since seen its leader change. Returns whether it trimmed.
 */
export async function trimLog(tx: WriteTx, seq: number, trimmedAt: number): Promise<boolean> {
  if (seq <= LOG_KEEP || seq - trimmedAt < TRIM_EVERY) return false
  const floor = seq - LOG_KEEP
  const from = (await tx.get<{ value: number }>('meta', 'logFloor'))?.value ?? 0
  // At most floor - from rows can be at or below the floor: read those, not TRIM_MAX rows of which
  // most stay (at 100k facts that read was 5,000 rows per commit).
  const drop = (await tx.after<LogRow>('log', from, Math.min(TRIM_MAX, floor - from))).filter((r) => r.seq! <= floor).map((r) => r.seq!)
  if (drop.length > 0) {
    await tx.delete('log', drop)
    await tx.put('meta', [{ key: 'logFloor', value: drop.at(-1)! }])
  }
  const oldRequests = (await tx.all<{ id: string; at: number }>('requests')).filter((r) => r.at <= floor)
  if (oldRequests.length) await tx.delete('requests', oldRequests.map((r) => r.id))
  return true
}
