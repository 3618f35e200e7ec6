import { describe, expect, test } from 'vitest'
import { DEFAULT_ASSUMPTIONS, nodeLoad, pack, plan, population, prng, redisLoad, weights, type Assumptions, type Measured } from '../../scripts/capacity-model.js'

/** The capacity model's arithmetic (scripts/capacity-model.ts, docs/relay.md "Capacity") on inputs small enough to check by hand. */

const M: Measured = {
  nodeCpuPerUpdateUs: 100,
  nodeCpuPerDeliveryUs: 10,
  nodeBytesPerPool: 1000,
  nodeBytesPerConnection: 100,
  nodeBytesPerDocumentByte: 2,
  redisBytesPerPool: 500,
  redisBytesPerEntry: 300,
  updateBytes: 200,
  redisOpsPerUpdate: 2,
  redisCpuPerUpdateUs: 20,
}

const A: Assumptions = {
  ...DEFAULT_ASSUMPTIONS,
  compactAfterBytes: 4000,
  sweepSeconds: 10,
  nodeCpuTarget: 0.5,
  nodeMemoryBytes: 1_000_000,
  nodeMemoryTarget: 0.5,
  shardCpuTarget: 0.5,
  shardMemoryBytes: 1_000_000,
  shardMemoryTarget: 0.5,
}

describe('capacity model', () => {
  test('one pool: node CPU is updates x (apply + fan-out x delivery), memory pool + connections + document', () => {
    // 2 updates/s, 3 clients: 2 x (100 + 2 x 10) = 240 µs/s; 1000 + 3 x 100 + 5000 x 2 = 11,300 bytes.
    expect(nodeLoad({ clients: 3, updatesPerSecond: 2, documentBytes: 5000 }, M)).toEqual({ cpuUs: 240, bytes: 11_300 })
    // A lone client delivers to nobody.
    expect(nodeLoad({ clients: 1, updatesPerSecond: 1, documentBytes: 0 }, M).cpuUs).toBe(100)
  })

  test('Redis: a busy pool streams half the compaction threshold, a quiet one about one sweep of entries', () => {
    // Busy (2/s x 10 s >= 1): stream max(4000, 5000) / 2 x 300/200 = 3750; + 500 + 5000.
    expect(redisLoad({ clients: 3, updatesPerSecond: 2, documentBytes: 5000 }, M, A)).toEqual({ cpuUs: 40, ops: 4, bytes: 9250 })
    // Quiet (0.05/s x 10 s = 0.5 entries): 0.5 x 300 = 150; + 500 + 1000.
    expect(redisLoad({ clients: 1, updatesPerSecond: 0.05, documentBytes: 1000 }, M, A).bytes).toBeCloseTo(1650, 9)
  })

  test('packing: the fewest bins under both targets, with the placement given', () => {
    const budget = { cpuUs: 1000, cpuTarget: 0.5, bytes: 1000, memoryTarget: 0.5 }
    // Four pools of 200 µs/s: the totals say 2 bins (800 / 500); round robin puts 400 in each: 40%.
    const cpu = Float64Array.from([200, 200, 200, 200])
    const bytes = Float64Array.from([10, 10, 10, 10])
    expect(pack(cpu, bytes, budget, (i, n) => i % n)).toEqual({ bins: 2, bound: 2, maxCpu: 0.4, maxMemory: 0.02, meanCpu: 0.4, meanMemory: 0.02, oversized: 0 })
    // Everything in bin 0 whatever the count: no count helps, so it stops at one bin per pool.
    expect(pack(cpu, bytes, budget, () => 0).bins).toBe(4)
    // Memory binds: 4 x 300 bytes at 500 per bin -> 3 bins (ceil 2.4), the fullest at 600 past target -> 4.
    expect(pack(Float64Array.from([1, 1, 1, 1]), Float64Array.from([300, 300, 300, 300]), budget, (i, n) => i % n).bins).toBe(4)
    // One pool alone past the target cannot be split: planned to it, not to one bin per pool.
    const hot = pack(Float64Array.from([900, 100, 100, 100]), bytes, budget, (i, n) => i % n)
    expect([hot.bins, hot.oversized, hot.maxCpu]).toEqual([1, 1, 0.3])
  })

  test('plan: totals over the population, nodes and shards from the pools', () => {
    const pools = [
      { clients: 3, updatesPerSecond: 2, documentBytes: 5000 },
      { clients: 1, updatesPerSecond: 0.05, documentBytes: 1000 },
    ]
    const r = plan(pools, M, A, (i, n) => i % n)
    expect(r.clients).toBe(4)
    expect(r.updatesPerSecond).toBeCloseTo(2.05, 9)
    expect(r.deliveriesPerSecond).toBe(4)
    expect(r.redisOpsPerSecond).toBeCloseTo(4.1, 9)
    expect(r.redisBytes).toBeCloseTo(9250 + 1650, 9)
    expect(r.hottestPoolCpu).toBeCloseTo(240 / 1e6, 12)
    expect(r.nodes.bins).toBe(1)
    expect(r.shards.bins).toBe(1)
  })

  test('the population: weights sum to the total, the same seed gives the same pools', () => {
    const w = weights(1000, { kind: 'zipf', s: 1 }, 5000, prng(3))
    expect(w.reduce((s, x) => s + x, 0)).toBeCloseTo(5000, 6)
    const a = { ...A, pools: 200, clients: 2000 }
    const p = { clients: { kind: 'lognormal', sigma: 1 }, activity: { kind: 'lognormal', sigma: 1 }, documentMedianBytes: 1024, documentSigma: 1, seed: 7 } as const
    expect(population(a, p)).toEqual(population(a, p))
    expect(population(a, p).every((x) => x.clients >= 1)).toBe(true)
  })
})
