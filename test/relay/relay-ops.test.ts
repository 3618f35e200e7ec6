import { expect, test } from 'vitest'
import { connect, identity, poolOf, startRelay, token } from './relay-helpers.js'
import { parsePrometheusText } from './prometheus-text.js'
import { metricsText } from '../../src/relay/metrics-text.js'

/** /healthz and /metrics on the single-process relay (the cluster's are in relay-cluster.test.ts). */

test('the single-process relay answers /healthz and /metrics, and still 426 elsewhere', async () => {
  const { relay, url } = await startRelay()
  const http = url.replace('ws:', 'http:')
  const health = await fetch(`${http}/healthz`)
  expect([health.status, await health.text()]).toEqual([200, 'ok\n'])
  const owner = await identity('owner')
  const { pool } = poolOf(owner)
  const c = connect(url, pool, await token(owner, pool, owner, true))
  await c.synced()
  const metrics = await fetch(`${http}/metrics`)
  expect(metrics.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
  // Issue 29: every family has its # HELP and # TYPE lines, read by a strict parser of the format.
  const families = parsePrometheusText(await metrics.text())
  const value = (name: string) => families.find((f) => f.name === `memweave_relay_${name}`)!.samples[0]!.value
  expect([value('up'), value('connections'), value('pools_loaded')]).toEqual([1, 1, 1])
  expect(value('process_heap_used_bytes')).toBeGreaterThan(0)
  for (const f of families) {
    expect(f.help, f.name).toMatch(/\S/)
    expect(f.type, f.name).toBe('gauge')
    expect(f.samples.map((s) => s.labels), f.name).toEqual([{}])
  }
  expect((await fetch(`${http}/`)).status).toBe(426)
  await relay.close()
})

test("issue 29: a cluster node's /metrics is valid Prometheus text: every family typed and described, counters as counters, the node label on each sample", () => {
  // A cluster node's metric names (src/relay/redis/cluster-rooms.ts stats()), as src/relay/relay.ts assembles them.
  const stats = {
    up: 1, connections: 3, pools_loaded: 2, updates_in_per_second: 1.5, updates_out_per_second: 0, redis_up: 1, redis_outages_total: 0,
    updates_in_total: 12, updates_out_total: 7, stream_lag_ms: 4, compactions_total: 1, process_resident_memory_bytes: 1e8, process_heap_used_bytes: 5e7,
  }
  const families = parsePrometheusText(metricsText(stats, 'node-1'))
  expect(families.map((f) => f.name)).toEqual(Object.keys(stats).map((k) => `memweave_relay_${k}`))
  for (const f of families) {
    expect(f.help, f.name).toMatch(/\S/)
    expect(f.type, f.name).toBe(f.name.endsWith('_total') ? 'counter' : 'gauge')
    expect(f.samples, f.name).toEqual([{ name: f.name, labels: { node: 'node-1' }, value: stats[f.name.slice('memweave_relay_'.length) as keyof typeof stats] }])
  }
  // One not described yet is still served, as untyped, and the text stays valid.
  expect(parsePrometheusText(metricsText({ something_new: 2 }, null))).toEqual([{ name: 'memweave_relay_something_new', help: null, type: 'untyped', samples: [{ name: 'memweave_relay_something_new', labels: {}, value: 2 }] }])
})

test('the Prometheus text reader refuses what the format does not allow (so the test above can fail)', () => {
  expect(() => parsePrometheusText('# TYPE a gauge\na 1\n# TYPE a gauge\n')).toThrow(/second TYPE/)
  expect(() => parsePrometheusText('a 1\n# TYPE a gauge\n')).toThrow(/after its samples/)
  expect(() => parsePrometheusText('a{node=n1} 1\n')).toThrow(/not a sample/)
  expect(() => parsePrometheusText('a one\n')).toThrow(/not a float/)
  expect(() => parsePrometheusText('a 1')).toThrow(/newline/)
})
