import { getHeapSnapshot } from 'node:v8'
import { createIdentity } from '../src/core/identity.js'
import { createMemory } from '../src/memory.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { summarizeSnapshot } from './heap-snapshot.js'
import { memoryInputs, memoryRecords, storeRecords } from './sync-fixtures.js'

/**
 * What a device's first write into a pool of N it opened (no sync) adds to the live heap: heap used
 * after forced collections before and after the first write, then after a second; with `snap`, the
 * retained size of each pool structure at each point (a heap snapshot each). Issue 31's ninth round.
 * With `facts`, the pool's fact view is written before the close (a configure of the same policies
 * reconciles every current memory), so the first write after the open finds N facts of the pool in
 * `mem.facts`, as a device that wrote them would (issue 31, factview31).
 * With `killed`, the store also holds the marker row of a session that did not close (factview31b),
 * so the open brings the pool's facts in line once before the first write's maintenance runs; with
 * `read` (implied by `killed`), the first mem.facts read after the open is timed (it waits for that).
 * `node --expose-gc --import tsx bench/first-write-heap.ts [N] [snap] [facts] [killed] [read]`.
 */
const size = Number(process.argv[2] ?? 20_000)
const snap = process.argv.slice(3).includes('snap')
const withFacts = process.argv.slice(3).includes('facts')
const killed = process.argv.slice(3).includes('killed')
const readFirst = killed || process.argv.slice(3).includes('read')
const gc = (globalThis as { gc?: () => void }).gc
if (!gc) throw new Error('run with node --expose-gc')
const CTORS = ['CurrentIndex', 'ViewState', 'FactView', 'PoolFacts', 'PoolState', 'LivePoolViews', 'PoolReplica', 'MemoryWrites', 'Map', 'Set']

let last: readonly { group: string; count: number; selfBytes: number }[] | null = null

async function heap(label: string): Promise<void> {
  for (let i = 0; i < 3; i++) { gc!(); await new Promise((r) => setTimeout(r, 10)) }
  const used = process.memoryUsage().heapUsed
  let line = `${label}: heapUsed ${(used / 1e6).toFixed(1)} MB`
  if (snap) {
    const chunks: string[] = []
    for await (const c of getHeapSnapshot()) chunks.push(String(c))
    const s = summarizeSnapshot(chunks.join(''), CTORS)
    if (last) {
      const was = new Map(last.map((g) => [g.group, g]))
      const diff = s.groups.map((g) => ({ g: g.group, n: g.count - (was.get(g.group)?.count ?? 0), b: g.selfBytes - (was.get(g.group)?.selfBytes ?? 0) }))
      diff.sort((x, y) => y.b - x.b)
      for (const d of diff.slice(0, 10)) console.log(`  +${(d.b / 1e6).toFixed(2)} MB self, +${d.n} ${d.g}`)
    }
    last = s.groups
    line += ' | retained ' + CTORS.map((c) => { const r = s.retained.get(c); return `${c} ${r ? (r.bytes / 1e6).toFixed(2) : 0} MB/${r?.count ?? 0}` }).join(', ')
  }
  console.log(line)
}

async function main(): Promise<void> {
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(21) })
  const storage = memoryStorage()
  const first = await createMemory({ storage, identity: owner })
  const pool = (await first.pools.create({ name: 'heap' })).id
  await storeRecords(storage, await memoryRecords(owner, pool, memoryInputs(size)))
  await first.close?.()
  if (withFacts) {
    const writer = await createMemory({ storage, identity: owner })
    await writer.pools.configure(pool, { factTypes: (await writer.pools.info(pool)).policies.factTypes })
    await writer.pools.flush()
    console.log(`facts of the pool: ${(await writer.facts.audit()).length}`)
    await writer.close?.()
  }
  // A session killed before its facts were in line left its marker row (src/pools/fact-view-marker.ts): the open repairs every pool.
  if (killed) {
    await storage.open()
    await storage.write(['meta'], (tx) => tx.put('meta', [{ key: 'fact-view-open:killed', version: 1 }]))
    await storage.close()
  }
  const a = await createMemory({ storage, identity: owner })
  if (readFirst) {
    // Reads of mem.facts wait for the repair the open started: what it costs, before the first write.
    const t0 = performance.now()
    await a.facts.retrieve('later write', { topK: 1 })
    console.log(`first mem.facts read after the open${killed ? ' (waits for the repair)' : ''} ${Math.round(performance.now() - t0)} ms`)
  }
  console.log(`pool size ${(await a.pools.info(pool)).size}`)
  await heap('opened')
  const inputs = memoryInputs(3, 0xb16, 'later write')
  let t = performance.now()
  await a.pools.write(pool, inputs[0]!)
  console.log(`first write ${Math.round(performance.now() - t)} ms`)
  await heap('after first write')
  t = performance.now()
  await a.pools.write(pool, inputs[1]!)
  console.log(`second write ${Math.round(performance.now() - t)} ms`)
  await heap('after second write')
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1) })
