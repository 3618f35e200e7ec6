import { createMemory, type Memory, type SharedWorkingMemory } from '../src/index.js'
import { ConflictDetector } from '../src/working/conflict/detector.js'
import { chooseEvictions } from '../src/working/eviction.js'
import type { IdbDeps } from './raw-dexie.js'

/**
 * The working-memory benchmark (FR-001 "Latency: <10ms to add observation"), runtime-neutral:
 * Node runs it on in-memory storage and fake-indexeddb, Chromium on real IndexedDB.
 *
 * For each storage it measures, on a pool already full (50 observations from 10 agents, all
 * typed FACT, so every add is checked for conflicts against every other agent's observations and
 * every add evicts one):
 *
 * - `add-observation`: `addObservation()` awaited one at a time: end to end, including the storage
 *   transaction that makes it durable;
 * - `add-observation x10`: ten agents adding at once; the figure is the wall time of a round / 10;
 * - `conflict-check`: the in-memory part alone: parse and embed the new text, compare it with 49
 *   observations, choose evictions (no storage);
 * - `decay-cycle`: `applyAttentionDecay()` awaited, 1,000 cycles (checkpoints included).
 *
 * Call it from bench/run.ts:
 *
 *   const rows = await runWorkingBench({ runtime: 'node 20', freshIdb: () => ({ indexedDB: new IDBFactory(), IDBKeyRange }) })
 *   process.stdout.write(formatWorkingReport(rows))
 */
export interface WorkingBenchEnv {
  /** Label printed with the figures, e.g. `node 20` or `chromium 141`. */
  readonly runtime: string
  /** IndexedDB for one run (fake-indexeddb in Node, the page's own in a browser); omit to bench in-memory storage only. */
  readonly freshIdb?: () => IdbDeps
  /** Also bench in-memory storage. Default true. */
  readonly memory?: boolean
  /** Measured sequential adds. Default 500. */
  readonly adds?: number
  /** Rounds of ten concurrent adds. Default 50. */
  readonly rounds?: number
  /** Decay cycles. Default 1,000. */
  readonly decayCycles?: number
  /** Delete the IndexedDB databases afterwards (real browsers keep them on disk). Default false. */
  readonly cleanup?: boolean
  readonly log?: (line: string) => void
}

export interface WorkingBenchRow {
  readonly runtime: string
  /** `'memory'` or `'indexeddb'`; `'none'` for the in-memory-only conflict check. */
  readonly storage: 'memory' | 'indexeddb' | 'none'
  readonly metric: 'add-observation' | 'add-observation x10' | 'conflict-check' | 'decay-cycle'
  /** Measured operations. */
  readonly n: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly meanMs: number
  /** Wall time of the whole measurement. */
  readonly totalMs: number
}

const SUBJECTS = ['standup', 'deploy window', 'client call', 'offsite', 'design review', 'release', 'backup job', 'team lunch', 'demo', 'retro']
const TIMES = ['9am', '10:30', '11am', 'noon', '2pm', '3pm', '4:15pm', '5pm']
const PRICES = ['$5', '$7', '€12', '$120', 'five dollars']
const TEMPLATES: ReadonlyArray<(i: number) => string> = [
  (i) => `The ${SUBJECTS[i % SUBJECTS.length]} is at ${TIMES[(i * 7) % TIMES.length]}`,
  (i) => `The ${SUBJECTS[(i * 3) % SUBJECTS.length]} ticket costs ${PRICES[i % PRICES.length]}`,
  (i) => `The ${SUBJECTS[(i * 5) % SUBJECTS.length]} room fits ${10 + (i % 30)} people`,
  (i) => `The ${SUBJECTS[(i * 7) % SUBJECTS.length]} is ${i % 2 ? 'not ' : ''}confirmed`,
  (i) => `Agent note ${i}: checked the ${SUBJECTS[i % SUBJECTS.length]} runbook and found nothing unusual`,
]

/** The i-th benchmark observation: varied templates, some of which contradict earlier ones. */
export function benchText(i: number): string {
  return TEMPLATES[i % TEMPLATES.length]!(Math.floor(i / TEMPLATES.length))
}

export async function runWorkingBench(env: WorkingBenchEnv): Promise<WorkingBenchRow[]> {
  const rows: WorkingBenchRow[] = []
  const log = (m: string): void => env.log?.(`[${env.runtime}] working: ${m}`)
  rows.push(await conflictCheck(env))
  log(`conflict-check p50 ${fmt(rows[0]!.p50Ms)}`)
  const storages: Array<['memory' | 'indexeddb', (() => IdbDeps) | null]> = []
  if (env.memory ?? true) storages.push(['memory', null])
  if (env.freshIdb) storages.push(['indexeddb', env.freshIdb])
  for (const [kind, idb] of storages) {
    const name = `working-bench-${Date.now()}-${Math.random().toString(36).slice(2)}`
    const deps = idb?.()
    const mem: Memory = await createMemory(
      deps ? { storage: 'indexeddb', name, indexedDB: deps.indexedDB, IDBKeyRange: deps.IDBKeyRange } : { storage: 'memory' },
    )
    const wm = await mem.working.open('bench')
    let next = 0
    const add = (agent: number) =>
      wm.addObservation({
        content: benchText(next++), sourceAgentId: `agent-${agent}`, isBeliefCandidate: true, beliefType: 'FACT',
        attentionWeight: ((next * 37) % 100) / 100,
      })
    for (let i = 0; i < 60; i++) await add(i % 10)
    if ((await wm.observations()).length !== 50) throw new Error('working bench: the pool should be full')
    rows.push(await sequentialAdds(env, kind, add))
    log(`add p50 ${fmt(rows.at(-1)!.p50Ms)} p99 ${fmt(rows.at(-1)!.p99Ms)}`)
    rows.push(await concurrentAdds(env, kind, add))
    rows.push(await decayCycles(env, kind, wm))
    log(`decay p50 ${fmt(rows.at(-1)!.p50Ms)}`)
    await mem.close()
    if (deps && env.cleanup) await new Promise<void>((resolve) => {
      const req = deps.indexedDB.deleteDatabase(name)
      req.onsuccess = req.onerror = req.onblocked = () => resolve()
    })
  }
  return rows
}

async function sequentialAdds(env: WorkingBenchEnv, storage: 'memory' | 'indexeddb', add: (agent: number) => Promise<unknown>): Promise<WorkingBenchRow> {
  const n = env.adds ?? 500
  const times: number[] = []
  const start = performance.now()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await add(i % 10)
    times.push(performance.now() - t)
  }
  return row(env, storage, 'add-observation', times, performance.now() - start)
}

async function concurrentAdds(env: WorkingBenchEnv, storage: 'memory' | 'indexeddb', add: (agent: number) => Promise<unknown>): Promise<WorkingBenchRow> {
  const rounds = env.rounds ?? 50
  const times: number[] = []
  const start = performance.now()
  for (let r = 0; r < rounds; r++) {
    const t = performance.now()
    await Promise.all(Array.from({ length: 10 }, (_, a) => add(a)))
    times.push((performance.now() - t) / 10)
  }
  return row(env, storage, 'add-observation x10', times, performance.now() - start)
}

async function decayCycles(env: WorkingBenchEnv, storage: 'memory' | 'indexeddb', wm: SharedWorkingMemory): Promise<WorkingBenchRow> {
  const n = env.decayCycles ?? 1000
  const times: number[] = []
  const start = performance.now()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await wm.applyAttentionDecay(0.999)
    times.push(performance.now() - t)
  }
  return row(env, storage, 'decay-cycle', times, performance.now() - start)
}

/** The detector and eviction work of one add against a full pool, without storage. */
async function conflictCheck(env: WorkingBenchEnv): Promise<WorkingBenchRow> {
  const detector = new ConflictDetector()
  const pool = await detector.analyze(Array.from({ length: 49 }, (_, i) => benchText(i)))
  const holdings = pool.map((_, i) => ({ id: `o${i}`, agent: `a${i % 10}`, weight: (i % 10) / 10, hlc: String(i).padStart(4, '0') }))
  const n = env.adds ?? 500
  // Warm up the parser, the stemmer cache and the JIT before measuring.
  for (let i = 0; i < 100; i++) await detector.analyze([benchText(5000 + i)])
  const times: number[] = []
  const start = performance.now()
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    const [mine] = await detector.analyze([`${benchText(1000 + i)} (${i})`])
    let found = 0
    for (const other of pool) if (detector.compare(mine!, other).conflict) found++
    chooseEvictions([...holdings, { id: 'new', agent: 'a0', weight: 0.5, hlc: '9999' }], { maxItemsPerAgent: 7, maxTotalItems: 49 })
    times.push(performance.now() - t)
    if (found < 0) throw new Error('unreachable')
  }
  return row(env, 'none', 'conflict-check', times, performance.now() - start)
}

function row(env: WorkingBenchEnv, storage: WorkingBenchRow['storage'], metric: WorkingBenchRow['metric'], times: number[], totalMs: number): WorkingBenchRow {
  const sorted = [...times].sort((a, b) => a - b)
  const q = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
  return {
    runtime: env.runtime, storage, metric, n: times.length, p50Ms: q(0.5), p99Ms: q(0.99),
    meanMs: times.reduce((s, x) => s + x, 0) / Math.max(1, times.length), totalMs,
  }
}

function fmt(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`
}

/** A pipe table of the rows, for a terminal or docs/benchmarks.md. */
export function formatWorkingReport(rows: readonly WorkingBenchRow[]): string {
  const head = ['runtime', 'storage', 'metric', 'n', 'p50', 'p99', 'mean', 'total']
  const body = rows.map((r) => [r.runtime, r.storage, r.metric, String(r.n), fmt(r.p50Ms), fmt(r.p99Ms), fmt(r.meanMs), fmt(r.totalMs)])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)))
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => (i < 3 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`
  const rule = `|${widths.map((w, i) => (i < 3 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`
  return [
    'Working memory (FR-001): a full pool (50 observations, 10 agents, all FACT), conflict checks on; target < 10 ms per add.',
    line(head), rule, ...body.map(line), '',
  ].join('\n')
}
