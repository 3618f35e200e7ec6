import { createIdentity } from '../src/core/identity.js'
import { createMemory } from '../src/memory.js'
import type { WriteMemoryInput } from '../src/pools/types.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { heapUsed } from './heap-bench.js'
import { memoryRecords, percentile, storeRecords } from './sync-fixtures.js'

/**
 * Issue 26, case 4: a member fills one slot (one subject, predicate and context) of a pool with
 * `size` memories of different values; the owner's honest writes elsewhere in the pool are timed,
 * beside the same writes in a pool of `size` memories with distinct subjects, same run. Before the
 * conflict index kept groups, 2,000 in one slot made every honest write take 10-20 s and 20,000
 * ran the writer out of memory. The member's records are signed and stored as its own writes
 * (bench/sync-fixtures.ts) and judged when the owner's session opens them, as a replica would.
 * In-memory storage, as the sync bench: what is measured is the pool's work, not fake-indexeddb's
 * (which adds about 7 ms to any write on the bench machine, whatever the pool holds).
 * Heap: used heap after a full collection before and after the measured writes, per write.
 */
export interface SlotRow {
  readonly shape: 'one slot' | 'distinct subjects'
  readonly size: number
  /** A session opening the pool: createMemory until pools.info answers (every signature checked). */
  readonly openMs: number
  readonly writes: number
  readonly p50: number
  readonly p95: number
  /** Used heap after a full GC, before the measured writes (bytes). */
  readonly heapBefore: number
  /** (after - before) / writes, after a full GC each (bytes). */
  readonly heapPerWrite: number
  /** pools.conflictGroups after the writes: the groups and the time it took (first listing). */
  readonly groups: number
  readonly groupsMs: number
  /** pools.conflicts (pairs, default limit 1,000) after that. */
  readonly pairs: number
  readonly pairsMs: number
}


function inputs(shape: SlotRow['shape'], size: number): WriteMemoryInput[] {
  const out: WriteMemoryInput[] = []
  for (let i = 0; i < size; i++) {
    out.push(shape === 'one slot'
      ? { type: 'KNOWLEDGE', content: { subject: 'the build', predicate: 'status', object: `value ${i}` } }
      : { type: 'KNOWLEDGE', content: { subject: `build ${i}`, predicate: 'status', object: `value ${i}` } })
  }
  return out
}

export async function runSlotBench(options: { size: number; writes: number; log: (line: string) => void }): Promise<SlotRow[]> {
  const rows: SlotRow[] = []
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(41) })
  const member = await createIdentity({ seed: new Uint8Array(32).fill(42) })
  for (const shape of ['distinct subjects', 'one slot'] as const) {
    const storage = memoryStorage()
    const setup = await createMemory({ storage, identity: owner })
    const pool = (await setup.pools.create({ name: shape })).id
    await setup.pools.share(pool, member.did, { write: true })
    await setup.close()
    await storage.open()
    await storeRecords(storage, await memoryRecords(member, pool, inputs(shape, options.size), Date.now() + 5))
    await storage.close()
    options.log(`slot bench, ${shape}: ${options.size} member records stored`)
    const t = performance.now()
    const mem = await createMemory({ storage, identity: owner })
    const info = await mem.pools.info(pool)
    const openMs = performance.now() - t
    if (info.size !== options.size) throw new Error(`slot bench: ${info.size} memories, expected ${options.size}`)
    const write = (i: number) => mem.pools.write(pool, { type: 'KNOWLEDGE', content: { subject: `honest ${i}`, predicate: 'status', object: 'green' } })
    // Warm-up: the first writes build the indexes a write reads (the current index, the fact view).
    for (let i = 0; i < 3; i++) await write(-1 - i)
    const heapBefore = heapUsed()
    const samples: number[] = []
    for (let i = 0; i < options.writes; i++) {
      const w = performance.now()
      await write(i)
      samples.push(performance.now() - w)
    }
    const heapAfter = heapUsed()
    let w = performance.now()
    const groups = (await mem.pools.conflictGroups(pool)).total
    const groupsMs = performance.now() - w
    w = performance.now()
    const pairs = (await mem.pools.conflicts(pool)).length
    const pairsMs = performance.now() - w
    await mem.close()
    const row: SlotRow = {
      shape, size: options.size, openMs, writes: options.writes, p50: percentile(samples, 50), p95: percentile(samples, 95),
      heapBefore, heapPerWrite: (heapAfter - heapBefore) / options.writes, groups, groupsMs, pairs, pairsMs,
    }
    options.log(`slot bench, ${shape}: write p50 ${row.p50.toFixed(2)} ms, p95 ${row.p95.toFixed(2)} ms, heap ${(heapBefore / 2 ** 20).toFixed(1)} MiB, ${(row.heapPerWrite / 1024).toFixed(1)} KiB/write`)
    rows.push(row)
  }
  return rows
}

export function formatSlotReport(rows: readonly SlotRow[]): string {
  const base = rows.find((r) => r.shape === 'distinct subjects')
  const lines = [
    '| pool of the member\'s memories | size | open | honest write p50 | p95 | p50 / distinct | heap before | heap per write | conflictGroups | conflicts (pairs, limit 1,000) |',
    '|-------------------------------|-----:|-----:|-----------------:|----:|---------------:|------------:|---------------:|---------------:|-------------------------------:|',
  ]
  for (const r of rows) {
    lines.push(
      `| ${r.shape} | ${r.size.toLocaleString('en-US')} | ${(r.openMs / 1000).toFixed(2)} s | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ` +
      `${base ? (r.p50 / base.p50).toFixed(2) + 'x' : '-'} | ${(r.heapBefore / 2 ** 20).toFixed(1)} MiB | ${(r.heapPerWrite / 1024).toFixed(1)} KiB | ` +
      `${r.groups} in ${r.groupsMs.toFixed(0)} ms | ${r.pairs} in ${r.pairsMs.toFixed(0)} ms |`,
    )
  }
  return lines.join('\n') + '\n'
}
