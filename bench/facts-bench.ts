import type { Dexie } from 'dexie'
import { createMemory, type Memory } from '../src/index.js'
import { benchQueries, factRows, type FactRow } from './fixtures.js'
import { naiveRetrieve, openRawDexie, rawLoad, rawWrite, type IdbDeps } from './raw-dexie.js'

/**
 * The fact-store benchmark, runtime-neutral: Node runs it on fake-indexeddb (bench/run.ts), Chromium
 * runs the same module in a page on real IndexedDB (bench/browser.html). For each size it measures
 * memweave against plain Dexie doing the same job in the same run:
 *
 * - write: `facts.write()` in chunks via `Promise.all`, then `flush()`, against `bulkPut` of the
 *   same rows in the same chunks into a table with memweave's layout;
 * - cold open: `createMemory()` on the database just written (a new handle that loads state) against
 *   opening the raw database and reading every row with `toArray()`;
 * - retrieve: the same queries through `facts.retrieve()` against a `toArray()` scan with a keyword
 *   filter, both packing a 2,000-character budget.
 *
 * Time budgets keep a run bounded when a size is slower than expected: a write that runs out of
 * budget stops after the chunk in flight and the size is reported as unfinished, with open and
 * retrieve then measured on the facts that were written (and the baseline cut to the same rows).
 */
export interface BenchEnv {
  /** Label printed with the figures, e.g. `node`. */
  readonly runtime: string
  readonly sizes: readonly number[]
  /** IndexedDB for one size's run; Node hands out a fresh fake-indexeddb factory each time. */
  readonly freshIdb: () => IdbDeps
  /** Writes issued per `Promise.all` (and rows per baseline `bulkPut`). Default 1,000. */
  readonly chunk?: number
  /** Measured queries per size. Default 50. */
  readonly queries?: number
  readonly budgetTokens?: number
  /** Cold opens per size (the median is reported). Default 3. */
  readonly openReps?: number
  /** Stop the memweave write of one size after this long. Default: no limit. */
  readonly writeBudgetMs?: number
  /** Stop the naive baseline's queries after this long (at least 10 run). Default: no limit. */
  readonly naiveBudgetMs?: number
  /** Delete the databases after each size (real browsers keep them on disk). */
  readonly cleanup?: boolean
  readonly log?: (line: string) => void
}

export interface Timing {
  readonly memweaveMs: number
  readonly baselineMs: number
  /** memweave time / baseline time for the same work: above 1 means memweave is slower. */
  readonly ratio: number
}

export interface Latency {
  readonly queries: number
  readonly medianMs: number
  readonly p95Ms: number
  /** Mean memories returned per query: a sanity check that both sides answer. */
  readonly meanHits: number
}

export interface SizeResult {
  readonly runtime: string
  /** Facts the size asked for. */
  readonly size: number
  /** Facts memweave wrote: `size`, unless the write budget ran out. Open and retrieve ran on these. */
  readonly facts: number
  readonly write: Timing & {
    readonly complete: boolean
    readonly memweavePerSec: number
    readonly baselinePerSec: number
    /** memweave facts/s over the last tenth of the facts written: how throughput holds up as the store grows. */
    readonly memweaveTailPerSec: number
  }
  readonly open: Timing & {
    readonly reps: number
    /** The first `retrieve()` on a handle, started as soon as createMemory() returned (median of the opens). */
    readonly firstRetrieveMs: number
    /** createMemory() plus that first retrieve, over the baseline's open + toArray. */
    readonly firstAnswerRatio: number
  }
  readonly retrieve: {
    readonly memweave: Latency
    readonly baseline: Latency
    readonly ratioMedian: number
    readonly ratioP95: number
  }
  /** Wall time this size took, setup included. */
  readonly elapsedMs: number
}

const WARMUP_QUERIES = 3
const MIN_NAIVE_QUERIES = 10

export async function runFactsBench(env: BenchEnv): Promise<SizeResult[]> {
  await warmUp(env)
  const out: SizeResult[] = []
  for (const size of env.sizes) out.push(await benchSize(env, size))
  return out
}

async function benchSize(env: BenchEnv, size: number): Promise<SizeResult> {
  const started = performance.now()
  const chunk = env.chunk ?? 1000
  const openReps = env.openReps ?? 3
  const log = (msg: string): void => env.log?.(`[${env.runtime}] ${size}: ${msg}`)
  const rows = factRows(size)
  const queries = benchQueries(env.queries ?? 50)
  const deps = env.freshIdb()
  const tag = `${Date.now().toString(36)}-${size}`
  const rawName = `bench-raw-${tag}`
  const mwName = `bench-memweave-${tag}`
  const open = (): Promise<Memory> => createMemory({ storage: 'indexeddb', name: mwName, ...deps })

  // ---- write ----
  let raw: Dexie = openRawDexie(rawName, deps)
  await raw.open()
  const baselineWriteMs = await time(() => rawWrite(raw, rows.map((r) => r.record), chunk))
  log(`baseline bulkPut ${fmtMs(baselineWriteMs)}`)

  let mem = await open()
  const written = await memweaveWrite(mem, rows, chunk, env.writeBudgetMs ?? Infinity, log)
  await mem.close()
  const facts = written.count
  log(`memweave write ${facts === size ? '' : `stopped by the time budget at ${facts} facts, `}${fmtMs(written.ms)}`)
  // Open and retrieve compare equal data: cut the baseline to the rows memweave got to write.
  if (facts < size) await raw.table('records').bulkDelete(rows.slice(facts).map((r) => r.record.id))
  raw.close()

  // ---- cold open ----
  const baselineOpens: number[] = []
  for (let i = 0; i < openReps; i++) {
    raw = openRawDexie(rawName, deps)
    let n = 0
    baselineOpens.push(await time(async () => void (n = await rawLoad(raw))))
    raw.close()
    if (n !== facts) throw new Error(`baseline holds ${n} rows, expected ${facts}`)
  }
  const memweaveOpens: number[] = []
  const firstRetrieves: number[] = []
  const budget = env.budgetTokens ?? 2000
  for (let i = 0; i < openReps; i++) {
    memweaveOpens.push(await time(async () => void (mem = await open())))
    // What an agent waits for after a restart: the first answer, on a handle that just opened.
    firstRetrieves.push(await time(async () => void (await mem.facts.retrieve(queries[i % queries.length]!, { budgetTokens: budget }))))
    if (i < openReps - 1) await mem.close()
  }
  log(`cold open memweave ${fmtMs(median(memweaveOpens))} + first retrieve ${fmtMs(median(firstRetrieves))}, baseline ${fmtMs(median(baselineOpens))}`)

  // ---- retrieve (memweave on the handle opened last) ----
  const mw = await latency(queries, Infinity, async (q) => (await mem.facts.retrieve(q, { budgetTokens: budget })).length)
  await mem.close()
  raw = openRawDexie(rawName, deps)
  await raw.open()
  const base = await latency(queries, env.naiveBudgetMs ?? Infinity, async (q) => (await naiveRetrieve(raw, q, budget)).length)
  log(`retrieve median memweave ${fmtMs(mw.medianMs)}, baseline ${fmtMs(base.medianMs)} (${base.queries} queries)`)

  // memweave must have stored every fact it acknowledged, or the write figure means nothing.
  const check = openRawDexie(mwName, deps)
  const stored = await check.table('records').where('kind').equals('fact').count()
  // Dexie's delete() closes its own handle first; a separate close() then delete can report "blocked".
  for (const db of [raw, check]) await (env.cleanup ? db.delete() : db.close())
  if (stored !== facts) throw new Error(`memweave stored ${stored} fact records, expected ${facts}`)

  // Per fact, so an unfinished write still compares like with like.
  const perFact = (ms: number, n: number): number => ms / n
  const memweaveOpen = median(memweaveOpens)
  const baselineOpen = median(baselineOpens)
  return {
    runtime: env.runtime,
    size,
    facts,
    write: {
      complete: facts === size,
      memweaveMs: written.ms,
      baselineMs: baselineWriteMs,
      ratio: perFact(written.ms, facts) / perFact(baselineWriteMs, size),
      memweavePerSec: (facts / written.ms) * 1000,
      baselinePerSec: (size / baselineWriteMs) * 1000,
      memweaveTailPerSec: written.tailPerSec,
    },
    open: {
      memweaveMs: memweaveOpen, baselineMs: baselineOpen, ratio: memweaveOpen / baselineOpen, reps: openReps,
      firstRetrieveMs: median(firstRetrieves),
      firstAnswerRatio: median(memweaveOpens.map((o, i) => o + firstRetrieves[i]!)) / baselineOpen,
    },
    retrieve: { memweave: mw, baseline: base, ratioMedian: mw.medianMs / base.medianMs, ratioP95: mw.p95Ms / base.p95Ms },
    elapsedMs: performance.now() - started,
  }
}

/**
 * One untimed pass over every code path on a small throwaway store, so the first size measures
 * steady state rather than the JIT compiling memweave, Dexie and the baseline.
 */
async function warmUp(env: BenchEnv): Promise<void> {
  const deps = env.freshIdb()
  const rows = factRows(500, 0x3a3)
  const name = `bench-warmup-${Date.now().toString(36)}`
  const raw = openRawDexie(`${name}-raw`, deps)
  await raw.open()
  await rawWrite(raw, rows.map((r) => r.record), 250)
  let mem = await createMemory({ storage: 'indexeddb', name, ...deps })
  await memweaveWrite(mem, rows, 250, Infinity, () => undefined)
  await mem.close()
  mem = await createMemory({ storage: 'indexeddb', name, ...deps })
  for (const q of benchQueries(10, 0x3a3)) {
    await mem.facts.retrieve(q, { budgetTokens: 2000 })
    await naiveRetrieve(raw, q, 2000)
  }
  await mem.close()
  await raw.delete()
  await openRawDexie(name, deps).delete()
}

/** Writes rows chunk by chunk until done or out of budget; returns how many, how long, and the tail rate. */
async function memweaveWrite(
  mem: Memory,
  rows: readonly FactRow[],
  chunk: number,
  budgetMs: number,
  log: (msg: string) => void,
): Promise<{ count: number; ms: number; tailPerSec: number }> {
  const t0 = performance.now()
  const marks: Array<{ count: number; at: number }> = [{ count: 0, at: t0 }]
  let count = 0
  while (count < rows.length && performance.now() - t0 < budgetMs) {
    const batch = rows.slice(count, count + chunk)
    await Promise.all(batch.map((r) => mem.facts.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })))
    count += batch.length
    marks.push({ count, at: performance.now() })
    // Progress every tenth of a large size, so a slow one shows its trend before it ends.
    if (rows.length >= 10 * chunk && count < rows.length && count % (rows.length / 10) < chunk) {
      log(`memweave write ${count}/${rows.length} after ${fmtMs(performance.now() - t0)}`)
    }
  }
  await mem.facts.flush()
  const end = performance.now()
  const tailFrom = [...marks].reverse().find((m) => m.count <= count * 0.9) ?? marks[0]!
  return { count, ms: end - t0, tailPerSec: ((count - tailFrom.count) / (end - tailFrom.at)) * 1000 }
}

/** Runs every query once unmeasured for the first few, then timed, until done or out of budget. */
async function latency(queries: readonly string[], budgetMs: number, run: (q: string) => Promise<number>): Promise<Latency> {
  for (const q of queries.slice(0, WARMUP_QUERIES)) await run(q)
  const times: number[] = []
  let hits = 0
  const t0 = performance.now()
  for (const q of queries) {
    if (times.length >= MIN_NAIVE_QUERIES && performance.now() - t0 > budgetMs) break
    const s = performance.now()
    hits += await run(q)
    times.push(performance.now() - s)
  }
  return { queries: times.length, medianMs: median(times), p95Ms: p95(times), meanHits: hits / times.length }
}

async function time(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now()
  await fn()
  return performance.now() - t0
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/** Nearest-rank 95th percentile. */
export function p95(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.max(0, Math.ceil(0.95 * s.length) - 1)]!
}

export function fmtMs(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 10 ? `${ms.toFixed(0)} ms` : `${ms.toFixed(2)} ms`
}
