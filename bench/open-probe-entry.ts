import { Dexie } from 'dexie'
import { openMemory } from '../src/client.js'
import { createMemory } from '../src/memory.js'
import { indexedDbStorage } from '../src/storage/dexie-adapter.js'
import { factRow } from './client-rows.js'

/**
 * The page side of bench/open-probe.ts (issue 31, fifth round): the client bench's cold open on a
 * store written once, step by step, so two builds can be measured alternately on one store. Every
 * step returns its wall time; `remote` also the page's own marks (ms after openMemory was called).
 */
declare global {
  interface Window {
    __openProbe?: typeof probe
  }
}

const WORKERS = {
  /** The shipped worker entry, served by the dev server module by module. */
  dev: () => new URL('../worker/memory-worker.ts', import.meta.url),
  /** The shipped worker as `npm run build` emits it: one script and its chunks. */
  built: () => new URL('../dist/worker/memory-worker.js', import.meta.url),
  /** The client bench's worker (bench/bench-worker.ts): the host plus Dexie and createMemory. */
  bench: () => new URL('./bench-worker.ts', import.meta.url),
} as const

const probe = {
  /** The client bench's fill: `count` facts through createMemory, and its raw baseline table of the same rows. */
  async write(name: string, count: number): Promise<number> {
    const t0 = performance.now()
    const mem = await createMemory({ storage: indexedDbStorage({ name }) })
    const raw = new Dexie(`raw-${name}`)
    raw.version(1).stores({ records: 'id, kind' })
    await raw.open()
    for (let done = 0; done < count; ) {
      const n = Math.min(2000, count - done)
      const base = done
      await Promise.all(Array.from({ length: n }, (_, i) => mem.facts.write(factRow(base + i, 'fill').content)))
      await raw.table('records').bulkPut(Array.from({ length: n }, (_, i) => {
        const r = factRow(base + i, 'raw')
        return { id: r.id, kind: 'fact', tenant: null, body: r, author: null, hlc: String(i) }
      }))
      done += n
    }
    await mem.close()
    raw.close()
    return performance.now() - t0
  },
  /** The client bench's baseline: raw Dexie open + read of the same rows in its own layout. */
  async rawOpen(name: string): Promise<number> {
    const t0 = performance.now()
    const db = new Dexie(`raw-${name}`)
    db.version(1).stores({ records: 'id, kind' })
    await db.open()
    await db.table('records').toArray()
    const ms = performance.now() - t0
    db.close()
    return ms
  },
  /** Raw Dexie open + read of the records memweave stored. */
  async rawOwn(name: string): Promise<number> {
    const t0 = performance.now()
    const db = new Dexie(name)
    await db.open()
    await db.table('records').toArray()
    const ms = performance.now() - t0
    db.close()
    return ms
  },
  /** Each request of the open's load timed alone on `name`, in its own transaction (ms). */
  async requests(name: string): Promise<Record<string, number>> {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(name)
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const out: Record<string, number> = {}
    const time = async (label: string, make: (tx: IDBTransaction) => IDBRequest[]): Promise<void> => {
      const t0 = performance.now()
      const tx = db.transaction(['records', 'meta'], 'readonly')
      const reqs = make(tx)
      await new Promise((resolve) => (reqs.at(-1)!.onsuccess = resolve))
      let bytes = 0
      for (const r of reqs) bytes += Array.isArray(r.result) ? r.result.length : 1
      out[label] = Math.round(performance.now() - t0)
      out[`${label} results`] = bytes
    }
    await time('meta getAll', (tx) => [tx.objectStore('meta').getAll()])
    await time('count records', (tx) => [tx.objectStore('records').count()])
    await time('count kind fact', (tx) => [tx.objectStore('records').index('kind').count('fact')])
    await time('count kind tombstone', (tx) => [tx.objectStore('records').index('kind').count('tombstone')])
    const splits = [null, ...Array.from({ length: 15 }, (_, i) => (i + 1).toString(16)), null]
    await time('16 ranges', (tx) => splits.slice(1).map((to, i) => {
      const from = splits[i]
      const range = from === null ? (to === null ? null : IDBKeyRange.upperBound(to, true)) : to === null ? IDBKeyRange.lowerBound(from) : IDBKeyRange.bound(from, to, false, true)
      return tx.objectStore('records').getAll(range)
    }))
    await time('getAll records', (tx) => [tx.objectStore('records').getAll()])
    db.close()
    return out
  },
  /** Cold open through openMemory in a new dedicated worker, and its first retrieve, as the client bench times it. */
  async remote(name: string, worker: keyof typeof WORKERS): Promise<{ ms: number; marks: Record<string, number> }> {
    const t0 = performance.now()
    const at = performance.timeOrigin + t0
    const mem = await openMemory({ name, mode: 'dedicated', worker: WORKERS[worker](), persist: false })
    const opened = performance.now() - t0
    await mem.facts.retrieve('x', { budgetTokens: 0 })
    const ms = performance.now() - t0
    await mem.close()
    return { ms, marks: { start: at, opened, answered: ms } }
  },
  /** The same cold open in the page (createMemory), with its first retrieve. */
  async page(name: string): Promise<number> {
    const t0 = performance.now()
    const mem = await createMemory({ storage: indexedDbStorage({ name }) })
    await mem.facts.retrieve('x', { budgetTokens: 0 })
    const ms = performance.now() - t0
    await mem.close()
    return ms
  },
}

window.__openProbe = probe
