/**
 * The relay's `/metrics` in the Prometheus text exposition format (version 0.0.4): each family
 * with its `# HELP` and `# TYPE` lines, then its sample. Without them (issue 29, item 7) Prometheus
 * took every series as untyped, and `rate()` over a counter or a dashboard's unit had nothing to go
 * on. A metric added to OpsState without an entry here is still served, as `untyped`.
 */

type MetricType = 'gauge' | 'counter'

/** What each metric means, by its name without the `memweave_relay_` prefix. */
const METRICS: Readonly<Record<string, { readonly type: MetricType; readonly help: string }>> = {
  up: { type: 'gauge', help: '1 when this node serves: listening, not closing and, in a cluster, connected to Redis; else 0.' },
  connections: { type: 'gauge', help: 'Websocket connections open on this node.' },
  pools_loaded: { type: 'gauge', help: 'Pools loaded in memory on this node.' },
  updates_in_per_second: { type: 'gauge', help: 'Pool updates from this node\'s clients appended to Redis per second, over the last 10 seconds.' },
  updates_out_per_second: { type: 'gauge', help: 'Pool updates from other nodes applied here per second, over the last 10 seconds.' },
  redis_up: { type: 'gauge', help: '1 while this node is connected to Redis, else 0.' },
  redis_outages_total: { type: 'counter', help: 'Times this node lost its Redis connection since it started.' },
  updates_in_total: { type: 'counter', help: 'Pool updates from this node\'s clients appended to Redis since it started.' },
  updates_out_total: { type: 'counter', help: 'Pool updates from other nodes applied here since it started.' },
  stream_lag_ms: { type: 'gauge', help: 'Age in milliseconds of the last Redis stream entry this node read when it read it.' },
  compactions_total: { type: 'counter', help: 'Pool compactions this node wrote to Redis since it started.' },
  process_resident_memory_bytes: { type: 'gauge', help: 'Resident set size of the relay process, in bytes.' },
  process_heap_used_bytes: { type: 'gauge', help: 'V8 heap in use by the relay process, in bytes.' },
}

/** The whole `/metrics` body: `metrics` named without the prefix, each sample labelled with `node` when there is one. */
export function metricsText(metrics: Readonly<Record<string, number>>, node: string | null): string {
  // Node ids are [A-Za-z0-9._-] (createRelay checks), so the label value needs no escaping.
  const labels = node === null ? '' : `{node="${node}"}`
  const lines: string[] = []
  for (const [name, value] of Object.entries(metrics)) {
    const full = `memweave_relay_${name}`
    const meta = METRICS[name]
    if (meta) lines.push(`# HELP ${full} ${meta.help}`)
    lines.push(`# TYPE ${full} ${meta?.type ?? 'untyped'}`, `${full}${labels} ${Number.isFinite(value) ? value : 'NaN'}`)
  }
  return `${lines.join('\n')}\n`
}
