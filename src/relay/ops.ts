import type { IncomingMessage, ServerResponse } from 'node:http'
import { metricsText } from './metrics-text.js'

/** What a relay node reports to operators and load balancers. */
export interface OpsState {
  /** Serving: listening, not closing, and (in a cluster) connected to Redis. */
  readonly ready: boolean
  readonly closing: boolean
  /** The cluster node id, or null for a single-process relay. */
  readonly node: string | null
  /** Gauges and counters, named without the `memweave_relay_` prefix. */
  readonly metrics: Readonly<Record<string, number>>
}

/**
 * `GET /healthz` (200 `ok`, or 503 with why, so a load balancer stops sending clients to a node
 * that is closing or has lost Redis) and `GET /metrics` (Prometheus text format, src/relay/metrics-text.ts). Returns false for
 * any other request, which the relay answers as before (426, connect with a websocket).
 */
export function serveOps(req: IncomingMessage, res: ServerResponse, state: () => OpsState): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  const path = (req.url ?? '/').split('?')[0]
  if (path === '/healthz') {
    const s = state()
    const body = s.ready ? 'ok\n' : s.closing ? 'closing\n' : 'unavailable: no connection to Redis\n'
    res.writeHead(s.ready ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
    res.end(body)
    return true
  }
  if (path === '/metrics') {
    const s = state()
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' })
    res.end(metricsText({ up: s.ready ? 1 : 0, ...s.metrics }, s.node))
    return true
  }
  return false
}
