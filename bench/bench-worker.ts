/// <reference lib="webworker" />
// The worker of the client benchmark: the real memweave host (what openMemory talks to) plus the
// in-worker baselines: direct calls on a Memory without comlink, and raw Dexie.
import * as Comlink from 'comlink'
import { Dexie } from 'dexie'
import { createMemory, type Memory } from '../src/memory.js'
import { openMemoryModules } from '../src/memory-loader.js'
import { createMemoryHost } from '../src/runtime/host.js'
import { indexedDbStorage } from '../src/storage/dexie-adapter.js'
import { factRow, storedRow } from './client-rows.js'

const host = createMemoryHost()

/**
 * Where a worker's start goes (issue 31, fifth round): this module's body runs once the worker's
 * script and every static import have loaded. A named worker (the one openMemory starts is named
 * `memweave:<database>`) tells the page when that was, when it was created (its time origin), how
 * many scripts it fetched, and when the host's open began and ended, on BroadcastChannel
 * `BOOT_CHANNEL`. Times are absolute (time origin + now) so the page can place them on its own clock.
 */
const BOOT_CHANNEL = 'memweave-bench-boot'
const now = (): number => performance.timeOrigin + performance.now()
const boot = new BroadcastChannel(BOOT_CHANNEL)
const workerName = (self as unknown as { name?: string }).name ?? ''
const scripts = performance.getEntriesByType('resource')
boot.postMessage({ kind: 'loaded', name: workerName, created: performance.timeOrigin, at: now(), scripts: scripts.length, bytes: scripts.reduce((n, e) => n + ((e as PerformanceResourceTiming).encodedBodySize ?? 0), 0) })
const direct = new Map<string, Promise<Memory>>()
const memoryOn = (name: string): Promise<Memory> => {
  let m = direct.get(name)
  if (!m) direct.set(name, (m = createMemory({ storage: indexedDbStorage({ name }) })))
  return m
}

export const benchApi = {
  ping: host.ping.bind(host),
  /** The host's open, with its start and end told on `BOOT_CHANNEL`. */
  async open(...args: Parameters<typeof host.open>): ReturnType<typeof host.open> {
    const start = now()
    const hosted = await host.open(...args)
    boot.postMessage({ kind: 'open', name: workerName, start, end: now() })
    return hosted
  },
  /** Latency of awaited writes called directly in the worker: the floor under the comlink hop. */
  async directWriteLatencies(name: string, n: number): Promise<number[]> {
    const mem = await memoryOn(name)
    const out: number[] = []
    for (let i = 0; i < n; i++) {
      const t = performance.now()
      await mem.facts.write(factRow(i, `direct-${name}`).content)
      out.push(performance.now() - t)
    }
    return out
  },
  /**
   * Single awaited writes through the host's facts target, called here without comlink (the
   * memory the page's openMemory of `name` shares): what the page's single write costs in the
   * worker, apart from the message path (issue 31, session 13).
   */
  async hostedWriteLatencies(name: string, n: number): Promise<number[]> {
    const hosted = await host.open({ name, identity: null, election: false })
    const facts = await hosted.module('facts')
    const out: number[] = []
    for (let i = 0; i < n; i++) {
      const t = performance.now()
      await facts.call('write', factRow(i, `hosted-${name}`).content)
      out.push(performance.now() - t)
    }
    await hosted.close()
    return out
  },
  /** One write called in the worker on memoryOn(name), awaited: a page's loop of these is the message path around the in-worker call, without the client. */
  async directWriteOnce(name: string, i: number): Promise<void> {
    await (await memoryOn(name)).facts.write(factRow(i, `once-${name}`).content)
  },
  /** A burst of `n` writes called directly in the worker, all at once: what the client's burst costs without the page. */
  async directBurst(name: string, n: number, salt: string): Promise<number> {
    const mem = await memoryOn(name)
    const t = performance.now()
    await Promise.all(Array.from({ length: n }, (_, i) => mem.facts.write(factRow(i, `${salt}-${name}`).content)))
    return performance.now() - t
  },
  /**
   * Cold open without the page: what the host's open runs on `name` in this (fresh) worker
   * (openMemoryModules: the facts' state; the other modules' code is not loaded, as in a page that
   * has not asked for them) and its first retrieve, as the client's cold open does through
   * openMemory. The worker's start is not in it. Until issue 31's fifth round this ran
   * createMemory, which loads every module (at 3,000 facts in a built page 1.25 s against the
   * host's 0.12 s): not the client's work.
   */
  async directColdOpen(name: string): Promise<number> {
    const t = performance.now()
    const mem = await openMemoryModules({ storage: indexedDbStorage({ name }) })
    await mem.facts.retrieve('x', { budgetTokens: 0 })
    const ms = performance.now() - t
    await mem.close()
    return ms
  },
  /**
   * The first parts of a cold open, one after another in this (fresh) worker: the database opened
   * by Dexie, its `records` read whole. What a cold open spends beyond these is building its state
   * and answering. (The WebAssembly hasher openMemoryModules awaits first is ready by then: its
   * start is part of the worker's module load.)
   */
  async coldParts(name: string): Promise<{ openMs: number; readMs: number; rows: number }> {
    let t = performance.now()
    const db = new Dexie(name)
    await db.open()
    const openMs = performance.now() - t
    t = performance.now()
    const rows = await db.table('records').toArray()
    const readMs = performance.now() - t
    db.close()
    return { openMs, readMs, rows: rows.length }
  },
  async directRetrieveLatencies(name: string, queries: string[]): Promise<number[]> {
    const mem = await memoryOn(name)
    await mem.facts.refresh()
    const out: number[] = []
    for (const q of queries) {
      const t = performance.now()
      await mem.facts.retrieve(q, { budgetTokens: 2000 })
      out.push(performance.now() - t)
    }
    return out
  },
  /** Raw Dexie bulkPut of the same rows into a table of the same key layout, in this worker. */
  async rawBulkPut(name: string, n: number, offset: number): Promise<number> {
    const db = new Dexie(`raw-${name}`)
    db.version(1).stores({ records: 'id, kind' })
    await db.open()
    const rows = Array.from({ length: n }, (_, i) => {
      const r = factRow(offset + i, 'raw')
      return { id: r.id, kind: 'fact', tenant: null, body: r, author: null, hlc: String(i) }
    })
    const t = performance.now()
    await db.table('records').bulkPut(rows)
    const ms = performance.now() - t
    db.close()
    return ms
  },
  /** The same bulkPut with rows in the layout memweave stores (client-rows.ts `storedRow`): the like-for-like baseline. */
  async rawBulkPutStored(name: string, n: number, offset: number): Promise<number> {
    const db = new Dexie(`rawstored-${name}`)
    db.version(1).stores({ records: 'id, kind' })
    await db.open()
    const rows = Array.from({ length: n }, (_, i) => storedRow(offset + i, 'raw'))
    const t = performance.now()
    await db.table('records').bulkPut(rows)
    const ms = performance.now() - t
    db.close()
    return ms
  },
  /**
   * The floor under an awaited write: one row in memweave's layout `put` in its own readwrite
   * transaction on plain IndexedDB (no Dexie), awaited until the transaction completes, `n` times.
   */
  async rawAwaitedPutLatencies(name: string, n: number): Promise<number[]> {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(`rawput-${name}`, 1)
      req.onupgradeneeded = () => req.result.createObjectStore('records', { keyPath: 'id' }).createIndex('kind', 'kind')
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    })
    const out: number[] = []
    for (let i = 0; i < n; i++) {
      const row = storedRow(i, `put-${name}`)
      const t = performance.now()
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('records', 'readwrite')
        tx.objectStore('records').put(row)
        tx.oncomplete = () => resolve()
        tx.onerror = tx.onabort = () => reject(tx.error)
      })
      out.push(performance.now() - t)
    }
    db.close()
    return out
  },
  /** Cold open baseline on the rows memweave stored itself: open its database with Dexie and read its `records` table whole (the bytes memweave's open reads, without building state). */
  async rawOpenMemweaveRecords(name: string): Promise<{ ms: number; rows: number }> {
    const t = performance.now()
    const db = new Dexie(name)
    await db.open()
    const rows = await db.table('records').toArray()
    const ms = performance.now() - t
    db.close()
    return { ms, rows: rows.length }
  },
  /** Cold open baseline: open the raw database and read every row, as memweave's open loads its state. */
  async rawOpenAll(name: string): Promise<{ ms: number; rows: number }> {
    const t = performance.now()
    const db = new Dexie(`raw-${name}`)
    db.version(1).stores({ records: 'id, kind' })
    await db.open()
    const rows = await db.table('records').toArray()
    const ms = performance.now() - t
    db.close()
    return { ms, rows: rows.length }
  },
}

const scope = self as unknown as { onconnect?: unknown; addEventListener: (type: string, fn: (e: MessageEvent) => void) => void }
if ('onconnect' in scope) scope.addEventListener('connect', (e: MessageEvent) => Comlink.expose(benchApi, e.ports[0]!))
else Comlink.expose(benchApi)
