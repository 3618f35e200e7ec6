import { createIdentity } from '../src/core/identity.js'
import { createMemory } from '../src/memory.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { factRows } from './fixtures.js'
import { memoryInputs, memoryRecords, storeRecords } from './sync-fixtures.js'

/**
 * Backup round trip (issue 28): a Memory of `facts` facts and a pool of `pool` memories is
 * exported (mem.export(), JSON lines) and imported into a fresh Memory (mem.import()); prints the
 * export's time and size, the import's time, and checks that the audit, the pool's contents and
 * conflicts, and every record line (ids and signatures) are equal. Memory storage on both sides,
 * so the figures are the backup's own cost, not a disk's.
 *
 *   npx tsx bench/backup-bench.ts [facts=100000] [pool=10000]
 */
async function main(): Promise<void> {
  const facts = Number(process.argv[2] ?? 100_000)
  const poolSize = Number(process.argv[3] ?? 10_000)
  const identity = await createIdentity({ seed: new Uint8Array(32).fill(28) })
  const storage = memoryStorage()
  const mem = await createMemory({ storage, identity })
  const rows = factRows(facts)
  for (let i = 0; i < rows.length; i += 5000) {
    await Promise.all(rows.slice(i, i + 5000).map((r) => mem.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })))
  }
  const pool = (await mem.pools.create({ name: 'bench' })).id
  await mem.close()
  await storage.open()
  await storeRecords(storage, await memoryRecords(identity, pool, memoryInputs(poolSize)))
  // One wall clock for both sides: a pool query records when it read (lastAccessed).
  const at = Date.now()
  const now = (): number => at
  const source = await createMemory({ storage, identity, now })
  console.log(`setup: ${facts} facts, a pool of ${(await source.pools.info(pool)).size} memories`)

  let t = performance.now()
  const lines: string[] = []
  let bytes = 0
  for await (const line of source.export()) {
    lines.push(line)
    bytes += Buffer.byteLength(line)
  }
  const exportMs = performance.now() - t
  console.log(`export: ${lines.length - 2} records, ${(bytes / 2 ** 20).toFixed(1)} MiB, ${(exportMs / 1000).toFixed(2)} s`)

  const target = await createMemory({ storage: memoryStorage(), identity, now })
  t = performance.now()
  const report = await target.import(lines)
  const importMs = performance.now() - t
  console.log(`import: ${report.imported} imported, ${report.refused} refused, complete ${report.complete}, ${(importMs / 1000).toFixed(2)} s`)

  // Lists are compared as sets: what a list holds is the state; the order conflicts are listed in
  // follows the order records were delivered in, which an import need not repeat.
  const canonical = (v: unknown): string => (Array.isArray(v) ? v.map((e) => JSON.stringify(e)).sort().join('\n') : JSON.stringify(v))
  const same = async (what: string, read: (m: typeof source) => Promise<unknown>): Promise<void> => {
    const [a, b] = [await read(source), await read(target)]
    const [x, y] = [canonical(a), canonical(b)]
    if (x !== y) throw new Error(`backup bench: ${what} differs after the round trip`)
    const order = JSON.stringify(a) === JSON.stringify(b) ? 'same order' : 'listed in another order'
    console.log(`equal: ${what} (${Array.isArray(a) ? `${a.length} entries, ${order}` : 'value'})`)
  }
  await same('audit', (m) => m.facts.audit())
  await same('fact conflicts', (m) => m.facts.conflicts())
  await same('pool conflicts', (m) => m.pools.conflicts(pool))
  await same('pool info', (m) => m.pools.info(pool))
  const again: string[] = []
  for await (const line of target.export()) again.push(line)
  const recordsOf = (l: string[]): string => l.filter((x) => x.startsWith('{"type":"record"')).sort().join('')
  if (recordsOf(again) !== recordsOf(lines)) throw new Error('backup bench: record lines differ after the round trip')
  console.log('equal: every record line (ids, bodies, signatures)')
  await same('pool contents', (m) => m.pools.query(pool, { limit: poolSize }))
  await source.close()
  await target.close()
}

await main()
