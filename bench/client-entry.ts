/// <reference types="vite/client" />
import * as Comlink from 'comlink'
import { openMemory } from '../src/client.js'
import type { benchApi } from './bench-worker.js'
import { factRow, QUERIES } from './client-rows.js'
import benchWorkerUrl from './bench-worker.ts?worker&url'

/**
 * Issue 3's benchmark, in the page: every memweave figure goes through the public client
 * (openMemory: page → comlink → worker → IndexedDB), each beside its baseline in the same run:
 * direct calls inside the worker (the comlink overhead is the difference) and raw Dexie in the worker.
 */
export interface ClientBenchRow {
  readonly metric: string
  readonly memweave: string
  readonly baseline: string
  readonly ratio: number
}

declare global {
  interface Window {
    __clientBench?: ClientBenchRow[]
    __clientBenchError?: string
  }
}

interface LoadedEvent { kind: 'loaded'; name: string; created: number; at: number; scripts: number; bytes: number }
interface OpenEvent { kind: 'open'; name: string; start: number; end: number }
type BootEvent = LoadedEvent | OpenEvent

// Imported as a worker's URL, not `new URL('./bench-worker.ts', import.meta.url)`: a build bundles
// the worker from this import (bench/chromium.ts serves the page built or through the dev server).
const workerUrl = new URL(benchWorkerUrl, location.href)
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!
const ms = (x: number): string => `${x.toFixed(2)} ms`

async function main(): Promise<ClientBenchRow[]> {
  const sizes = (new URLSearchParams(location.search).get('sizes') ?? '10000,100000').split(',').map(Number)
  const name = `client-bench-${Date.now()}`
  const shared = new SharedWorker(workerUrl, { type: 'module', name: `memweave:${name}` })
  shared.port.start()
  const api = Comlink.wrap<typeof benchApi>(shared.port)
  const mem = await openMemory({ name, mode: 'shared', worker: workerUrl, persist: false })
  const rows: ClientBenchRow[] = []

  // Single write latency, awaited one at a time.
  const lat: number[] = []
  for (let i = 0; i < 300; i++) {
    const t = performance.now()
    await mem.facts.write(factRow(i, 'single').content)
    lat.push(performance.now() - t)
  }
  const directLat = await api.directWriteLatencies(`${name}-direct`, 300)
  rows.push({ metric: 'single write p50', memweave: ms(pct(lat, 0.5)), baseline: `${ms(pct(directLat, 0.5))} (in-worker call)`, ratio: pct(lat, 0.5) / pct(directLat, 0.5) })
  rows.push({ metric: 'single write p99', memweave: ms(pct(lat, 0.99)), baseline: `${ms(pct(directLat, 0.99))} (in-worker call)`, ratio: pct(lat, 0.99) / pct(directLat, 0.99) })
  // The floor under the p50 (issue 31): one row in memweave's layout put on plain IndexedDB in the worker, each in its own transaction, awaited.
  const putLat = await api.rawAwaitedPutLatencies(name, 300)
  rows.push({ metric: 'single write p50 ÷ raw awaited put', memweave: ms(pct(lat, 0.5)), baseline: `${ms(pct(putLat, 0.5))} raw IndexedDB put + commit in worker`, ratio: pct(lat, 0.5) / pct(putLat, 0.5) })
  console.log('single writes done')

  // Burst: 1,000 concurrent writes.
  let t = performance.now()
  await Promise.all(Array.from({ length: 1000 }, (_, i) => mem.facts.write(factRow(i, 'burst').content)))
  const burst = performance.now() - t
  const rawBurst = await api.rawBulkPut(name, 1000, 0)
  rows.push({ metric: 'burst of 1,000 writes', memweave: `${ms(burst)} (${Math.round(1000 / (burst / 1000))}/s)`, baseline: `${ms(rawBurst)} raw Dexie bulkPut in worker`, ratio: burst / rawBurst })
  // The same burst called in the worker: how much of the row above is the page's (issue 31).
  const directBurst = await api.directBurst(`${name}-direct`, 1000, 'burst')
  rows.push({ metric: 'burst in-worker call', memweave: ms(directBurst), baseline: `${ms(rawBurst)} raw Dexie bulkPut in worker`, ratio: directBurst / rawBurst })
  // The same bulkPut with rows as memweave stores them (about 2.7x factRow's bytes), the like-for-like baseline (issue 31).
  const storedBurst = await api.rawBulkPutStored(name, 1000, 0)
  rows.push({ metric: 'burst ÷ bulkPut of stored-layout rows', memweave: ms(burst), baseline: `${ms(storedBurst)} raw Dexie bulkPut, memweave's row layout`, ratio: burst / storedBurst })
  rows.push({ metric: 'burst in-worker ÷ the same', memweave: ms(directBurst), baseline: `${ms(storedBurst)} raw Dexie bulkPut, memweave's row layout`, ratio: directBurst / storedBurst })
  // The rows above time each burst once, and the first through openMemory is the first batch of
  // 1,000 the worker runs (its code still cold). Warmed up, then alternating rounds on memories of
  // their own (the fill and cold open below keep theirs), medians (issue 31, third round).
  const rounds = 5
  const warm = await openMemory({ name: `${name}-bursts`, mode: 'shared', worker: workerUrl, persist: false })
  const throughPage = async (salt: string): Promise<number> => {
    const t0 = performance.now()
    await Promise.all(Array.from({ length: 1000 }, (_, i) => warm.facts.write(factRow(i, salt).content)))
    return performance.now() - t0
  }
  await throughPage('warm')
  await api.directBurst(`${name}-bursts-direct`, 1000, 'warm')
  const pageB: number[] = []
  const workerB: number[] = []
  const storedB: number[] = []
  for (let r = 0; r < rounds; r++) {
    pageB.push(await throughPage(`round${r}`))
    workerB.push(await api.directBurst(`${name}-bursts-direct`, 1000, `round${r}`))
    storedB.push(await api.rawBulkPutStored(`${name}-bursts`, 1000, (r + 1) * 1000))
  }
  await warm.close()
  const med = (xs: number[]): number => pct(xs, 0.5)
  rows.push({ metric: `burst ÷ stored-layout bulkPut, median of ${rounds} warm rounds`, memweave: ms(med(pageB)), baseline: `${ms(med(storedB))} raw Dexie bulkPut, memweave's row layout`, ratio: med(pageB) / med(storedB) })
  rows.push({ metric: `burst in-worker ÷ the same, median of ${rounds}`, memweave: ms(med(workerB)), baseline: `${ms(med(storedB))} raw Dexie bulkPut, memweave's row layout`, ratio: med(workerB) / med(storedB) })
  console.log('burst done')

  // Retrieve at each size, then cold open at the largest.
  let written = 1300
  for (const size of sizes) {
    while (written < size) {
      const n = Math.min(2000, size - written)
      const base = written
      await Promise.all(Array.from({ length: n }, (_, i) => mem.facts.write(factRow(base + i, 'fill').content)))
      await api.rawBulkPut(name, n, base)
      written += n
    }
    console.log(`filled ${size}`)
    const qs = Array.from({ length: 50 }, (_, i) => QUERIES[i % QUERIES.length]!)
    const rl: number[] = []
    for (const q of qs) {
      t = performance.now()
      await mem.facts.retrieve(q, { budgetTokens: 2000 })
      rl.push(performance.now() - t)
    }
    const dl = await api.directRetrieveLatencies(name, qs)
    rows.push({ metric: `retrieve p50 at ${size.toLocaleString('en')}`, memweave: ms(pct(rl, 0.5)), baseline: `${ms(pct(dl, 0.5))} (in-worker call)`, ratio: pct(rl, 0.5) / pct(dl, 0.5) })
  }
  await mem.close()

  // Cold open: a new dedicated worker opens the database and loads its state, `coldOpens` times
  // (medians: one open swung 4x at load 25), each beside the raw read and the same open called in a
  // fresh worker. Its worker tells when it loaded and when the host's open ran (bench-worker.ts,
  // BOOT_CHANNEL): the parts below, each the median of its own figures.
  const reps = Math.max(1, Number(new URLSearchParams(location.search).get('coldOpens') ?? 3))
  const heard: BootEvent[] = []
  const channel = new BroadcastChannel('memweave-bench-boot')
  channel.onmessage = (e: MessageEvent<BootEvent>) => void heard.push(e.data)
  const abs = (): number => performance.timeOrigin + performance.now()
  const figures = new Map<string, number[]>()
  const add = (key: string, x: number): void => void (figures.get(key) ?? figures.set(key, []).get(key)!).push(x)
  let rowsRead = 0
  let ownRows = 0
  for (let r = 0; r < reps; r++) {
    const t0 = abs()
    const cold = await openMemory({ name, mode: 'dedicated', worker: workerUrl, persist: false })
    const resolved = abs()
    await cold.facts.retrieve('x', { budgetTokens: 0 })
    const answered = abs()
    await cold.close()
    add('open', answered - t0)
    // The worker's last messages may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const mine = heard.filter((e) => e.name === `memweave:${name}` && (e.kind === 'loaded' ? e.created >= t0 : e.start >= t0))
    const loaded = mine.find((e): e is LoadedEvent => e.kind === 'loaded')
    const opened = mine.find((e): e is OpenEvent => e.kind === 'open')
    if (loaded && opened) {
      add('worker created', loaded.created - t0)
      add('worker script and imports loaded', loaded.at - loaded.created)
      add('until the host opens', opened.start - loaded.at)
      add('host open in the worker', opened.end - opened.start)
      add('until openMemory resolves', resolved - opened.end)
      add('first retrieve answered', answered - resolved)
    }
    const raw = await api.rawOpenAll(name)
    add('raw', raw.ms)
    rowsRead = raw.rows
    // The same open without the page, in a fresh dedicated worker: how much of the row above is the client's (issue 31).
    const fresh = new Worker(workerUrl, { type: 'module' })
    add('direct', await Comlink.wrap<typeof benchApi>(fresh).directColdOpen(name))
    fresh.terminate()
    // Its first parts, one after another in another fresh worker (bench-worker.ts coldParts). Not
  // subtracted from the call above: measured in another worker, at load they can exceed it.
    const partsWorker = new Worker(workerUrl, { type: 'module' })
    const cp = await Comlink.wrap<typeof benchApi>(partsWorker).coldParts(name)
    partsWorker.terminate()
    add('dexie open', cp.openMs)
    add('read', cp.readMs)
    // Like for like (issue 31): the rows memweave stored, read whole by raw Dexie (its open reads these bytes, then builds its state).
    const own = await api.rawOpenMemweaveRecords(name)
    add('own', own.ms)
    ownRows = own.rows
    // The worker's start inside the cold open: a new dedicated worker of the same script, until it answers a ping.
    const s0 = performance.now()
    const started = new Worker(workerUrl, { type: 'module' })
    await Comlink.wrap<typeof benchApi>(started).ping()
    add('boot', performance.now() - s0)
    started.terminate()
  }
  channel.close()
  const m = (key: string): number => med(figures.get(key) ?? [Number.NaN])
  const open = m('open')
  const of = reps > 1 ? `median of ${reps} ` : ''
  rows.push({ metric: `cold open at ${written.toLocaleString('en')}`, memweave: ms(open), baseline: `${ms(m('raw'))} raw Dexie open + read ${rowsRead.toLocaleString('en')} rows`, ratio: open / m('raw') })
  for (const part of ['worker created', 'worker script and imports loaded', 'until the host opens', 'host open in the worker', 'until openMemory resolves', 'first retrieve answered']) {
    if (figures.has(part)) rows.push({ metric: `cold open: ${part}`, memweave: ms(m(part)), baseline: `of ${ms(open)}, ${of}each`, ratio: m(part) / open })
  }
  const direct = m('direct')
  rows.push({ metric: 'cold open in-worker call', memweave: ms(direct), baseline: `${ms(m('raw'))} raw Dexie open + read`, ratio: direct / m('raw') })
  const inWorker = (metric: string, x: number): void => void rows.push({ metric: `cold open in-worker: ${metric}`, memweave: ms(x), baseline: `of ${ms(direct)} in-worker call`, ratio: x / direct })
  inWorker('Dexie opens its database', m('dexie open'))
  inWorker(`read its ${ownRows.toLocaleString('en')} records whole`, m('read'))
  rows.push({ metric: 'cold open ÷ raw read of its own rows', memweave: ms(open), baseline: `${ms(m('own'))} raw Dexie open + read of memweave's ${ownRows.toLocaleString('en')} records`, ratio: open / m('own') })
  rows.push({ metric: 'worker start (script loaded, ping)', memweave: ms(m('boot')), baseline: `${ms(open)} cold open through openMemory`, ratio: m('boot') / open })
  shared.port.close()
  return rows
}

main().then(
  (rows) => (window.__clientBench = rows),
  (err: unknown) => (window.__clientBenchError = err instanceof Error ? (err.stack ?? err.message) : String(err)),
)
