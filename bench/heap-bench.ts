import { setFlagsFromString, getHeapStatistics } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { createIdentity, createMemory, type Memory } from '../src/index.js'
import { benchQueries, factRows } from './fixtures.js'
import { memoryInputs } from './sync-fixtures.js'

/**
 * Issue 15: the JS heap a big store holds, in Node on fake-indexeddb. Each figure is the heap after
 * a full collection with the store open (cold: a new Memory on the database, after its first
 * retrieve or pool read), minus the same with an empty Memory open, both with the same
 * fake-indexeddb data in the process: what remains is the store's own state (records it keeps,
 * indexes, caches), not the database, which a browser keeps outside the JS heap.
 *
 * - facts: `facts.write` of the fact bench's rows;
 * - pool: `pools.create` and `pools.write` of the sync bench's memories (each also becomes a fact
 *   of the pool's fact view).
 */
export interface HeapRow {
  readonly what: string
  readonly count: number
  /** Bytes held beyond an empty Memory. */
  readonly bytes: number
  readonly writeMs: number
}

let gcFn: (() => void) | undefined
/** Bytes in use on the heap after three full collections. */
export function heapUsed(): number {
  if (!gcFn) {
    // --expose-gc at runtime: `npm run bench` needs no node flag.
    setFlagsFromString('--expose-gc')
    gcFn = runInNewContext('gc') as () => void
  }
  for (let i = 0; i < 3; i++) gcFn()
  return getHeapStatistics().used_heap_size
}

async function held(deps: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange }, name: string, touch: (mem: Memory) => Promise<void>, identity: Awaited<ReturnType<typeof createIdentity>> | null): Promise<number> {
  const empty = await createMemory({ storage: 'indexeddb', name: `${name}-empty`, identity, ...deps })
  await touch(empty).catch(() => undefined)
  const base = heapUsed()
  await empty.close()
  const mem = await createMemory({ storage: 'indexeddb', name, identity, ...deps })
  await touch(mem)
  const full = heapUsed()
  await mem.close()
  return full - base
}

export async function runHeapBench(options: { factCount: number; poolCount: number; log: (line: string) => void }): Promise<HeapRow[]> {
  const rows: HeapRow[] = []
  {
    const deps = { indexedDB: new IDBFactory(), IDBKeyRange }
    const facts = factRows(options.factCount)
    let mem = await createMemory({ storage: 'indexeddb', name: 'heap-facts', ...deps })
    const t0 = performance.now()
    for (let i = 0; i < facts.length; i += 1000) {
      await Promise.all(facts.slice(i, i + 1000).map((r) => mem.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })))
    }
    await mem.facts.flush()
    const writeMs = performance.now() - t0
    await mem.close()
    const q = benchQueries(1)[0]!
    const bytes = await held(deps, 'heap-facts', async (m) => void (await m.facts.retrieve(q, { budgetTokens: 2000 })), null)
    rows.push({ what: 'fact store', count: facts.length, bytes, writeMs })
    options.log(`heap: ${facts.length} facts hold ${(bytes / 2 ** 20).toFixed(1)} MiB`)
    mem = undefined as unknown as Memory
  }
  if (options.poolCount > 0) {
    const deps = { indexedDB: new IDBFactory(), IDBKeyRange }
    const identity = await createIdentity()
    const mem = await createMemory({ storage: 'indexeddb', name: 'heap-pool', identity, ...deps })
    const pool = await mem.pools.create({ name: 'heap' })
    const inputs = memoryInputs(options.poolCount)
    const t0 = performance.now()
    for (let i = 0; i < inputs.length; i += 1000) {
      await Promise.all(inputs.slice(i, i + 1000).map((m) => mem.pools.write(pool.id, m)))
      if ((i / 1000) % 10 === 9) options.log(`heap: pool ${i + 1000}/${inputs.length} after ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    }
    await mem.pools.flush()
    const writeMs = performance.now() - t0
    await mem.close()
    const bytes = await held(deps, 'heap-pool', async (m) => void (await m.pools.query(pool.id, { limit: 10 })), identity)
    rows.push({ what: 'pool (and its fact view)', count: inputs.length, bytes, writeMs })
    options.log(`heap: a pool of ${inputs.length} memories holds ${(bytes / 2 ** 20).toFixed(1)} MiB`)
  }
  return rows
}

export function formatHeapReport(rows: readonly HeapRow[]): string {
  const lines = [
    '== JS heap a store holds (Node, fake-indexeddb; after a full GC, minus an empty Memory) ==',
    '| store | items | heap held | per item | written in |',
    '|-------|------:|----------:|---------:|-----------:|',
  ]
  for (const r of rows) {
    lines.push(`| ${r.what} | ${r.count.toLocaleString('en')} | ${(r.bytes / 2 ** 20).toFixed(1)} MiB | ${Math.round(r.bytes / r.count)} B | ${(r.writeMs / 1000).toFixed(1)} s |`)
  }
  return lines.join('\n')
}
