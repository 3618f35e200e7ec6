import { PerformanceObserver } from 'node:perf_hooks'
import * as Y from 'yjs'
import { WebSocket } from 'ws'
import { createMemory, type Memory } from '../src/memory.js'
import type { PoolId } from '../src/pools/types.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { memoryInputs, poolOnRelay } from './sync-fixtures.js'

/**
 * What one forget costs in the steady state (after the join's compaction is done), counted in
 * the process that holds both devices and the relay (the sync bench's setup): Yjs items encoded
 * and integrated, bytes of updates and parts encoded, GC pauses by kind, process CPU; per forget,
 * averaged over `count` forgets after `warm` unmeasured ones, each from A's `forget` until B no
 * longer counts the memory and both are synced. Run it at two sizes and compare (issue 31's
 * seventh round: what grows from 1k to 100k). Not a bench: it patches Yjs prototypes to count.
 * `npx tsx bench/forget-count.ts [N] [warm] [count]`.
 */
const size = Number(process.argv[2] ?? 10_000)
const warm = Number(process.argv[3] ?? 10)
const count = Number(process.argv[4] ?? 10)
let counts = new Map<string, number>()
const bump = (k: string, n = 1): void => void counts.set(k, (counts.get(k) ?? 0) + n)
/** Counts the calls of a prototype's method (or `items` of each: bytes returned). */
const patch = (proto: object, name: string, label: string, items: (result: unknown) => number = () => 1): void => {
  const methods = proto as Record<string, (...args: unknown[]) => unknown>
  const original = methods[name]!
  methods[name] = function (this: unknown, ...args: unknown[]): unknown {
    const result = original.apply(this, args)
    bump(label, items(result))
    return result
  }
}
patch(Y.Item.prototype, 'write', 'Y.Item.write')
patch(Y.UpdateEncoderV1.prototype, 'toUint8Array', 'encoded bytes', (r) => (r as Uint8Array).length)
patch(Y.Item.prototype, 'integrate', 'Y.Item.integrate')

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0
    bump(`gc${kind} ms`, e.duration)
    bump(`gc${kind} n`)
  }
}).observe({ entryTypes: ['gc'] })

async function main(): Promise<void> {
  const { member, relay, url, a, pool, records, token } = await poolOnRelay(size, 'steady', until)
  const b = await createMemory({ storage: memoryStorage(), identity: member, sync: { WebSocketPolyfill: WebSocket } })
  await b.sync.connect(pool, { url, token: await token(member) })
  await until(b, pool, size)
  await b.facts.retrieve('where', { topK: 1 })
  const inputs = memoryInputs(21, 0xb16, 'later write')
  for (let i = 0; i < inputs.length; i++) {
    await a.pools.write(pool, inputs[i]!)
    await until(b, pool, size + 1 + i)
  }
  const ids = Array.from({ length: warm + count }, (_, i) => records[Math.floor(((i + 0.5) * records.length) / (warm + count))]!.id)
  let held = size + inputs.length
  const forget = async (id: string): Promise<number> => {
    const t0 = performance.now()
    await a.pools.forget(id)
    await until(b, pool, --held, true)
    await a.pools.flush()
    await until(a, pool, held, true)
    return performance.now() - t0
  }
  for (const id of ids.slice(0, warm)) await forget(id)
  counts = new Map()
  const cpu0 = process.cpuUsage()
  const times: number[] = []
  for (const id of ids.slice(warm)) times.push(await forget(id))
  console.log(times.map((t) => Math.round(t)).join(' '))
  const cpu = process.cpuUsage(cpu0)
  const per = [...counts].sort().map(([k, v]) => `${k}=${Math.round(v / count)}`)
  console.log(`${size}: per forget ${per.join(' ')}; CPU ${((cpu.user + cpu.system) / 1000 / count).toFixed(1)} ms`)
  await b.close()
  await a.close()
  await relay.close()
}

async function until(mem: Memory, pool: PoolId, n: number, down = false): Promise<void> {
  for (;;) {
    const s = await mem.sync.status()
    const size = (await mem.pools.info(pool).catch(() => null))?.size ?? 0
    if (s.state === 'synced' && (down ? size <= n : size >= n)) return
    await new Promise((r) => setTimeout(r, 2))
  }
}

await main()
