import { execFileSync } from 'node:child_process'
import { availableParallelism, loadavg } from 'node:os'
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { runInChromium, runMillionInChromium } from './chromium.js'
import { formatMillionReport } from './million-bench.js'
import { MILLION_STORE_VERSION, manifestPath, prepareKeepDir, profileDir, readMillionStore, writeMillionStore } from './million-store.js'
import { runFactsBench } from './facts-bench.js'
import { formatReport } from './report.js'
import { clientServe, formatClientReport, runClientBench } from './client-run.js'
import { formatWorkingReport, runWorkingBench } from './working-bench.js'
import { formatPoolOpenReport, runPoolOpenBench } from './pool-open-bench.js'
import { runSyncBench } from './sync-bench.js'
import { formatSyncReport } from './sync-report.js'
import { formatFreeTextReport, runFreeTextBench } from './free-text-bench.js'
import { formatClusterReport, formatPerNodeReport, runClusterBench, runPerNodeComparison } from './cluster-bench.js'
import { formatCapacityReport, runCapacityBench } from './capacity-bench.js'
import { formatHeapReport, runHeapBench } from './heap-bench.js'
import { formatSlotReport, runSlotBench } from './slot-bench.js'
import { formatRelayReport } from './relay-bench.js'
import { relaySmoke } from './relay-smoke.js'

/**
 * `npm run bench`: the fact-store benchmark in Node (fake-indexeddb) and in headless Chromium (real
 * IndexedDB), each figure beside a raw-Dexie baseline measured in the same run. How to read the
 * output: docs/benchmarks.md.
 *
 * `npm run bench -- --smoke`: only the relay bench hook, small and checked (bench/relay-smoke.ts); exits 1
 * when a check fails. CI runs it after `npm test`.
 *
 * `npm run bench -- --million` (or MEMWEAVE_BENCH_MILLION=1): only the million-fact run in Chromium
 * (bench/million-bench.ts, issue 31), out of the default run: it takes several minutes.
 *
 * Environment:
 *   MEMWEAVE_BENCH_NODE_SIZES=1000,10000,100000   sizes for Node
 *   MEMWEAVE_BENCH_CHROMIUM_SIZES=1000,10000,100000
 *   MEMWEAVE_BENCH_ONLY=node | chromium | sync | freetext | cluster | heap | poolopen | slots | capacity
 *                                                  run one runtime (node includes sync, freetext, cluster, heap, poolopen and slots), or only one bench;
 *                                                  capacity (the capacity model's inputs) runs only when named
 *   MEMWEAVE_BENCH_HEAP=100000,20000               heap bench: facts, pool memories (one number: no pool)
 *   MEMWEAVE_BENCH_FREETEXT_SIZES=10000,100000     sizes of the free-text conflicts on/off write bench
 *   MEMWEAVE_BENCH_CLUSTER=2000,200,20,100         cluster bench: clients, pools, updates per writer, ms between updates
 *   MEMWEAVE_BENCH_PERNODE_ROUNDS=3                cluster bench: rounds of the per-node comparison (issue 33); MEMWEAVE_BENCH_ONLY=pernode runs it alone
 *   MEMWEAVE_BENCH_CAPACITY=200,20,100             capacity bench: pools, updates per writer, ms between updates
 *   MEMWEAVE_BENCH_SYNC_SIZES=10000,100000         pool sizes of the sync bench's initial sync
 *   MEMWEAVE_BENCH_RELAY_PORT=4160                 sync bench and its profiles: the relay on this port, the plain-Yjs server on the next (default: free ports)
 *   MEMWEAVE_BENCH_POOLOPEN_SIZES=10000,100000     pool sizes of the reopen bench
 *   MEMWEAVE_BENCH_SLOTS=20000,100                 slot bench: a member's memories in one slot, honest writes measured
 *   MEMWEAVE_BENCH_SYNC_WRITES=100                 measured writes of the sync latency bench
 *   MEMWEAVE_BENCH_WRITE_BUDGET_S=150              per size: stop memweave's write after this long
 *   MEMWEAVE_BENCH_NAIVE_BUDGET_S=30               per size: stop the naive baseline's queries after this long
 *   MEMWEAVE_BENCH_CLIENT_SIZES=10000,100000       sizes of the openMemory client bench (bench/client-run.ts)
 *   MEMWEAVE_BENCH_CLIENT_SERVE=built              its page and worker built and served as files (default), or `dev`: Vite's dev server
 *   MEMWEAVE_BENCH_MILLION=1                       the million-fact run alone (a count above 1: that many facts)
 *   MEMWEAVE_BENCH_MILLION_OPENS=3                 cold opens of the million-fact run (the median is reported)
 *   MEMWEAVE_BENCH_MILLION_TIMEOUT_MIN=180         the million-fact run gives up after this many minutes
 *   MEMWEAVE_BENCH_MILLION_KEEP=/path/dir          the million-fact run in the Chromium profile dir/profile (created if missing), kept with
 *                                                  both databases (memweave's and the raw baseline's) and dir/million-store.json
 *                                                  (count, names, port, write figures, commit, date); refuses a dir that already holds one
 *   MEMWEAVE_BENCH_MILLION_REUSE=/path/dir         no writes: the cold opens, first retrieve, retrieve p50/p95 and heap on a kept store;
 *                                                  the write row is the kept run's. Refuses a missing manifest or another count;
 *                                                  serves on the kept port (IndexedDB's origin); never deletes the store
 *   MEMWEAVE_BENCH_VITE_CACHE=/tmp/vite-mine       the Chromium runs' Vite dependency cache (default node_modules/.vite)
 *   MEMWEAVE_CHROMIUM=/path/to/chrome              which browser (scripts/browser.ts)
 */

/**
 * The whole run should stay under ten minutes on 2 cores. memweave's write is the part that can run
 * away (before 230150e it slowed down as the store grew: 100k never finished), so it gets a budget
 * per size; so does the naive baseline, whose every query reads the whole table.
 */
const WRITE_BUDGET_S = 150
const NAIVE_BUDGET_S = 30

/** The kept run's commit; `-dirty` when the tree had changes, so the figure is not pinned on a commit that lacks them. */
function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== ''
    return dirty ? `${head}-dirty` : head
  } catch {
    return 'unknown'
  }
}

const sizesFrom = (name: string, fallback: readonly number[]): number[] => {
  const raw = process.env[name]
  if (!raw) return [...fallback]
  const sizes = raw.split(',').map((s) => Number(s.trim()))
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`${name} must be a comma-separated list of positive integers`)
  return sizes
}

const seconds = (name: string, fallback: number): number => {
  const raw = process.env[name]
  const n = raw ? Number(raw) : fallback
  if (!(n > 0)) throw new Error(`${name} must be a positive number of seconds`)
  return n * 1000
}

const log = (line: string): void => console.error(`${new Date().toISOString().slice(11, 19)} ${line}`)

async function main(): Promise<void> {
  if (process.argv.includes('--smoke')) {
    // Exits itself: the bench's clients leave handles open that the unit tests' worker used to end.
    try {
      console.log(formatRelayReport(await relaySmoke()))
      console.log('relay bench smoke: ok')
      process.exit(0)
    } catch (err) {
      console.error(err)
      process.exit(1)
    }
  }
  const million = process.env['MEMWEAVE_BENCH_MILLION']
  if (process.argv.includes('--million') || (million !== undefined && million !== '' && million !== '0')) {
    const count = million === undefined || million === '1' || million === '' ? 1_000_000 : sizesFrom('MEMWEAVE_BENCH_MILLION', [])[0]!
    const openReps = sizesFrom('MEMWEAVE_BENCH_MILLION_OPENS', [3])[0]!
    console.log(`memweave million-fact benchmark, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, load average at start: ${loadavg()[0]!.toFixed(2)}`)
    // A quiet run here takes about 30 minutes; one at load 30 ran out of its first hour before the retrieve.
    const timeoutMs = sizesFrom('MEMWEAVE_BENCH_MILLION_TIMEOUT_MIN', [180])[0]! * 60_000
    const keepDir = process.env['MEMWEAVE_BENCH_MILLION_KEEP'] || undefined
    const reuseDir = process.env['MEMWEAVE_BENCH_MILLION_REUSE'] || undefined
    if (keepDir && reuseDir) throw new Error('MEMWEAVE_BENCH_MILLION_KEEP and MEMWEAVE_BENCH_MILLION_REUSE: set one, not both')
    if (!keepDir && !reuseDir) {
      const { version, value } = await runMillionInChromium({ count, openReps, log, timeoutMs })
      console.log(`== Chromium ${version}, real IndexedDB: a Memory of ${count.toLocaleString('en')} facts through createMemory ==`)
      console.log(formatMillionReport(value))
      console.log(`Load average at end: ${loadavg()[0]!.toFixed(2)}.`)
      return
    }
    const stored = reuseDir ? await readMillionStore(reuseDir, count) : undefined
    const askedPort = process.env['MEMWEAVE_BENCH_PORT'] ? Number(process.env['MEMWEAVE_BENCH_PORT']) : undefined
    if (stored && askedPort !== undefined && askedPort !== stored.port) {
      throw new Error(`the kept store at ${reuseDir} was written from port ${stored.port} (IndexedDB's origin includes the port): unset MEMWEAVE_BENCH_PORT or set it to ${stored.port}`)
    }
    if (keepDir) await prepareKeepDir(keepDir)
    const dir = (keepDir ?? reuseDir)!
    const tag = Date.now().toString(36)
    const names = stored ?? { rawName: `bench-million-raw-${tag}`, memweaveName: `bench-million-${tag}` }
    let servedPort = 0
    const { version, value } = await runMillionInChromium({
      count,
      openReps,
      log,
      timeoutMs,
      store: { mode: stored ? 'reuse' : 'keep', rawName: names.rawName, memweaveName: names.memweaveName, profileDir: profileDir(dir), port: stored?.port ?? askedPort },
      onServe: (base) => void (servedPort = Number(new URL(base).port)),
    })
    if (keepDir) {
      if (!value.write || !value.storage) throw new Error('the kept run returned no write figures')
      await writeMillionStore(keepDir, {
        version: MILLION_STORE_VERSION,
        count,
        ...names,
        port: servedPort,
        write: { memweaveMs: value.write.memweaveMs, baselineMs: value.write.baselineMs, tailPerSec: value.write.tailPerSec },
        storage: value.storage,
        commit: gitCommit(),
        date: new Date().toISOString(),
      })
    }
    console.log(`== Chromium ${version}, real IndexedDB: a Memory of ${count.toLocaleString('en')} facts through createMemory ==`)
    console.log(stored ? `Reused the store kept at ${reuseDir} (port ${stored.port}): nothing written or deleted.` : `Kept the store at ${keepDir} (port ${servedPort}, ${manifestPath(keepDir!)}).`)
    console.log(formatMillionReport(value, stored))
    console.log(`Load average at end: ${loadavg()[0]!.toFixed(2)}.`)
    return
  }
  const only = process.env['MEMWEAVE_BENCH_ONLY']
  // 100k in Node (fake-indexeddb) took 99 s on the bench machine, inside the 3 minutes a size may take;
  // the write budget still bounds it if a regression makes it slower.
  const nodeSizes = sizesFrom('MEMWEAVE_BENCH_NODE_SIZES', [1000, 10_000, 100_000])
  const chromiumSizes = sizesFrom('MEMWEAVE_BENCH_CHROMIUM_SIZES', [1000, 10_000, 100_000])
  const writeBudgetMs = seconds('MEMWEAVE_BENCH_WRITE_BUDGET_S', WRITE_BUDGET_S)
  const naiveBudgetMs = seconds('MEMWEAVE_BENCH_NAIVE_BUDGET_S', NAIVE_BUDGET_S)
  const syncSizes = sizesFrom('MEMWEAVE_BENCH_SYNC_SIZES', [10_000, 100_000])
  const syncWrites = sizesFrom('MEMWEAVE_BENCH_SYNC_WRITES', [100])[0]!
  const want = (part: 'node' | 'chromium' | 'sync' | 'freetext' | 'cluster' | 'heap' | 'poolopen' | 'slots'): boolean =>
    only === undefined || only === part ||
    (only === 'node' && (part === 'sync' || part === 'freetext' || part === 'cluster' || part === 'heap' || part === 'poolopen' || part === 'slots'))
  const started = performance.now()
  console.log(`memweave fact benchmark, ${new Date().toISOString().slice(0, 10)}, ${availableParallelism()} cores, Node ${process.versions.node}`)
  // Other work on the machine skews every figure; the same-run baseline skews with it, the ratio less.
  console.log(`Load average at start: ${loadavg()[0]!.toFixed(2)} (1 min).`)
  console.log('ratio = memweave time / baseline time: above 1x memweave is slower, below 1x faster.\n')

  if (want('node')) {
    const rows = await runFactsBench({
      runtime: 'node',
      sizes: nodeSizes,
      // A fresh factory per size: nothing carries over between sizes.
      freshIdb: () => ({ indexedDB: new IDBFactory(), IDBKeyRange }),
      writeBudgetMs,
      naiveBudgetMs,
      log,
    })
    console.log(`== Node ${process.versions.node}, fake-indexeddb (in-memory, pure JS) ==`)
    console.log(formatReport(rows))
  }

  if (want('chromium')) {
    const run = await runInChromium({ sizes: chromiumSizes, writeBudgetMs, naiveBudgetMs, log, timeoutMs: 20 * 60_000 })
    console.log(`== Chromium ${run.version}, real IndexedDB (headless, on disk) ==`)
    console.log(formatReport(run.rows))
    // The browser runtime (issue 3): the same operations through openMemory's worker client.
    const serve = clientServe()
    const client = await runClientBench({ sizes: sizesFrom('MEMWEAVE_BENCH_CLIENT_SIZES', [10_000, 100_000]), log, timeoutMs: 20 * 60_000, serve })
    console.log(`== Chromium ${client.version}, public client through the worker (openMemory), page ${serve} ==`)
    console.log(formatClientReport(client.rows))
  }

  if (want('node')) {
    // Shared working memory (FR-001): add-observation at a full pool with conflict checks on, and decay cycles.
    const working = await runWorkingBench({ runtime: 'node', freshIdb: () => ({ indexedDB: new IDBFactory(), IDBKeyRange }), log })
    console.log(`== Node ${process.versions.node}, working memory (FR-001) ==`)
    console.log(formatWorkingReport(working))
  }

  if (want('freetext')) {
    // Free-text conflict detection (issue 16): fact writes with it on against off, same rows, same run.
    const rows = await runFreeTextBench(sizesFrom('MEMWEAVE_BENCH_FREETEXT_SIZES', [10_000, 100_000]), log)
    console.log(`== Node ${process.versions.node}, fact writes with free-text conflicts on vs off, fake-indexeddb ==`)
    console.log(formatFreeTextReport(rows))
  }

  if (want('heap')) {
    // The JS heap a 100k-fact store and a big pool hold (issue 15). The pool defaults to 20k while
    // pools.write still slows with the pool's size (100k took over 10 minutes to write).
    const [factCount, poolCount] = sizesFrom('MEMWEAVE_BENCH_HEAP', [100_000, 20_000])
    const rows = await runHeapBench({ factCount: factCount!, poolCount: poolCount ?? 0, log })
    console.log(formatHeapReport(rows))
  }

  if (want('poolopen')) {
    // Reopening a Memory that holds a big pool (issue 15), beside reading its rows raw.
    const rows = await runPoolOpenBench(sizesFrom('MEMWEAVE_BENCH_POOLOPEN_SIZES', [10_000, 100_000]), log)
    console.log(`== Node ${process.versions.node}, reopening a Memory that holds one pool, fake-indexeddb ==`)
    console.log(formatPoolOpenReport(rows))
  }

  if (want('slots')) {
    // One member's memories in one slot against honest writes (issue 26), beside a pool of distinct subjects.
    const [size, writes] = sizesFrom('MEMWEAVE_BENCH_SLOTS', [20_000, 100])
    const rows = await runSlotBench({ size: size!, writes: writes ?? 100, log })
    console.log(`== Node ${process.versions.node}, honest writes beside a member's memories in one slot, in-memory storage ==`)
    console.log(formatSlotReport(rows))
  }

  if (want('sync')) {
    // Pools between two devices through the relay (issue 8), beside plain Yjs doing the same transfer.
    const sync = await runSyncBench({ writes: syncWrites, sizes: syncSizes, log })
    console.log(`== Node ${process.versions.node}, sync: two devices through the memweave relay on loopback, in-memory storage ==`)
    console.log(formatSyncReport(sync))
  }
  if (want('cluster')) {
    // Relay nodes sharing pools through Redis (issue 18), beside the single-process relay.
    const [clients, pools, updates, intervalMs] = sizesFrom('MEMWEAVE_BENCH_CLUSTER', [2000, 200, 20, 100])
    const options = { clients: clients!, pools: pools!, updates: updates!, intervalMs: intervalMs!, payloadBytes: 200, log }
    const rows = await runClusterBench(options)
    console.log(`== Node ${process.versions.node}, cluster: relay nodes sharing pools through Redis, on loopback ==`)
    console.log(formatClusterReport(rows, options))
  }
  if (want('cluster') || only === 'pernode') {
    // Issue 33: the 3 affine nodes' work per node against 1 node at the same per-node rate, in rounds.
    const [clients, pools, updates, intervalMs] = sizesFrom('MEMWEAVE_BENCH_CLUSTER', [2000, 200, 20, 100])
    const options = { clients: clients!, pools: pools!, updates: updates!, intervalMs: intervalMs!, payloadBytes: 200, log }
    const rounds = sizesFrom('MEMWEAVE_BENCH_PERNODE_ROUNDS', [3])[0]!
    console.log(`== Node ${process.versions.node}, cluster per node: 3 affine nodes against 1 node at the same rate per node ==`)
    console.log(formatPerNodeReport(await runPerNodeComparison(options, rounds), options))
  }
  if (only === 'capacity') {
    // The capacity model's inputs (issue 33): scripts/capacity-model.ts reads what this prints.
    const [pools, updates, intervalMs] = sizesFrom('MEMWEAVE_BENCH_CAPACITY', [200, 20, 100])
    const options = { pools: pools!, updates: updates!, intervalMs: intervalMs!, payloadBytes: 200, log }
    console.log(`== Node ${process.versions.node}, capacity: one relay node and Redis, per pool and per client ==`)
    console.log(formatCapacityReport(await runCapacityBench(options), options))
  }
  console.log(`Total ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end: ${loadavg()[0]!.toFixed(2)}.`)
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
