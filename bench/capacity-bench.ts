import { readFile } from 'node:fs/promises'
import { Redis } from 'ioredis'
import * as Y from 'yjs'
import { createIdentity } from '../src/core/identity.js'
import { derivePoolId } from '../src/pools/records.js'
import { updateFrame } from '../src/relay/frames.js'
import { createPoolToken } from '../src/sync/pool-token.js'
import { RedisServer } from '../test/helpers/redis-server.js'
import { awaitDeliveries, BenchNode, deliveredCount, driveWriters, openClient, type BenchClient } from './cluster-bench.js'

/**
 * The capacity model's inputs, measured (issue 33; `MEMWEAVE_BENCH_ONLY=capacity npm run bench`).
 * One cluster node (bench/cluster-node.ts, a child process) on one redis-server (AOF always), as
 * pool-affine routing runs every node: a pool's clients all on it. Two shapes of the same pools and
 * updates, 2 and 10 clients per pool (one writer, the rest readers), each on a fresh node and Redis:
 *
 * - node CPU (its process's user + system time) over the update phase, per update sent. With k
 *   clients a pool's update costs a + (k - 1)·b (a: read, check, apply, XADD; b: one delivery);
 *   the two shapes give a and b.
 * - node memory (heap after a full GC, and RSS) with every pool loaded and its clients connected,
 *   documents still empty: per pool = pool + k·connection, so the two shapes give both; and the
 *   heap the documents added over the update phase, per byte of update sent.
 * - Redis memory (`INFO memory` used_memory) per pool after the connections (owner pins, the pins
 *   stream) and per stream entry after the updates; Redis commands (`INFO commandstats` calls,
 *   every command) per update and per connection; Redis CPU per update (/proc/<pid>/stat).
 *
 * Figures are per process CPU time, so other work on the machine skews them less than wall times;
 * they are still one machine's (2 shared cores), and scripts/capacity-model.ts takes them as inputs.
 */

export interface CapacityBenchOptions {
  readonly pools: number
  readonly updates: number
  readonly intervalMs: number
  readonly payloadBytes: number
  readonly log: (line: string) => void
}

/** One shape's raw figures. */
export interface CapacityShape {
  readonly clientsPerPool: number
  readonly pools: number
  readonly updatesSent: number
  readonly deliveries: number
  readonly nodeCpuUs: number
  readonly redisCpuUs: number
  readonly redisCallsUpdates: number
  readonly redisCallsConnect: number
  /** Node heap and RSS with pools loaded and clients connected, minus before any client. */
  readonly nodeHeapConnected: number
  readonly nodeRssConnected: number
  /** Node heap the updates added (documents), bytes. */
  readonly nodeHeapDocuments: number
  readonly redisBytesConnected: number
  readonly redisBytesUpdates: number
  readonly updateBytes: number
}

/** The model's inputs, derived from the two shapes. */
export interface CapacityFigures {
  readonly nodeCpuPerUpdateUs: number
  readonly nodeCpuPerDeliveryUs: number
  readonly nodeBytesPerPool: number
  readonly nodeBytesPerConnection: number
  readonly nodeRssPerPool: number
  readonly nodeRssPerConnection: number
  readonly nodeHeapPerUpdateByte: number
  readonly redisBytesPerPool: number
  readonly redisBytesPerEntry: number
  readonly redisOpsPerUpdate: number
  readonly redisOpsPerConnection: number
  readonly redisCpuPerUpdateUs: number
  readonly updateBytes: number
}

async function redisInfo(redis: Redis): Promise<{ used: number; calls: number; cpuUs: number }> {
  const memory = await redis.info('memory')
  const stats = await redis.info('commandstats')
  const server = await redis.info('server')
  const used = Number(/^used_memory:(\d+)/m.exec(memory)![1])
  let calls = 0
  for (const m of stats.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) calls += Number(m[1])
  const pid = Number(/^process_id:(\d+)/m.exec(server)![1])
  // /proc/<pid>/stat: utime and stime are fields 14 and 15, in clock ticks (100 a second on Linux).
  const stat = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')
  const ticks = Number(stat[11]) + Number(stat[12])
  return { used, calls, cpuUs: ticks * 10_000 }
}

async function runShape(clientsPerPool: number, seed: number, options: CapacityBenchOptions): Promise<CapacityShape> {
  const { pools, updates, intervalMs, payloadBytes, log } = options
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(seed) })
  const server = await RedisServer.start()
  const node = await BenchNode.start(server.url, 'n1')
  const redis = new Redis(server.url)
  const clients: BenchClient[][] = []
  try {
    const heap0 = await node.memory()
    const r0 = await redisInfo(redis)
    const poolIds = Array.from({ length: pools }, (_x, i) => derivePoolId(owner.did, (seed * 1_000_000 + i).toString(16).padStart(32, '0'), null))
    const tokens = await Promise.all(poolIds.map((pool) => createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt: Date.now() + 3_600_000 })))
    for (const [p, pool] of poolIds.entries()) {
      clients.push(Array.from({ length: clientsPerPool }, () => openClient(node.url, pool, tokens[p]!)))
      if (p % 20 === 19) await Promise.all(clients.flat().map((c) => c.ready))
    }
    await Promise.all(clients.flat().map((c) => c.ready))
    log(`capacity, ${clientsPerPool} clients per pool: ${pools * clientsPerPool} clients on ${pools} pools connected`)
    const heap1 = await node.memory()
    const r1 = await redisInfo(redis)
    const cpu1 = await node.cpuMicros()
    const payload = 'x'.repeat(payloadBytes)
    let updateBytes = 0
    const docs = poolIds.map(() => new Y.Doc())
    await driveWriters(docs, (p, u) => {
      updateBytes += u.length
      clients[p]![0]!.ws.send(updateFrame(u))
    }, updates, intervalMs, payload)
    const deliveries = pools * (clientsPerPool - 1) * updates
    await awaitDeliveries(clients, deliveries)
    // Every update appended: the stream holds pools × updates entries (plus a pin entry per pool).
    const cpu2 = await node.cpuMicros()
    const r2 = await redisInfo(redis)
    const heap2 = await node.memory()
    for (const d of docs) d.destroy()
    if (deliveredCount(clients) < deliveries) throw new Error(`capacity bench: ${deliveredCount(clients)} of ${deliveries} deliveries`)
    return {
      clientsPerPool, pools, updatesSent: pools * updates, deliveries,
      nodeCpuUs: cpu2 - cpu1, redisCpuUs: r2.cpuUs - r1.cpuUs, redisCallsUpdates: r2.calls - r1.calls, redisCallsConnect: r1.calls - r0.calls,
      nodeHeapConnected: heap1.heapUsed - heap0.heapUsed, nodeRssConnected: heap1.rss - heap0.rss, nodeHeapDocuments: heap2.heapUsed - heap1.heapUsed,
      redisBytesConnected: r1.used - r0.used, redisBytesUpdates: r2.used - r1.used, updateBytes: updateBytes / (pools * updates),
    }
  } finally {
    for (const c of clients.flat()) c.ws.terminate()
    redis.disconnect()
    await node.stop()
    await server.stop()
  }
}

/** The model's inputs from two shapes of k1 < k2 clients per pool (same pools and updates). */
export function deriveFigures(s1: CapacityShape, s2: CapacityShape): CapacityFigures {
  const dk = s2.clientsPerPool - s1.clientsPerPool
  // Per update with k clients: a + (k - 1)·b.
  const c1 = s1.nodeCpuUs / s1.updatesSent
  const c2 = s2.nodeCpuUs / s2.updatesSent
  const b = (c2 - c1) / dk
  const a = c1 - (s1.clientsPerPool - 1) * b
  // Per pool with k clients: pool + k·connection.
  const m1 = s1.nodeHeapConnected / s1.pools
  const m2 = s2.nodeHeapConnected / s2.pools
  const conn = (m2 - m1) / dk
  const r1 = s1.nodeRssConnected / s1.pools
  const r2 = s2.nodeRssConnected / s2.pools
  const rssConn = (r2 - r1) / dk
  const both = [s1, s2]
  const mean = (f: (s: CapacityShape) => number): number => both.reduce((t, s) => t + f(s), 0) / both.length
  return {
    nodeCpuPerUpdateUs: a,
    nodeCpuPerDeliveryUs: b,
    nodeBytesPerPool: m1 - s1.clientsPerPool * conn,
    nodeBytesPerConnection: conn,
    nodeRssPerPool: r1 - s1.clientsPerPool * rssConn,
    nodeRssPerConnection: rssConn,
    nodeHeapPerUpdateByte: mean((s) => s.nodeHeapDocuments / (s.updatesSent * s.updateBytes)),
    redisBytesPerPool: mean((s) => s.redisBytesConnected / s.pools),
    redisBytesPerEntry: mean((s) => s.redisBytesUpdates / s.updatesSent),
    redisOpsPerUpdate: mean((s) => s.redisCallsUpdates / s.updatesSent),
    redisOpsPerConnection: mean((s) => s.redisCallsConnect / (s.pools * s.clientsPerPool)),
    redisCpuPerUpdateUs: mean((s) => s.redisCpuUs / s.updatesSent),
    updateBytes: mean((s) => s.updateBytes),
  }
}

export async function runCapacityBench(options: CapacityBenchOptions): Promise<{ shapes: CapacityShape[]; figures: CapacityFigures }> {
  const shapes = [await runShape(2, 21, options), await runShape(10, 22, options)]
  return { shapes, figures: deriveFigures(shapes[0]!, shapes[1]!) }
}

export function formatCapacityReport(result: { shapes: readonly CapacityShape[]; figures: CapacityFigures }, options: CapacityBenchOptions): string {
  const f = result.figures
  const kib = (n: number): string => `${(n / 1024).toFixed(1)} KiB`
  const rows = result.shapes.map((s) =>
    `| ${s.clientsPerPool} | ${s.pools} | ${s.updatesSent} | ${s.deliveries} | ${(s.nodeCpuUs / s.updatesSent).toFixed(0)} µs | ${kib(s.nodeHeapConnected / s.pools)} | ${kib(s.nodeRssConnected / s.pools)} | ${(s.redisCallsUpdates / s.updatesSent).toFixed(2)} | ${(s.redisCpuUs / s.updatesSent).toFixed(0)} µs |`)
  return [
    `${options.pools} pools, ${options.updates} updates of a ${options.payloadBytes}-byte value per writer (about ${f.updateBytes.toFixed(0)} bytes each as a Yjs update) every ${options.intervalMs} ms; 1 node + Redis (AOF always), all of a pool's clients on the node.`,
    '| clients per pool | pools | updates | deliveries | node CPU per update | node heap per pool (connected) | node RSS per pool | Redis commands per update | Redis CPU per update |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Capacity model inputs (scripts/capacity-model.ts; fitted from the two shapes above):',
    `  nodeCpuPerUpdateUs     ${f.nodeCpuPerUpdateUs.toFixed(1)}   node CPU per update received (check, apply, XADD)`,
    `  nodeCpuPerDeliveryUs   ${f.nodeCpuPerDeliveryUs.toFixed(1)}   node CPU per update delivered to one more client`,
    `  nodeBytesPerPool       ${f.nodeBytesPerPool.toFixed(0)}   node heap per loaded pool, empty document (RSS: ${f.nodeRssPerPool.toFixed(0)})`,
    `  nodeBytesPerConnection ${f.nodeBytesPerConnection.toFixed(0)}   node heap per connected client (RSS: ${f.nodeRssPerConnection.toFixed(0)})`,
    `  nodeHeapPerUpdateByte  ${f.nodeHeapPerUpdateByte.toFixed(2)}   node heap per byte of update a loaded document holds`,
    `  redisBytesPerPool      ${f.redisBytesPerPool.toFixed(0)}   Redis memory per pool before its first update (owner pin, pins stream)`,
    `  redisBytesPerEntry     ${f.redisBytesPerEntry.toFixed(0)}   Redis memory per stream entry of a ${f.updateBytes.toFixed(0)}-byte update`,
    `  redisOpsPerUpdate      ${f.redisOpsPerUpdate.toFixed(2)}   Redis commands per update (every command, XREADs included)`,
    `  redisOpsPerConnection  ${f.redisOpsPerConnection.toFixed(2)}   Redis commands per client connecting`,
    `  redisCpuPerUpdateUs    ${f.redisCpuPerUpdateUs.toFixed(1)}   Redis CPU per update`,
    '',
  ].join('\n')
}
