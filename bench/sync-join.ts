import { runSyncBench } from './sync-bench.js'

/**
 * The sync bench's join alone (issue 31): a new device joining pools of the given sizes until
 * `mem.pools` has them, beside plain Yjs holding the same records as objects and as strings, in the
 * same run; no latency rows, no writes or forgets into the big pools (the full bench has those).
 * `MEMWEAVE_BENCH_RELAY_PORT=4160 npx tsx bench/sync-join.ts 10000,20000`.
 */
const sizes = (process.argv[2] ?? '10000,20000').split(',').map(Number)
const result = await runSyncBench({ writes: 4, warmup: 1, sizes, poolWrites: 0, poolForgets: 0, log: (line) => console.log(line) })
for (const r of result.initial) {
  const ratio = (x: number | null, base: number): string => (x === null ? 'n/a' : (x / base).toFixed(2))
  console.log(`join ${r.size}: memweave ${r.memweaveMs === null ? 'out of time' : Math.round(r.memweaveMs)} ms, plain objects ${Math.round(r.baselineMs)} ms, plain strings ${Math.round(r.stringBaselineMs)} ms; ` +
    `÷ strings ${ratio(r.memweaveMs, r.stringBaselineMs)}, ÷ objects ${ratio(r.memweaveMs, r.baselineMs)}; fact view ${r.factViewMs === null ? 'n/a' : Math.round(r.factViewMs)} ms`)
}
process.exit(0)
