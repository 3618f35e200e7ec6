import type { PoolId } from '../pools/types.js'
import type { StoragePort } from '../storage/port.js'
import { bareQuarantineRow, quarantineRowId, toReport, type QuarantineRow, type QuarantinedRecord } from './quarantine.js'

// The `quarantine` table: sync's own, one row per refused value of an open pool (quarantine.ts says what a row holds).

/** A pool's quarantine as stored, by key (on open). */
export async function loadQuarantine(storage: StoragePort, pool: PoolId): Promise<Map<string, QuarantinedRecord>> {
  const rows = await storage.read(['quarantine'], (tx) => tx.where<QuarantinedRecord>('quarantine', 'pool', pool))
  return new Map(rows.map((q) => [q.key, toReport(q)]))
}

/** Every quarantine row of a pool out (`stop`). */
export async function clearQuarantine(storage: StoragePort, pool: PoolId): Promise<void> {
  await storage.write(['quarantine'], async (tx) => {
    const rows = await tx.where<{ id: string }>('quarantine', 'pool', pool)
    await tx.delete('quarantine', rows.map((r) => r.id))
  })
}

/** Quarantine rows in and out; a row the store refuses is kept as its bare report, and a store that refuses even that is reported (`fail`), not thrown. */
export async function storeQuarantine(
  storage: StoragePort, puts: QuarantineRow[], deletes: string[], reports: readonly QuarantinedRecord[], fail: (err: unknown) => void,
): Promise<void> {
  if (puts.length === 0 && deletes.length === 0) return
  const write = (rows: readonly QuarantineRow[], dels: readonly string[]): Promise<void> =>
    storage.write(['quarantine'], async (tx) => {
      if (rows.length) await tx.put('quarantine', rows)
      if (dels.length) await tx.delete('quarantine', dels)
    })
  try {
    await write(puts, deletes)
    return
  } catch {
    // One row at a time below, so that one bad row costs only itself.
  }
  const byId = new Map(reports.map((q) => [quarantineRowId(q.pool, q.key), q]))
  if (deletes.length) await write([], deletes).catch(fail)
  for (const row of puts) {
    try {
      await write([row], [])
    } catch {
      await write([bareQuarantineRow(byId.get(row.id) ?? row)], []).catch(fail)
    }
  }
}
