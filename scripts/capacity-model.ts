/**
 * The relay cluster's capacity model (issue 33; docs/relay.md, "Capacity"): how many relay node
 * processes and Redis shards serve a population of pools, from the per-update and per-pool costs
 * measured on the bench machine, run over a simulated population (clients per pool and activity
 * drawn from lognormal or Zipf distributions, seeded) with pool-affine routing: every client of a
 * pool on one node, pools spread over nodes by a hash (uniform), over Redis shards by hash slot.
 *
 *   npx tsx scripts/capacity-model.ts [--pools 1000000] [--clients 10000000] [--rate 0.0167]
 *       [--activity lognormal:1 | zipf:0.8] [--sizes lognormal:1] [--doc-median 65536] [--doc-sigma 1.5]
 *       [--compact-after 4194304] [--seed 1]
 *
 * The measured inputs (MEASURED below) come from `MEMWEAVE_BENCH_ONLY=capacity npm run bench`
 * (bench/capacity-bench.ts); re-run it on the target hardware and pass its figures with
 * `--measured '{"nodeCpuPerUpdateUs": ...}'` (any subset) to plan for that hardware.
 */
import { pathToFileURL } from 'node:url'

/** Per-update and per-pool costs, as bench/capacity-bench.ts prints them. */
export interface Measured {
  /** Node CPU per update received from a client (check, apply, XADD), µs. */
  readonly nodeCpuPerUpdateUs: number
  /** Node CPU per delivery of an update to one more client of the pool, µs. */
  readonly nodeCpuPerDeliveryUs: number
  /** Node memory per loaded pool (empty document) and per connected client, bytes. */
  readonly nodeBytesPerPool: number
  readonly nodeBytesPerConnection: number
  /** Node memory per byte of a loaded document's encoded size. */
  readonly nodeBytesPerDocumentByte: number
  /** Redis memory per pool besides its document and stream (owner pin, pins stream), bytes. */
  readonly redisBytesPerPool: number
  /** Redis memory per stream entry, and the update size it was measured with, bytes. */
  readonly redisBytesPerEntry: number
  readonly updateBytes: number
  /** Redis commands and Redis CPU (µs) per update. */
  readonly redisOpsPerUpdate: number
  readonly redisCpuPerUpdateUs: number
}

/**
 * Measured on the bench machine (2 shared cores, Node 20, Redis 7.0 with AOF always, load average
 * about 26 from other work), 2026-11-27, by `MEMWEAVE_BENCH_ONLY=capacity npm run bench`: 200 pools,
 * 20 updates of a 200-byte value per writer, 2 and 10 clients per pool. Heap figures (after a full
 * GC); RSS per connection was 11.4 KB, per pool 85 KB (allocator growth included): see docs/relay.md.
 */
export const MEASURED: Measured = {
  nodeCpuPerUpdateUs: 206.2,
  nodeCpuPerDeliveryUs: 11.8,
  nodeBytesPerPool: 10_281,
  nodeBytesPerConnection: 7_105,
  nodeBytesPerDocumentByte: 4.3,
  redisBytesPerPool: 6_773,
  redisBytesPerEntry: 218,
  updateBytes: 220,
  redisOpsPerUpdate: 2.0,
  redisCpuPerUpdateUs: 30.0,
}

/** What is planned for, and the budgets of one node process and one Redis shard. */
export interface Assumptions {
  readonly pools: number
  readonly clients: number
  /** Updates per second per connected client, on average over the population. */
  readonly updatesPerClientPerSecond: number
  /** The compaction threshold (`compactAfterBytes`); a pool's stream averages half of max(this, its document). */
  readonly compactAfterBytes: number
  /** How often a quiet pool is compacted by the sweep (`compactSweepMs`), s. */
  readonly sweepSeconds: number
  /** A relay node process: one core (Node runs the relay on one thread), its memory, the share of each to plan up to. */
  readonly nodeCpuTarget: number
  readonly nodeMemoryBytes: number
  readonly nodeMemoryTarget: number
  /** A Redis shard (a master; its replica holds the same): one core, `maxmemory`, the share of each to plan up to. */
  readonly shardCpuTarget: number
  readonly shardMemoryBytes: number
  readonly shardMemoryTarget: number
}

export const DEFAULT_ASSUMPTIONS: Assumptions = {
  pools: 1_000_000,
  clients: 10_000_000,
  updatesPerClientPerSecond: 1 / 60,
  compactAfterBytes: 4 * 2 ** 20,
  sweepSeconds: 60,
  nodeCpuTarget: 0.6,
  nodeMemoryBytes: 8 * 2 ** 30,
  nodeMemoryTarget: 0.7,
  shardCpuTarget: 0.5,
  shardMemoryBytes: 25 * 2 ** 30,
  shardMemoryTarget: 0.7,
}

/** One pool of the population. */
export interface Pool {
  readonly clients: number
  readonly updatesPerSecond: number
  readonly documentBytes: number
}

/** What one pool costs its node each second (CPU µs) and in memory (bytes). */
export function nodeLoad(pool: Pool, m: Measured): { cpuUs: number; bytes: number } {
  const fanout = Math.max(0, pool.clients - 1)
  return {
    cpuUs: pool.updatesPerSecond * (m.nodeCpuPerUpdateUs + fanout * m.nodeCpuPerDeliveryUs),
    bytes: m.nodeBytesPerPool + pool.clients * m.nodeBytesPerConnection + pool.documentBytes * m.nodeBytesPerDocumentByte,
  }
}

/**
 * What one pool costs its Redis shard each second (CPU µs, commands) and in memory: the snapshot
 * (the document), the stream since the last compaction, the pin. A pool written at least once per
 * sweep period is never quiet long enough to be swept, so its stream grows to the compaction
 * threshold (max of `compactAfterBytes` and the document) and averages half of it; a quieter pool
 * is compacted by the sweep and holds about one period of entries.
 */
export function redisLoad(pool: Pool, m: Measured, a: Assumptions): { cpuUs: number; ops: number; bytes: number } {
  const perByte = m.redisBytesPerEntry / m.updateBytes
  const busy = pool.updatesPerSecond * a.sweepSeconds >= 1
  const stream = busy ? (Math.max(a.compactAfterBytes, pool.documentBytes) / 2) * perByte : pool.updatesPerSecond * a.sweepSeconds * m.redisBytesPerEntry
  return {
    cpuUs: pool.updatesPerSecond * m.redisCpuPerUpdateUs,
    ops: pool.updatesPerSecond * m.redisOpsPerUpdate,
    bytes: m.redisBytesPerPool + pool.documentBytes + stream,
  }
}

/** Pools spread over `bins` (uniformly, as a hash spreads them): the fullest bin's share of the budget. */
export interface Packing {
  readonly bins: number
  /** The bins the totals need at the targets (every bin equally full): `bins` minus this is what the hash's imbalance costs. */
  readonly bound: number
  /** Highest utilisation of any bin, CPU and memory, as a fraction of the whole budget (not the target). */
  readonly maxCpu: number
  readonly maxMemory: number
  readonly meanCpu: number
  readonly meanMemory: number
  /**
   * Pools past a target on their own: they cannot share a bin within the targets, and with affine
   * routing one pool cannot be split, so each needs a bin (node, shard) of its own, left out of
   * `bins` and of the figures above.
   */
  readonly oversized: number
}

/**
 * The fewest bins (node processes or shards) for which no bin goes past its targets, starting at
 * the bound the totals give and stepping up by 1%; pools past a target alone are counted apart. `assign(i, bins)` places pool i (a hash; injected so
 * a test can place pools by hand).
 */
export function pack(
  cpu: Float64Array, bytes: Float64Array,
  budget: { readonly cpuUs: number; readonly cpuTarget: number; readonly bytes: number; readonly memoryTarget: number },
  assign: (i: number, bins: number) => number,
): Packing {
  const fits = (i: number): boolean => cpu[i]! <= budget.cpuUs * budget.cpuTarget && bytes[i]! <= budget.bytes * budget.memoryTarget
  let totalCpu = 0
  let totalBytes = 0
  let oversized = 0
  for (let i = 0; i < cpu.length; i++) {
    if (!fits(i)) oversized++
    else {
      totalCpu += cpu[i]!
      totalBytes += bytes[i]!
    }
  }
  const bound = Math.max(1, Math.ceil(totalCpu / (budget.cpuUs * budget.cpuTarget)), Math.ceil(totalBytes / (budget.bytes * budget.memoryTarget)))
  let bins = bound
  for (;;) {
    const c = new Float64Array(bins)
    const b = new Float64Array(bins)
    for (let i = 0; i < cpu.length; i++) {
      if (!fits(i)) continue
      const k = assign(i, bins)
      c[k]! += cpu[i]!
      b[k]! += bytes[i]!
    }
    const maxCpu = largest(c) / budget.cpuUs
    const maxMemory = largest(b) / budget.bytes
    if ((maxCpu <= budget.cpuTarget && maxMemory <= budget.memoryTarget) || bins >= cpu.length) {
      return { bins, bound, maxCpu, maxMemory, meanCpu: totalCpu / bins / budget.cpuUs, meanMemory: totalBytes / bins / budget.bytes, oversized }
    }
    bins += Math.max(1, Math.ceil(bins / 100))
  }
}

/** The largest value (Math.max(...a) overflows the stack past about 100k arguments). */
function largest(a: Float64Array): number {
  let m = -Infinity
  for (const x of a) if (x > m) m = x
  return m
}

/** A seeded PRNG (mulberry32): the same seed, the same population. */
export function prng(seed: number): () => number {
  let t = seed >>> 0
  return () => {
    t = (t + 0x6d2b79f5) >>> 0
    let r = Math.imul(t ^ (t >>> 15), 1 | t)
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r
    return ((r ^ (r >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** A standard normal draw (Box-Muller). */
function normal(rand: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
}

/** A distribution of positive weights, scaled by the caller to a mean: `lognormal:SIGMA` or `zipf:S` (by rank). */
export type Distribution = { readonly kind: 'lognormal'; readonly sigma: number } | { readonly kind: 'zipf'; readonly s: number }

export function parseDistribution(text: string): Distribution {
  const [kind, value] = text.split(':')
  const n = Number(value)
  if (!(n >= 0)) throw new Error(`bad distribution ${text}: lognormal:SIGMA or zipf:S`)
  if (kind === 'lognormal') return { kind, sigma: n }
  if (kind === 'zipf') return { kind, s: n }
  throw new Error(`bad distribution ${text}: lognormal:SIGMA or zipf:S`)
}

/** `count` weights of the distribution, scaled so that they sum to `total`; Zipf ranks are shuffled over the pools. */
export function weights(count: number, d: Distribution, total: number, rand: () => number): Float64Array {
  const w = new Float64Array(count)
  for (let i = 0; i < count; i++) w[i] = d.kind === 'lognormal' ? Math.exp(d.sigma * normal(rand)) : 1 / (i + 1) ** d.s
  if (d.kind === 'zipf') {
    for (let i = count - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      const x = w[i]!
      w[i] = w[j]!
      w[j] = x
    }
  }
  const sum = w.reduce((s, x) => s + x, 0)
  for (let i = 0; i < count; i++) w[i] = (w[i]! / sum) * total
  return w
}

export interface Population {
  readonly clients: Distribution
  readonly activity: Distribution
  readonly documentMedianBytes: number
  readonly documentSigma: number
  readonly seed: number
}

/**
 * The pools: clients per pool drawn from `clients` (at least 1, summing to about the total), each
 * pool's update rate its clients × the per-client rate × an activity weight (mean 1), its document
 * size lognormal around the median.
 */
export function population(a: Assumptions, p: Population): Pool[] {
  const rand = prng(p.seed)
  const clients = weights(a.pools, p.clients, a.clients, rand)
  const activity = weights(a.pools, p.activity, a.pools, rand)
  const pools: Pool[] = []
  for (let i = 0; i < a.pools; i++) {
    const k = Math.max(1, Math.round(clients[i]!))
    pools.push({ clients: k, updatesPerSecond: k * a.updatesPerClientPerSecond * activity[i]!, documentBytes: p.documentMedianBytes * Math.exp(p.documentSigma * normal(rand)) })
  }
  return pools
}

export interface Plan {
  readonly pools: number
  readonly clients: number
  readonly updatesPerSecond: number
  readonly deliveriesPerSecond: number
  readonly nodes: Packing
  readonly shards: Packing
  /** The busiest pool: its node CPU as a share of one node process's core. It cannot be split: affine routing's limit. */
  readonly hottestPoolCpu: number
  readonly redisOpsPerSecond: number
  readonly redisBytes: number
}

/** Runs the model over `pools`. `assign` places pool i among n bins (default: a seeded uniform hash). */
export function plan(pools: readonly Pool[], m: Measured, a: Assumptions, assign?: (i: number, bins: number) => number): Plan {
  const n = pools.length
  const nodeCpu = new Float64Array(n)
  const nodeBytes = new Float64Array(n)
  const redisCpu = new Float64Array(n)
  const redisBytes = new Float64Array(n)
  let updates = 0
  let deliveries = 0
  let clients = 0
  let ops = 0
  for (let i = 0; i < n; i++) {
    const p = pools[i]!
    const node = nodeLoad(p, m)
    const redis = redisLoad(p, m, a)
    nodeCpu[i] = node.cpuUs
    nodeBytes[i] = node.bytes
    redisCpu[i] = redis.cpuUs
    redisBytes[i] = redis.bytes
    updates += p.updatesPerSecond
    deliveries += p.updatesPerSecond * Math.max(0, p.clients - 1)
    clients += p.clients
    ops += redis.ops
  }
  // A hash of the pool id: pool i's bin is fixed for a given count (the same as rendezvous hashing, in distribution).
  const place = assign ?? ((i: number, bins: number): number => Math.floor(prng(i * 7919 + bins)() * bins))
  return {
    pools: n,
    clients,
    updatesPerSecond: updates,
    deliveriesPerSecond: deliveries,
    nodes: pack(nodeCpu, nodeBytes, { cpuUs: 1e6, cpuTarget: a.nodeCpuTarget, bytes: a.nodeMemoryBytes, memoryTarget: a.nodeMemoryTarget }, place),
    shards: pack(redisCpu, redisBytes, { cpuUs: 1e6, cpuTarget: a.shardCpuTarget, bytes: a.shardMemoryBytes, memoryTarget: a.shardMemoryTarget }, place),
    hottestPoolCpu: largest(nodeCpu) / 1e6,
    redisOpsPerSecond: ops,
    redisBytes: redisBytes.reduce((s, x) => s + x, 0),
  }
}

export function formatPlan(r: Plan, a: Assumptions, p: Population): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`
  const gib = (x: number): string => `${(x / 2 ** 30).toFixed(1)} GiB`
  const dist = (d: Distribution): string => (d.kind === 'lognormal' ? `lognormal sigma ${d.sigma}` : `Zipf s ${d.s}`)
  return [
    `population: ${r.pools} pools, ${r.clients} clients (per pool: ${dist(p.clients)}), ${(a.updatesPerClientPerSecond * 60).toFixed(2)} updates per client per minute (activity: ${dist(p.activity)}),`,
    `  documents lognormal around ${(p.documentMedianBytes / 1024).toFixed(0)} KiB (sigma ${p.documentSigma}), compactAfterBytes ${(a.compactAfterBytes / 1024).toFixed(0)} KiB, seed ${p.seed}`,
    `demand: ${r.updatesPerSecond.toFixed(0)} updates/s, ${r.deliveriesPerSecond.toFixed(0)} deliveries/s, Redis ${r.redisOpsPerSecond.toFixed(0)} commands/s and ${gib(r.redisBytes)}`,
    `relay node processes (1 core, ${gib(a.nodeMemoryBytes)}; planned to ${pct(a.nodeCpuTarget)} CPU, ${pct(a.nodeMemoryTarget)} memory): ${r.nodes.bins} (the totals alone: ${r.nodes.bound})`,
    `  fullest node: CPU ${pct(r.nodes.maxCpu)}, memory ${pct(r.nodes.maxMemory)}; mean CPU ${pct(r.nodes.meanCpu)}, memory ${pct(r.nodes.meanMemory)}; headroom on the fullest: CPU ${pct(1 - r.nodes.maxCpu)}, memory ${pct(1 - r.nodes.maxMemory)}`,
    `  hottest pool: ${pct(r.hottestPoolCpu)} of one node's core${r.nodes.oversized > 0 ? `; ${r.nodes.oversized} pools past the target alone, each needing a node of its own (affine routing cannot split a pool), not counted above` : ''}`,
    `Redis shards (masters: 1 core, ${gib(a.shardMemoryBytes)} maxmemory; planned to ${pct(a.shardCpuTarget)} CPU, ${pct(a.shardMemoryTarget)} memory): ${r.shards.bins} (the totals alone: ${r.shards.bound})`,
    `  fullest shard: CPU ${pct(r.shards.maxCpu)}, memory ${pct(r.shards.maxMemory)}; headroom on the fullest: CPU ${pct(1 - r.shards.maxCpu)}, memory ${pct(1 - r.shards.maxMemory)}${r.shards.oversized > 0 ? `; ${r.shards.oversized} pools past a shard's target alone` : ''}`,
  ].join('\n')
}

function flag(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}

function main(args: readonly string[]): void {
  const num = (name: string, fallback: number): number => {
    const raw = flag(args, name)
    if (raw === undefined) return fallback
    const n = Number(raw)
    if (!(n > 0)) throw new Error(`--${name} must be a positive number`)
    return n
  }
  const a: Assumptions = {
    ...DEFAULT_ASSUMPTIONS,
    pools: num('pools', DEFAULT_ASSUMPTIONS.pools),
    clients: num('clients', DEFAULT_ASSUMPTIONS.clients),
    updatesPerClientPerSecond: num('rate', DEFAULT_ASSUMPTIONS.updatesPerClientPerSecond),
    compactAfterBytes: num('compact-after', DEFAULT_ASSUMPTIONS.compactAfterBytes),
  }
  const p: Population = {
    clients: parseDistribution(flag(args, 'sizes') ?? 'lognormal:1'),
    activity: parseDistribution(flag(args, 'activity') ?? 'lognormal:1'),
    documentMedianBytes: num('doc-median', 64 * 1024),
    documentSigma: num('doc-sigma', 1.5),
    seed: num('seed', 1),
  }
  const m: Measured = { ...MEASURED, ...(JSON.parse(flag(args, 'measured') ?? '{}') as Partial<Measured>) }
  console.log(formatPlan(plan(population(a, p), m, a), a, p))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main(process.argv.slice(2))
