import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { WebSocket } from 'ws'
import { createMemory, type Memory } from '../src/memory.js'
import type { PoolId } from '../src/pools/types.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { memoryInputs, poolOnRelay } from './sync-fixtures.js'

/**
 * CPU profiles of the sync bench's two expensive parts, for finding where time goes (not a bench):
 * a new device joining a pool of N (`join.cpuprofile`), then from B's `synced` until `mem.facts` answers
 * with the pool's fact view (`factview.cpuprofile`, the view written after a big join), then writes into the synced pool
 * (`writes.cpuprofile`), then A forgetting memories of it until B no longer counts them, after one
 * first forget profiled apart (`first-forget.cpuprofile`: it also compacts the join's rows), then five (`forgets.cpuprofile`). `npx tsx bench/sync-profile.ts [N] [outDir]`.
 * With `MEMWEAVE_PROFILE_ALLOC=1`, the join and the fact view also sample what they allocate
 * (`join.heapprofile`, `factview.heapprofile`: bytes by allocating function, what the collector's
 * share is paid for; Chrome DevTools opens them).
 */
const size = Number(process.argv[2] ?? 10_000)
const out = process.argv[3] ?? '.'
const alloc = process.env['MEMWEAVE_PROFILE_ALLOC'] === '1'

async function main(): Promise<void> {
  const { member, relay, url, a, pool, records, token } = await poolOnRelay(size, 'profile', until)

  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.setSamplingInterval', { interval: 200 })
  const b = await createMemory({ storage: memoryStorage(), identity: member, sync: { WebSocketPolyfill: WebSocket } })
  if (alloc) await session.post('HeapProfiler.enable')
  // Every 32 KiB allocated on average: enough samples for a join's per-record allocations, little cost.
  const sampleAllocations = async (): Promise<void> => {
    if (alloc) await session.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  }
  const writeAllocations = async (name: string): Promise<void> => {
    if (alloc) writeFileSync(`${out}/${name}.heapprofile`, JSON.stringify((await session.post('HeapProfiler.stopSampling')).profile))
  }
  await sampleAllocations()
  await session.post('Profiler.start')
  let t = performance.now()
  // Process CPU beside the wall clock: on a loaded machine the wall clock mostly says how long others ran.
  let cpu = process.cpuUsage()
  const cpuMs = (): number => {
    const used = process.cpuUsage(cpu)
    return Math.round((used.user + used.system) / 1000)
  }
  await b.sync.connect(pool, { url, token: await token(member) })
  await until(b, pool, size)
  console.log(`join ${size}: ${Math.round(performance.now() - t)} ms (process CPU ${cpuMs()} ms)`)
  writeFileSync(`${out}/join.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile))
  await writeAllocations('join')
  // A facts read waits for the fact view (as the sync bench's clock does).
  await sampleAllocations()
  await session.post('Profiler.start')
  t = performance.now()
  cpu = process.cpuUsage()
  await b.facts.retrieve('where', { topK: 1 })
  console.log(`fact view after synced: ${Math.round(performance.now() - t)} ms (process CPU ${cpuMs()} ms)`)
  writeFileSync(`${out}/factview.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile))
  await writeAllocations('factview')

  const inputs = memoryInputs(21, 0xb16, 'later write')
  await a.pools.write(pool, inputs[0]!)
  await until(b, pool, size + 1)
  await session.post('Profiler.start')
  t = performance.now()
  for (let i = 1; i < inputs.length; i++) {
    await a.pools.write(pool, inputs[i]!)
    await until(b, pool, size + 1 + i)
  }
  console.log(`20 writes: ${Math.round(performance.now() - t)} ms`)
  writeFileSync(`${out}/writes.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile))

  // As the sync bench: memories spread over the pool, the first forget (it also compacts the join's update rows) profiled apart.
  const ids = Array.from({ length: 6 }, (_, i) => records[Math.floor(((i + 0.5) * records.length) / 6)]!.id)
  let held = size + inputs.length
  const forget = async (id: string): Promise<number> => {
    const t0 = performance.now()
    await a.pools.forget(id)
    await until(b, pool, --held, true)
    return performance.now() - t0
  }
  await session.post('Profiler.start')
  console.log(`first forget: ${Math.round(await forget(ids[0]!))} ms`)
  writeFileSync(`${out}/first-forget.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile))
  await session.post('Profiler.start')
  const times: number[] = []
  for (const id of ids.slice(1)) times.push(await forget(id))
  console.log(`5 forgets: ${times.map((ms) => Math.round(ms)).join(', ')} ms`)
  writeFileSync(`${out}/forgets.cpuprofile`, JSON.stringify((await session.post('Profiler.stop')).profile))
  await b.close()
  await a.close()
  await relay.close()
}

/** Until `mem` is synced and counts at least `n` memories of the pool (at most `n` when `down`). */
async function until(mem: Memory, pool: PoolId, n: number, down = false): Promise<void> {
  for (;;) {
    const s = await mem.sync.status()
    const size = (await mem.pools.info(pool).catch(() => null))?.size ?? 0
    if (s.state === 'synced' && (down ? size <= n : size >= n)) return
    await new Promise((r) => setTimeout(r, 5))
  }
}

await main()
