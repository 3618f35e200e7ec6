import { createIdentity } from '../src/core/identity.js'
import { createMemory } from '../src/memory.js'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { indexedDbStorage } from '../src/storage/dexie-adapter.js'
import { memoryInputs, memoryRecords, storeRecords } from './sync-fixtures.js'

/**
 * Reopening a Memory that holds a big pool (issue 15): the time from `createMemory` until the first
 * `pools.info` answers, beside reading the same stored rows raw (`records`, in one read
 * transaction) in the same run. The pool's records are signed and stored as the owner's own
 * writes, then a first session opens them (checking every signature, as a replica does for
 * records it has not judged) and closes; the measured session is the next one, on the same
 * storage: fake-indexeddb, as the Node fact bench uses (in-memory storage answers a read by
 * reference, which is no baseline). docs/benchmarks.md, "Pool open".
 */
export interface PoolOpenRow {
  readonly size: number
  /** The first session: every stored record's signature checked. */
  readonly firstMs: number
  /** A later session: createMemory until pools.info answers. */
  readonly reopenMs: number
  /** Opening the database and reading every row of `records` through the storage adapter (fastest of three), same run. */
  readonly rawMs: number
}

export async function runPoolOpenBench(sizes: readonly number[], log: (line: string) => void = () => {}): Promise<PoolOpenRow[]> {
  const rows: PoolOpenRow[] = []
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(31) })
  for (const size of sizes) {
    // One database; each session opens it anew, as a reloaded page does.
    const factory = new IDBFactory()
    const open = (): ReturnType<typeof indexedDbStorage> => indexedDbStorage({ name: `pool-open-${size}`, indexedDB: factory, IDBKeyRange })
    const setup = await createMemory({ storage: open(), identity: owner })
    const pool = (await setup.pools.create({ name: `open ${size}` })).id
    await setup.close()
    const store = open()
    await store.open()
    await storeRecords(store, await memoryRecords(owner, pool, memoryInputs(size)))
    await store.close()
    const session = async (): Promise<number> => {
      const t = performance.now()
      const mem = await createMemory({ storage: open(), identity: owner })
      const info = await mem.pools.info(pool)
      const ms = performance.now() - t
      if (info.size !== size) throw new Error(`pool open bench: ${info.size} memories, expected ${size}`)
      await mem.close()
      return ms
    }
    const firstMs = await session()
    log(`pool open ${size}: first session ${firstMs.toFixed(0)} ms`)
    const reopenMs = await session()
    let rawMs = Infinity
    for (let i = 0; i < 3; i++) {
      const raw = open()
      const t = performance.now()
      await raw.open()
      const n = (await raw.read(['records'], (tx) => tx.all('records'))).length
      rawMs = Math.min(rawMs, performance.now() - t)
      await raw.close()
      if (n < size) throw new Error('pool open bench: rows missing')
    }
    log(`pool open ${size}: reopened ${reopenMs.toFixed(0)} ms, raw open and read ${rawMs.toFixed(1)} ms`)
    rows.push({ size, firstMs, reopenMs, rawMs })
  }
  return rows
}

export function formatPoolOpenReport(rows: readonly PoolOpenRow[]): string {
  const lines = [
    '| pool | first session (every signature checked) | reopened: createMemory until pools.info | raw open + read of the rows | reopened / raw |',
    '|-----:|----------------------------------------:|----------------------------------------:|--------------------:|---------------:|',
  ]
  for (const r of rows) {
    lines.push(`| ${r.size.toLocaleString('en-US')} | ${(r.firstMs / 1000).toFixed(2)} s | ${(r.reopenMs / 1000).toFixed(2)} s | ${r.rawMs.toFixed(0)} ms | ${(r.reopenMs / r.rawMs).toFixed(1)}x |`)
  }
  return lines.join('\n') + '\n'
}
