import { spawn, type ChildProcess } from 'node:child_process'
import { loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { Redis } from 'ioredis'
import { WebSocket } from 'ws'
import * as Y from 'yjs'
import { createIdentity, type Identity } from '../src/core/identity.js'
import { derivePoolId } from '../src/pools/records.js'
import { syncStep1Frame, updateFrame } from '../src/relay/frames.js'
import { createPoolToken } from '../src/sync/pool-token.js'
import { rendezvousOrder } from '../test/helpers/affine-proxy.js'
import { RedisServer } from '../test/helpers/redis-server.js'

/**
 * The relay as a cluster (issue 18): many clients over many pools, every pool with one writer and
 * the rest readers, clients spread round-robin over 1, 2 or 3 relay nodes sharing one redis-server
 * (what a balancer's `leastconn` does with equal connections: every pool on every node), then over
 * 3 nodes pool-affine (issue 33: every client of a pool on the pool's node, chosen by the rendezvous
 * hash test/helpers/affine-proxy.ts routes by, so no node applies another node's pools), beside the
 * single-process relay (in memory) in the same run. Every relay is a child process
 * (bench/cluster-node.ts); the clients are bare websockets in this process speaking y-websocket
 * (step 1, then counting update frames), so the bench process stays light.
 *
 * Per target: updates/s delivered (update frames received by readers / time from the first send
 * to the last receipt) and delivery latency p50/p99 (a writer's send until a reader has it; the
 * k-th update frame a reader gets is the k-th its pool's writer sent, one writer per pool). Then
 * memory per pool per node: heap after a full GC with every pool loaded and its clients connected
 * but idle, minus the heap before any client, divided by the pools loaded on that node. And the
 * work per node: node CPU time (user + system, every node summed) from the first send until every
 * update was delivered, as deliveries per node CPU-second (with every node on the same 2 shared
 * cores, this is the per-node throughput that does not depend on how many cores the bench had),
 * the same less the nodes' idle CPU (each node's fixed cost, measured over 2 s with every client
 * connected and nothing sent, times the phase's length), and the updates applied by all nodes (each node's `updates_in_total` + `updates_out_total`) per
 * update sent: 1 when each pool lives on one node, N when every pool is on all N.
 */

export interface ClusterBenchOptions {
  readonly clients: number
  readonly pools: number
  /** Updates each pool's writer sends. */
  readonly updates: number
  /** ms between two updates of one writer (writers are staggered over the interval). */
  readonly intervalMs: number
  readonly payloadBytes: number
  readonly log: (line: string) => void
}

/** How clients are spread: round-robin over the nodes (`leastconn`), or every pool's clients on its node. */
export type Routing = 'leastconn' | 'affine'

export interface ClusterBenchRow {
  readonly target: string
  readonly nodes: number
  readonly delivered: number
  readonly expected: number
  readonly perSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Heap bytes per loaded pool (with its idle clients), per node, mean over nodes. */
  readonly heapPerPool: number
  readonly routing: Routing
  /** Reader deliveries per second of node CPU time (all nodes summed) over the update phase. */
  readonly deliveriesPerCpuSecond: number
  /** The same, less what the nodes spent idle over as long (measured for 2 s before, clients connected). */
  readonly deliveriesPerBusyCpuSecond: number
  /** Updates applied by all nodes together per update sent (NaN for the single process). */
  readonly appliesPerUpdate: number
  /** Pools in the run. */
  readonly pools: number
  /** Updates/s offered to each node (mean over the nodes): pools × one update per interval / nodes. */
  readonly offeredPerNode: number
  /** Node CPU (all nodes summed) per delivered update, µs: a node's cost per delivery, whatever the node count. */
  readonly cpuUsPerDelivery: number
  /** Each node's CPU while idle (clients connected, nothing sent), ms per second, mean over the nodes. */
  readonly idleCpuMsPerSecond: number
  /** Commands Redis ran (`INFO commandstats`, every command) over the update phase per update sent; NaN without Redis. */
  readonly redisCommandsPerUpdate: number
  /** Context switches of every node over the update phase per update sent: voluntary (waits) and involuntary (preempted). */
  readonly switchesPerUpdate: { readonly voluntary: number; readonly involuntary: number }
  /** Load average (1 min) at the end of the run. */
  readonly load: number
}

const REPO = new URL('..', import.meta.url).pathname

export class BenchNode {
  readonly url: string
  readonly #child: ChildProcess
  readonly #lines: AsyncIterator<string>
  private constructor(child: ChildProcess, url: string, lines: AsyncIterator<string>) {
    this.#child = child
    this.url = url
    this.#lines = lines
  }
  /**
   * `MEMWEAVE_BENCH_NODE_ARGS` (space-separated) goes to each node's `node` command line before the
   * script: `--cpu-prof --cpu-prof-dir=DIR` writes a CPU profile per node when it stops.
   */
  static async start(redis: string | null, id: string): Promise<BenchNode> {
    const extra = (process.env['MEMWEAVE_BENCH_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '')
    const child = spawn(process.execPath, ['--expose-gc', ...extra, '--import', 'tsx', 'bench/cluster-node.ts', redis ?? '-', id], { cwd: REPO, stdio: ['pipe', 'pipe', 'inherit'] })
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
    const first = await lines.next()
    const m = /^listening (\S+)/.exec(String(first.value))
    if (!m) throw new Error(`bench node ${id} did not start: ${String(first.value)}`)
    return new BenchNode(child, m[1]!, lines)
  }
  async heapUsed(): Promise<number> {
    return (await this.memory()).heapUsed
  }
  /** `process.memoryUsage()` of the node after a full GC. */
  async memory(): Promise<{ heapUsed: number; rss: number }> {
    this.#child.stdin!.write('gc\n')
    for (;;) {
      const { value } = await this.#lines.next()
      const m = /^mem (.*)$/.exec(String(value))
      if (m) return JSON.parse(m[1]!) as { heapUsed: number; rss: number }
    }
  }
  /** CPU time (user + system) of the node process so far, µs. */
  async cpuMicros(): Promise<number> {
    this.#child.stdin!.write('cpu\n')
    for (;;) {
      const { value } = await this.#lines.next()
      const m = /^cpu (\d+)$/.exec(String(value))
      if (m) return Number(m[1])
    }
  }
  /** Context switches of the node process so far: voluntary (it waited) and involuntary (it was preempted). */
  async switches(): Promise<{ voluntary: number; involuntary: number }> {
    this.#child.stdin!.write('switches\n')
    for (;;) {
      const { value } = await this.#lines.next()
      const m = /^switches (\d+) (\d+)$/.exec(String(value))
      if (m) return { voluntary: Number(m[1]), involuntary: Number(m[2]) }
    }
  }
  /** Starts a CPU profile of the node (cluster-node.ts); resolves once it runs. */
  async profileStart(): Promise<void> {
    this.#child.stdin!.write('profile-start\n')
    await this.#answer('profiling')
  }
  /** Stops the profile and writes it (a `.cpuprofile` file, as `node --cpu-prof` writes). */
  async profileStop(file: string): Promise<void> {
    this.#child.stdin!.write(`profile-stop ${file}\n`)
    await this.#answer('profiled')
  }
  async #answer(line: string): Promise<void> {
    for (;;) {
      const { value, done } = await this.#lines.next()
      if (done) throw new Error(`bench node stopped before answering ${line}`)
      if (String(value) === line) return
    }
  }
  /** Updates this node applied: from its own clients plus from other nodes (its /metrics). */
  async applied(): Promise<number> {
    const text = await (await fetch(`${this.url.replace('ws://', 'http://')}/metrics`)).text()
    const read = (name: string): number => Number(new RegExp(`^memweave_relay_${name}(?:\\{[^}]*\\})? (\\d+)$`, 'm').exec(text)?.[1] ?? NaN)
    return read('updates_in_total') + read('updates_out_total')
  }
  async stop(): Promise<void> {
    const exited = new Promise((ok) => this.#child.once('exit', ok))
    this.#child.kill('SIGTERM')
    await exited
  }
}

export interface BenchClient {
  readonly ws: WebSocket
  /** Receipt times of update frames, in order. */
  readonly received: number[]
  readonly ready: Promise<void>
}

export function openClient(url: string, pool: string, token: string): BenchClient {
  const ws = new WebSocket(`${url}/${pool}?token=${encodeURIComponent(token)}`, { perMessageDeflate: false })
  const received: number[] = []
  const ready = new Promise<void>((ok, fail) => {
    ws.once('error', fail)
    ws.once('open', () => ws.send(syncStep1Frame(new Y.Doc())))
    ws.on('message', (data: Buffer) => {
      // [0 SYNC, 2 UPDATE, ...]: an update forwarded by the relay; anything else is the handshake.
      if (data[0] === 0 && data[1] === 2) received.push(performance.now())
      else ok()
    })
  })
  return { ws, received, ready }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** Commands the Redis servers have run so far (every command's `calls` in `INFO commandstats`), summed; NaN without any. */
async function redisCalls(servers: readonly Redis[]): Promise<number> {
  if (servers.length === 0) return NaN
  let calls = 0
  for (const redis of servers) for (const m of (await redis.info('commandstats')).matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) calls += Number(m[1])
  return calls
}

async function runTarget(name: string, nodes: BenchNode[], routing: Routing, owner: Identity, options: ClusterBenchOptions, redis: readonly Redis[] = []): Promise<ClusterBenchRow> {
  const { clients, pools, updates, intervalMs, payloadBytes, log } = options
  const perPool = Math.max(2, Math.floor(clients / pools))
  const before = await Promise.all(nodes.map((n) => n.heapUsed()))
  const poolIds = Array.from({ length: pools }, (_x, i) => derivePoolId(owner.did, i.toString(16).padStart(32, '0'), null))
  const expiresAt = Date.now() + 3_600_000
  const tokens = await Promise.all(poolIds.map((pool) => createPoolToken(owner, { pool, sub: owner.did, write: true, expiresAt })))
  // leastconn: client c of pool p goes to node (p * perPool + c) % nodes: every pool spans every node.
  // affine: every client of pool p goes to the first node of p's rendezvous order.
  const all: BenchClient[][] = []
  const names = nodes.map((_node, i) => `n${i + 1}`)
  const home = (pool: string): BenchNode => nodes[names.indexOf(rendezvousOrder(pool, names)[0]!)]!
  let n = 0
  for (const [p, pool] of poolIds.entries()) {
    all.push(Array.from({ length: perPool }, () => openClient((routing === 'affine' ? home(pool) : nodes[n++ % nodes.length]!).url, pool, tokens[p]!)))
    // Connect in batches, so the handshakes do not all land at once.
    if (p % 20 === 19) await Promise.all(all.flat().map((c) => c.ready))
  }
  await Promise.all(all.flat().map((c) => c.ready))
  log(`${name}: ${perPool * pools} clients on ${pools} pools connected`)
  const sent: number[][] = poolIds.map(() => [])
  const payload = 'x'.repeat(payloadBytes)
  const docs = poolIds.map(() => new Y.Doc())
  // Idle: every client connected, nothing sent, for 2 s: each node's fixed cost (timers, its blocking XREAD, GC).
  const idleFrom = await Promise.all(nodes.map((node) => node.cpuMicros()))
  const idleStart = performance.now()
  await new Promise((r) => setTimeout(r, 2000))
  const idleTo = await Promise.all(nodes.map((node) => node.cpuMicros()))
  const idlePerMs = idleTo.reduce((s, c, i) => s + (c - idleFrom[i]!), 0) / 1e6 / (performance.now() - idleStart)
  const callsBefore = await redisCalls(redis)
  const switchesBefore = await Promise.all(nodes.map((node) => node.switches()))
  const cpuBefore = await Promise.all(nodes.map((node) => node.cpuMicros()))
  const phaseStart = performance.now()
  const appliedBefore = await Promise.all(nodes.map((node) => node.applied()))
  await driveWriters(docs, (p, u) => {
    sent[p]!.push(performance.now())
    all[p]![0]!.ws.send(updateFrame(u))
  }, updates, intervalMs, payload)
  const expected = pools * (perPool - 1) * updates
  await awaitDeliveries(all, expected)
  const cpuAfter = await Promise.all(nodes.map((node) => node.cpuMicros()))
  const switchesAfter = await Promise.all(nodes.map((node) => node.switches()))
  const switched = (kind: 'voluntary' | 'involuntary'): number => switchesAfter.reduce((s, w, i) => s + w[kind] - switchesBefore[i]![kind], 0) / (pools * updates)
  // The INFO call itself is counted too: one command in the whole phase.
  const calls = (await redisCalls(redis)) - callsBefore
  const cpuSeconds = cpuAfter.reduce((s, c, i) => s + (c - cpuBefore[i]!), 0) / 1e6
  const busySeconds = cpuSeconds - idlePerMs * (performance.now() - phaseStart)
  const appliedAfter = await Promise.all(nodes.map((node) => node.applied()))
  const applied = appliedAfter.reduce((s, a, i) => s + (a - appliedBefore[i]!), 0)
  const latencies: number[] = []
  let first = Infinity
  let last = 0
  for (const [p, cs] of all.entries()) {
    first = Math.min(first, sent[p]![0] ?? Infinity)
    for (const c of cs.slice(1)) {
      c.received.forEach((t, k) => {
        if (sent[p]![k] !== undefined) latencies.push(t - sent[p]![k]!)
        last = Math.max(last, t)
      })
    }
  }
  latencies.sort((a, b) => a - b)
  const loaded = await Promise.all(nodes.map((node) => node.heapUsed()))
  // leastconn: every pool has clients on every node (perPool >= nodes); affine: the pools hashed to it.
  const poolsOn = nodes.map((node) => (routing === 'affine' ? poolIds.filter((pool) => home(pool) === node).length : pools))
  const heapPerPool = loaded.reduce((s, h, i) => s + (h - before[i]!) / Math.max(1, poolsOn[i]!), 0) / nodes.length
  for (const c of all.flat()) c.ws.terminate()
  for (const d of docs) d.destroy()
  const got = deliveredCount(all)
  return {
    target: name, nodes: nodes.length, delivered: got, expected, perSecond: got / ((last - first) / 1000), p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), heapPerPool,
    routing, deliveriesPerCpuSecond: got / cpuSeconds, deliveriesPerBusyCpuSecond: got / busySeconds, appliesPerUpdate: applied / (pools * updates),
    pools, offeredPerNode: (pools * 1000) / intervalMs / nodes.length, cpuUsPerDelivery: (cpuSeconds * 1e6) / got,
    idleCpuMsPerSecond: (idlePerMs * 1e6) / nodes.length, redisCommandsPerUpdate: calls / (pools * updates),
    switchesPerUpdate: { voluntary: switched('voluntary'), involuntary: switched('involuntary') }, load: loadavg()[0]!,
  }
}

export async function runClusterBench(options: ClusterBenchOptions): Promise<ClusterBenchRow[]> {
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(9) })
  const rows: ClusterBenchRow[] = []
  const single = [await BenchNode.start(null, 'single')]
  try {
    rows.push(await runTarget('single-process relay (in memory)', single, 'leastconn', owner, options))
  } finally {
    await Promise.all(single.map((n) => n.stop()))
  }
  const runs: ReadonlyArray<readonly [number, Routing]> = [[1, 'leastconn'], [2, 'leastconn'], [3, 'leastconn'], [3, 'affine']]
  for (const [count, routing] of runs) {
    const redis = await RedisServer.start()
    const nodes = await Promise.all(Array.from({ length: count }, (_x, i) => BenchNode.start(redis.url, `n${i + 1}`)))
    const counter = new Redis(redis.url)
    try {
      rows.push(await runTarget(`cluster, ${count} node${count > 1 ? 's' : ''} + Redis (AOF always)`, nodes, routing, owner, options, [counter]))
    } finally {
      counter.disconnect()
      await Promise.all(nodes.map((n) => n.stop()))
      await redis.stop()
    }
  }
  return rows
}

/** The targets of the per-node comparison (issue 33). */
export type PerNodeTarget = '1 node, a third of the pools' | '3 nodes, affine' | '1 node, a third of the pools, 2 busy loops beside it' | '3 lone nodes, each on its own Redis'

export interface PerNodeRow extends ClusterBenchRow {
  readonly round: number
  readonly perNodeTarget: PerNodeTarget
}

/**
 * The per-node figure of issue 33, compared fairly: each of the 3 affine nodes gets a third of the
 * pools, so one node is given the same per-node offered rate (a third of the pools, same clients per
 * pool, same interval), not the whole load: a node's CPU per update falls as its rate rises
 * (more updates per event-loop turn, per socket read, per blocking XREAD), and 1 node at 3 times a
 * node's rate made the affine nodes look 0.6-0.7 times as efficient. Then the same 1 node with two
 * busy loops (`for (;;) {}` processes) beside it: on 2 cores, 3 nodes compete with each other, Redis
 * and this process for CPU as 1 node + 2 busy loops does, so what that costs a node shows apart from
 * anything the 3 nodes do. And 3 lone nodes at once, each on a Redis of its own, clients placed as
 * the affine run places them: three 1-node clusters that share nothing, so whatever they cost per
 * delivery beyond the 1 node is three node processes (and Redis servers) sharing the cores, not
 * the cluster. `rounds` rounds, the targets' order rotating each round (the machine's load drifts);
 * every target on fresh Redis servers and fresh nodes.
 */
export async function runPerNodeComparison(options: ClusterBenchOptions, rounds: number): Promise<PerNodeRow[]> {
  const owner = await createIdentity({ seed: new Uint8Array(32).fill(9) })
  const targets: PerNodeTarget[] = ['1 node, a third of the pools', '3 nodes, affine', '1 node, a third of the pools, 2 busy loops beside it', '3 lone nodes, each on its own Redis']
  const rows: PerNodeRow[] = []
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < targets.length; k++) {
      const target = targets[(k + round) % targets.length]!
      const count = target.startsWith('3 ') ? 3 : 1
      const pools = count === 3 ? options.pools : Math.round(options.pools / 3)
      const busy = target.endsWith('busy loops beside it') ? [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })) : []
      const servers = await Promise.all(Array.from({ length: target === '3 lone nodes, each on its own Redis' ? 3 : 1 }, () => RedisServer.start()))
      const nodes = await Promise.all(Array.from({ length: count }, (_x, i) => BenchNode.start(servers[i % servers.length]!.url, `n${i + 1}`)))
      const counters = servers.map((server) => new Redis(server.url))
      try {
        const clients = Math.max(2, Math.floor(options.clients / options.pools)) * pools
        const row = await runTarget(`per node, round ${round + 1}: ${target}`, nodes, count === 3 ? 'affine' : 'leastconn', owner, { ...options, pools, clients }, counters)
        rows.push({ ...row, round: round + 1, perNodeTarget: target })
      } finally {
        for (const c of counters) c.disconnect()
        for (const b of busy) b.kill('SIGKILL')
        await Promise.all(nodes.map((n) => n.stop()))
        await Promise.all(servers.map((server) => server.stop()))
      }
    }
  }
  return rows
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export function formatPerNodeReport(rows: readonly PerNodeRow[], options: ClusterBenchOptions): string {
  const head = ['round', 'target', 'pools', 'offered per node', 'delivered', 'node CPU per delivery', 'deliveries per node CPU-s', 'idle node CPU', 'Redis commands per update', 'applies per update', 'context switches per update (waits / preempted)', 'load']
  const body = rows.map((r) => [
    String(r.round), r.perNodeTarget, String(r.pools), `${r.offeredPerNode.toFixed(0)} updates/s`, `${r.delivered}/${r.expected}`,
    `${r.cpuUsPerDelivery.toFixed(1)} µs`, r.deliveriesPerCpuSecond.toFixed(0), `${r.idleCpuMsPerSecond.toFixed(1)} ms/s`,
    r.redisCommandsPerUpdate.toFixed(2), r.appliesPerUpdate.toFixed(2), `${r.switchesPerUpdate.voluntary.toFixed(2)} / ${r.switchesPerUpdate.involuntary.toFixed(2)}`, r.load.toFixed(1),
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  const of = (target: PerNodeTarget): number => median(rows.filter((r) => r.perNodeTarget === target).map((r) => r.cpuUsPerDelivery))
  const one = of('1 node, a third of the pools')
  const three = of('3 nodes, affine')
  const busy = of('1 node, a third of the pools, 2 busy loops beside it')
  const lone = of('3 lone nodes, each on its own Redis')
  return [
    `Per node, same offered rate per node (issue 33): ${options.pools} pools on 3 nodes pool-affine against ${Math.round(options.pools / 3)} pools on 1 node, ${Math.max(2, Math.floor(options.clients / options.pools))} clients per pool, ${options.updates} updates of ${options.payloadBytes} bytes per writer every ${options.intervalMs} ms; node CPU per delivery = CPU of every node / updates the readers got.`,
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
    '',
    `Median node CPU per delivery: 1 node ${one.toFixed(1)} µs, 3 nodes affine ${three.toFixed(1)} µs, 1 node with 2 busy loops ${busy.toFixed(1)} µs, 3 lone nodes ${lone.toFixed(1)} µs. ` +
      `Per-node work (deliveries per node CPU-s), 3 nodes affine against: 1 node ${(one / three).toFixed(2)}x, 1 node beside 2 busy loops ${(busy / three).toFixed(2)}x, 3 lone nodes side by side (nothing shared) ${(lone / three).toFixed(2)}x.`,
    '',
  ].join('\n')
}

export function formatClusterReport(rows: readonly ClusterBenchRow[], options: ClusterBenchOptions): string {
  const head = ['relay', 'routing', 'delivered', 'updates/s delivered', 'p50', 'p99', 'deliveries per node CPU-s', 'same, idle CPU taken out', 'applies per update', 'heap per pool per node']
  const body = rows.map((r) => [
    r.target,
    r.nodes > 1 ? r.routing : '-',
    `${r.delivered}/${r.expected}`,
    r.perSecond.toFixed(0),
    `${r.p50Ms.toFixed(1)} ms`,
    `${r.p99Ms.toFixed(1)} ms`,
    r.deliveriesPerCpuSecond.toFixed(0),
    r.deliveriesPerBusyCpuSecond.toFixed(0),
    Number.isNaN(r.appliesPerUpdate) ? '-' : r.appliesPerUpdate.toFixed(2),
    `${(r.heapPerPool / 1024).toFixed(1)} KiB`,
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)))
  const line = (cells: readonly string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`
  const perPool = Math.max(2, Math.floor(options.clients / options.pools))
  return [
    `${perPool * options.pools} clients over ${options.pools} pools (1 writer + ${perPool - 1} readers each), ${options.updates} updates of ${options.payloadBytes} bytes per writer every ${options.intervalMs} ms; leastconn: clients round-robin over the nodes (every pool on every node); affine: each pool's clients on its node.`,
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
    '',
  ].join('\n')
}

/**
 * Each pool's writer (its document in `docs`) sets `updates` keys `intervalMs` apart, the pools'
 * first keys spread over one interval; `send` carries each update to the relay. Resolves when every
 * writer has set its last key.
 */
export function driveWriters(docs: readonly Y.Doc[], send: (pool: number, update: Uint8Array) => void, updates: number, intervalMs: number, payload: string): Promise<void> {
  return new Promise<void>((done) => {
    let finished = 0
    for (const [p, doc] of docs.entries()) {
      doc.on('update', (u: Uint8Array) => send(p, u))
      let k = 0
      const tick = (): void => {
        doc.getMap('m').set(`k${k}`, payload)
        if (++k < updates) setTimeout(tick, intervalMs)
        else if (++finished === docs.length) done()
      }
      setTimeout(tick, (p / docs.length) * intervalMs)
    }
  })
}

/** Updates the readers have received in all: every client of each pool (a row of `clients`) but its writer, the first. */
export const deliveredCount = (clients: readonly (readonly BenchClient[])[]): number =>
  clients.reduce((s, cs) => s + cs.slice(1).reduce((t, c) => t + c.received.length, 0), 0)

/** Waits (at most a minute) until the readers have received `expected` updates in all. */
export async function awaitDeliveries(clients: readonly (readonly BenchClient[])[], expected: number): Promise<void> {
  const deadline = performance.now() + 60_000
  while (deliveredCount(clients) < expected && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50))
}
