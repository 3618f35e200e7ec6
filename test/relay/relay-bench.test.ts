import { expect, test } from 'vitest'
import { formatRelayReport, runRelayBench } from '../../bench/relay-bench.js'

test('the relay benchmark hook runs (smoke: 20 updates per target) and reports every target', async () => {
  const rows = await runRelayBench({ updates: 20, warmup: 2 })
  expect(rows.map((r) => r.target)).toEqual(['plain @y/websocket-server', 'memweave relay, in memory', 'memweave relay, --dir (fsync log)'])
  for (const r of rows) {
    expect(r.updates).toBe(20)
    expect(r.p50Ms).toBeGreaterThan(0)
    expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms)
  }
  expect(rows[0]!.ratioP50).toBe(1)
  expect(formatRelayReport(rows)).toMatch(/\| memweave relay, in memory +\| 20 +\|/)
})
