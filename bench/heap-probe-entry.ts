import { createMemory, type Memory } from '../src/index.js'
import { benchQueries, factRowStream } from './fixtures.js'
import { openRawDexie, rawLoad } from './raw-dexie.js'

/**
 * The page side of bench/heap-probe.ts: steps the Node side calls one by one (`window.__probe`),
 * so it can force collections and read the heap through CDP between them. The Memory opened last
 * is held in this module until `close()`, so the heap read after `open()` includes it.
 */
declare global {
  interface Window {
    __probe?: typeof probe
  }
}

const deps = { indexedDB, IDBKeyRange }
const budget = { budgetTokens: 2000 }
let held: Memory | null = null

const probe = {
  /** Writes `count` of the fact bench's rows into a fresh store `name` (chunks of 1,000), then closes it. */
  async write(name: string, count: number): Promise<number> {
    const mem = await createMemory({ storage: 'indexeddb', name, ...deps })
    const stream = factRowStream()
    const t0 = performance.now()
    for (let done = 0; done < count; ) {
      const n = Math.min(1000, count - done)
      const batch = Array.from({ length: n }, () => stream.next().value)
      await Promise.all(batch.map((r) => mem.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })))
      done += n
    }
    await mem.facts.flush()
    await mem.close()
    return performance.now() - t0
  },
  /** Cold open of `name` and (unless `first` is false: `first()` then) its first retrieve; the Memory stays held. Times in ms. */
  async open(name: string, first = true): Promise<{ openMs: number; firstMs: number; hits: number }> {
    const t0 = performance.now()
    held = await createMemory({ storage: 'indexeddb', name, ...deps })
    const openMs = performance.now() - t0
    return { openMs, ...(first ? await probe.first() : { firstMs: Number.NaN, hits: 0 }) }
  },
  /** The held Memory's first retrieve (the bench's first query). */
  async first(): Promise<{ firstMs: number; hits: number }> {
    const t1 = performance.now()
    const hits = (await held!.facts.retrieve(benchQueries(1)[0]!, budget)).length
    return { firstMs: performance.now() - t1, hits }
  },
  /** Retrieve times of `count` bench queries on the held Memory, and a digest of everything they returned. */
  async retrieve(count: number): Promise<{ times: number[]; checksum: string }> {
    const times: number[] = []
    const ids: string[] = []
    for (const q of benchQueries(count)) {
      const t0 = performance.now()
      const out = await held!.facts.retrieve(q, budget)
      times.push(performance.now() - t0)
      // Everything a retrieve returns, in order: the checksum says whether two builds answer alike.
      ids.push(JSON.stringify(out, (_k, v: unknown) => (v instanceof Uint8Array ? [...v] : v)))
    }
    const bytes = new TextEncoder().encode(ids.join('\n'))
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
    return { times, checksum: [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('') }
  },
  async close(): Promise<void> {
    await held?.close()
    held = null
  },
  /** Raw Dexie open + `toArray()` of memweave's own records table (the bytes its open reads, no state built). */
  async rawRead(name: string): Promise<{ ms: number; rows: number }> {
    const db = openRawDexie(name, deps)
    const t0 = performance.now()
    const rows = await rawLoad(db)
    const ms = performance.now() - t0
    db.close()
    return { ms, rows }
  },
}

window.__probe = probe
