import { createMemory, type Memory } from '../src/index.js'
import { HEAP_FUNCTION, type HeapReading } from './cdp-heap.js'
import { fmtMs, median, p95 } from './facts-bench.js'
import { benchQueries, factRowStream, type FactRow } from './fixtures.js'
import type { MillionStore } from './million-store.js'
import { openRawDexie, rawLoad, type IdbDeps } from './raw-dexie.js'

/**
 * Issue 31: a Memory of a million facts in Chromium (bench/million.html, `npm run bench -- --million`).
 * Out of the default run: it takes minutes. Everything through the public API, on the page's real
 * IndexedDB, each figure beside its same-run baseline:
 *
 * - write: `facts.write()` in chunks of 1,000 with `Promise.all`, then `flush()`, against `bulkPut`
 *   of the same rows in the same chunks into memweave's table layout (as bench/facts-bench.ts);
 * - cold open: `createMemory()` on the database just written against opening the raw database and
 *   reading every row (`toArray()`), the median of `openReps`, and the first retrieve after it;
 * - retrieve: p50 and p95 of 50 queries (after 3 unmeasured) on the handle opened last. No naive
 *   scan: at a million rows each of its queries reads the whole table (tens of seconds);
 * - heap: the JS heap after forced collections with the last cold handle held (it has answered
 *   once), minus the same just before that open with no Memory referenced: what the store holds
 *   per fact, and the array buffers' backing stores beside it (typed arrays live outside the JS
 *   heap). Read through CDP from outside the page (`window.__memweaveHeap`, bench/cdp-heap.ts,
 *   which bench/chromium.ts gives the page). The retrieve figures are taken on that same handle.
 *   The second round's run took "open minus closed" and read 107 B a fact at 1M: the closed handle
 *   was still referenced by the bench's own variable, so its state counted on both sides.
 *
 * The rows are generated chunk by chunk (`factRowStream`), twice (baseline, memweave), so the page
 * never holds them all beside the store it measures. The baseline's database is written, read and
 * deleted before memweave writes, and the page runs in a profile on disk: both at once exceeded
 * the storage quota of a throwaway context at 800k facts.
 *
 * `store` (bench/million-store.ts): `keep` writes under the given names and deletes nothing, the
 * baseline's database kept beside memweave's (the profile on disk is kept too, and its quota is
 * reported); `reuse` skips both writes and measures the opens, retrieve and heap on those databases,
 * leaving them as they were found (the result has no write figures: the Node side has them).
 */
export interface MillionStoreMode {
  readonly mode: 'keep' | 'reuse'
  readonly rawName: string
  readonly memweaveName: string
}

export interface MillionResult {
  readonly facts: number
  /** Absent on a reuse: nothing was written; the kept run's figures are in its manifest. */
  readonly write?: { readonly memweaveMs: number; readonly baselineMs: number; readonly ratio: number; readonly tailPerSec: number }
  /** On a keep: what the origin stores after both writes, and its quota (`navigator.storage.estimate()`). */
  readonly storage?: { readonly usageBytes: number; readonly quotaBytes: number }
  readonly open: {
    readonly memweaveMs: number
    readonly baselineMs: number
    readonly ratio: number
    readonly reps: number
    readonly firstRetrieveMs: number
  }
  readonly retrieve: { readonly queries: number; readonly medianMs: number; readonly p95Ms: number; readonly meanHits: number }
  readonly heap: {
    /** JS heap before the measured open, no Memory referenced. */
    readonly beforeBytes: number
    /** JS heap with the Memory held. */
    readonly heldBytes: number
    /** Array buffers' backing stores held with the Memory, beyond those before. */
    readonly backingBytes: number
    /** (held - before) / facts: JS heap a fact costs. */
    readonly perFact: number
  }
  readonly elapsedMs: number
}

/** The page's heap after forced collections, read through CDP by the Node side (bench/cdp-heap.ts). */
async function heapUsed(): Promise<HeapReading> {
  const read = (globalThis as { [HEAP_FUNCTION]?: () => Promise<HeapReading> })[HEAP_FUNCTION]
  if (!read) throw new Error('the heap figure needs the page run by bench/chromium.ts (window.__memweaveHeap)')
  return read()
}

function* chunks(count: number, size: number): Generator<FactRow[]> {
  const stream = factRowStream()
  for (let done = 0; done < count; ) {
    const batch: FactRow[] = []
    const n = Math.min(size, count - done)
    for (let i = 0; i < n; i++) batch.push(stream.next().value)
    done += n
    yield batch
  }
}

export async function runMillionBench(env: {
  readonly count: number
  readonly deps: IdbDeps
  readonly log: (line: string) => void
  readonly openReps?: number
  readonly chunk?: number
  readonly store?: MillionStoreMode
}): Promise<MillionResult> {
  const started = performance.now()
  const { count, deps } = env
  const chunk = env.chunk ?? 1000
  const openReps = env.openReps ?? 3
  const log = (msg: string): void => env.log(`[million] ${count}: ${msg}`)
  const tag = Date.now().toString(36)
  const store = env.store
  const rawName = store?.rawName ?? `bench-million-raw-${tag}`
  const mwName = store?.memweaveName ?? `bench-million-${tag}`
  const open = (name = mwName): Promise<Memory> => createMemory({ storage: 'indexeddb', name, ...deps })
  const queries = benchQueries(50)
  const budget = { budgetTokens: 2000 }
  const tenth = Math.max(chunk, Math.floor(count / 10))

  // An untimed pass over every path on a small store, so the figures are steady state, not the JIT.
  {
    const warm = await open(`${mwName}-warm`)
    for (const batch of chunks(2000, 500)) await Promise.all(batch.map((r) => warm.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })))
    await warm.facts.flush()
    for (const q of queries.slice(0, 10)) await warm.facts.retrieve(q, budget)
    await warm.close()
    await openRawDexie(`${mwName}-warm`, deps).delete()
  }

  const reuse = store?.mode === 'reuse'
  if (reuse) {
    // A reuse must measure the store it was pointed at: a missing database would be created empty.
    const names = await deps.indexedDB.databases()
    for (const name of [rawName, mwName]) {
      if (!names.some((d) => d.name === name)) throw new Error(`the kept store has no database ${name} in this origin (was it kept on another port?)`)
    }
  }

  // ---- write: baseline first, as bench/facts-bench.ts ----
  let raw = openRawDexie(rawName, deps)
  let t0 = performance.now()
  let written = 0
  let baselineWriteMs = 0
  if (!reuse) {
    await raw.open()
    t0 = performance.now()
    for (const batch of chunks(count, chunk)) {
      await raw.table('records').bulkPut(batch.map((r) => r.record))
      written += batch.length
      if (written % tenth === 0 && written < count) log(`baseline bulkPut ${written} after ${fmtMs(performance.now() - t0)}`)
    }
    baselineWriteMs = performance.now() - t0
    raw.close()
    log(`baseline bulkPut ${fmtMs(baselineWriteMs)}`)
  }

  // ---- the baseline's cold open, before memweave writes ----
  const baselineOpens: number[] = []
  for (let i = 0; i < openReps; i++) {
    raw = openRawDexie(rawName, deps)
    const s = performance.now()
    const n = await rawLoad(raw)
    baselineOpens.push(performance.now() - s)
    raw.close()
    if (n !== count) throw new Error(`baseline holds ${n} rows, expected ${count}`)
  }
  log(`raw open + toArray ${fmtMs(median(baselineOpens))}`)
  // Gone before memweave writes: the two databases together need twice the space. A kept run keeps
  // it (a reuse needs it for the open's ratio) in a profile on disk, whose quota is a share of the disk.
  if (!store) await openRawDexie(rawName, deps).delete()

  // ---- memweave's write ----
  // Handles are dropped (null) once closed: a closed Memory a variable still holds keeps its state.
  let mem: Memory | null = null
  let memweaveWriteMs = 0
  let writeEnd = 0
  let tailFrom = { count: 0, at: t0 }
  if (!reuse) {
    mem = await open()
    t0 = performance.now()
    written = 0
    tailFrom = { count: 0, at: t0 }
    for (const batch of chunks(count, chunk)) {
      await Promise.all(batch.map((r) => mem!.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })))
      written += batch.length
      if (written <= count * 0.9) tailFrom = { count: written, at: performance.now() }
      if (written % tenth === 0 && written < count) log(`memweave write ${written} after ${fmtMs(performance.now() - t0)}`)
    }
    await mem.facts.flush()
    writeEnd = performance.now()
    memweaveWriteMs = writeEnd - t0
    await mem.close()
    mem = null
    log(`memweave write ${fmtMs(memweaveWriteMs)}`)
  }
  let storage: MillionResult['storage']
  if (store?.mode === 'keep') {
    const e = await navigator.storage.estimate()
    storage = { usageBytes: e.usage ?? 0, quotaBytes: e.quota ?? 0 }
    log(`kept both databases: the origin stores ${(storage.usageBytes / 2 ** 20).toFixed(1)} MiB of a ${(storage.quotaBytes / 2 ** 30).toFixed(1)} GiB quota`)
  }

  const opens: number[] = []
  const firsts: number[] = []
  let before: HeapReading = { used: 0, backing: 0 }
  for (let i = 0; i < openReps; i++) {
    // The last open is measured: the heap before it, with no Memory referenced, and after it, held.
    if (i === openReps - 1) before = await heapUsed()
    let s = performance.now()
    mem = await open()
    opens.push(performance.now() - s)
    s = performance.now()
    await mem.facts.retrieve(queries[i % queries.length]!, budget)
    firsts.push(performance.now() - s)
    if (i < openReps - 1) {
      await mem.close()
      mem = null
    }
  }
  const held = await heapUsed()
  log(`cold open ${fmtMs(median(opens))} + first retrieve ${fmtMs(median(firsts))}; heap ${((held.used - before.used) / 2 ** 20).toFixed(1)} MiB`)

  // ---- retrieve on the handle measured ----
  for (const q of queries.slice(0, 3)) await mem!.facts.retrieve(q, budget)
  const times: number[] = []
  let hits = 0
  for (const q of queries) {
    const s = performance.now()
    hits += (await mem!.facts.retrieve(q, budget)).length
    times.push(performance.now() - s)
  }
  await mem!.close()
  mem = null
  log(`retrieve p50 ${fmtMs(median(times))}, p95 ${fmtMs(p95(times))}`)

  // memweave must have stored every fact it acknowledged, or the write figure means nothing.
  const check = openRawDexie(mwName, deps)
  const stored = await check.table('records').where('kind').equals('fact').count()
  // A kept or reused store stays: the next reuse measures it again.
  if (store) check.close()
  else await check.delete()
  if (stored !== count) throw new Error(`memweave stored ${stored} fact records, expected ${count}`)

  const baselineOpen = median(baselineOpens)
  return {
    facts: count,
    ...(reuse
      ? {}
      : {
          write: {
            memweaveMs: memweaveWriteMs,
            baselineMs: baselineWriteMs,
            ratio: memweaveWriteMs / baselineWriteMs,
            tailPerSec: ((count - tailFrom.count) / (writeEnd - tailFrom.at)) * 1000,
          },
        }),
    ...(storage ? { storage } : {}),
    open: { memweaveMs: median(opens), baselineMs: baselineOpen, ratio: median(opens) / baselineOpen, reps: openReps, firstRetrieveMs: median(firsts) },
    retrieve: { queries: times.length, medianMs: median(times), p95Ms: p95(times), meanHits: hits / times.length },
    heap: { beforeBytes: before.used, heldBytes: held.used, backingBytes: held.backing - before.backing, perFact: (held.used - before.used) / count },
    elapsedMs: performance.now() - started,
  }
}

/**
 * The run's table. `stored`: a reuse's kept store (bench/million-store.ts), whose write figures
 * fill the write row, marked as the stored run's, with its date and commit: this run wrote nothing.
 */
export function formatMillionReport(r: MillionResult, stored?: MillionStore): string {
  const n = r.facts.toLocaleString('en')
  const rate = (ms: number): string => `${Math.round((r.facts / ms) * 1000).toLocaleString('en')} facts/s`
  const w = r.write ?? (stored ? { ...stored.write, ratio: stored.write.memweaveMs / stored.write.baselineMs } : undefined)
  const from = r.write ? '' : stored ? ` (stored run, ${stored.date.slice(0, 16).replace('T', ' ')} UTC, commit ${stored.commit.slice(0, 7)}${stored.commit.endsWith('-dirty') ? ' with uncommitted changes' : ''})` : ''
  return [
    '| figure | memweave | baseline (same run) | ratio |',
    '|---|---:|---:|---:|',
    w
      ? `| write ${n} facts, chunks of 1,000${from} | ${fmtMs(w.memweaveMs)} (${rate(w.memweaveMs)}; last 10% ${Math.round(w.tailPerSec).toLocaleString('en')}/s) | bulkPut ${fmtMs(w.baselineMs)} (${rate(w.baselineMs)}) | ${w.ratio.toFixed(2)}x |`
      : `| write ${n} facts | (not written in this run) | | |`,
    `| cold open (median of ${r.open.reps}) | createMemory ${fmtMs(r.open.memweaveMs)}, first retrieve ${fmtMs(r.open.firstRetrieveMs)} | raw open + toArray ${fmtMs(r.open.baselineMs)} | ${r.open.ratio.toFixed(2)}x |`,
    `| retrieve p50 / p95 (${r.retrieve.queries} queries, ${r.retrieve.meanHits.toFixed(1)} hits each) | ${fmtMs(r.retrieve.medianMs)} / ${fmtMs(r.retrieve.p95Ms)} | (no naive scan at this size) | |`,
    `| JS heap held (cold handle held minus before its open; CDP) | ${((r.heap.heldBytes - r.heap.beforeBytes) / 2 ** 20).toFixed(1)} MiB, ${Math.round(r.heap.perFact)} B a fact; array buffers ${(r.heap.backingBytes / 2 ** 20).toFixed(1)} MiB, ${Math.round(r.heap.backingBytes / r.facts)} B a fact | the page before the open ${(r.heap.beforeBytes / 2 ** 20).toFixed(1)} MiB | |`,
    '',
    `Took ${(r.elapsedMs / 1000).toFixed(0)} s in the page.`,
  ].join('\n')
}
