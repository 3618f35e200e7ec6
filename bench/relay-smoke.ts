import { formatRelayReport, runRelayBench, type RelayBenchRow } from './relay-bench.js'

/**
 * `npm run bench -- --smoke`: the relay bench hook run small (20 updates per target), checked the way
 * a unit test checked it inside `npm test` until issue 30: every target reports, every row counts
 * its 20 updates, p99 is not below p50, the baseline's ratio is 1 and the report has its row.
 * A benchmark in `npm test` cost the unit tests' time and made their run depend on loopback timing;
 * here it is out of that run and still held (.ci/run runs it after `npm test`).
 */
export async function relaySmoke(): Promise<RelayBenchRow[]> {
  const rows = await runRelayBench({ updates: 20, warmup: 2 })
  const targets = rows.map((r) => r.target)
  const expected = ['plain @y/websocket-server', 'memweave relay, in memory', 'memweave relay, --dir (fsync log)']
  const fail = (why: string): never => {
    throw new Error(`relay bench smoke: ${why}`)
  }
  if (JSON.stringify(targets) !== JSON.stringify(expected)) fail(`targets ${JSON.stringify(targets)}, expected ${JSON.stringify(expected)}`)
  for (const r of rows) {
    if (r.updates !== 20) fail(`${r.target}: ${r.updates} updates, expected 20`)
    if (!(r.p50Ms > 0)) fail(`${r.target}: p50 ${r.p50Ms} ms, expected > 0`)
    if (!(r.p99Ms >= r.p50Ms)) fail(`${r.target}: p99 ${r.p99Ms} ms below p50 ${r.p50Ms} ms`)
  }
  if (rows[0]!.ratioP50 !== 1) fail(`the baseline's ratio is ${rows[0]!.ratioP50}, expected 1`)
  if (!/\| memweave relay, in memory +\| 20 +\|/.test(formatRelayReport(rows))) fail('the report has no row for the in-memory relay with 20 updates')
  return rows
}
