import { PerformanceObserver } from 'node:perf_hooks'
import { WebSocket } from 'ws'
import { createMemory, type Memory } from '../src/memory.js'
import type { PoolId } from '../src/pools/types.js'
import { memoryStorage } from '../src/storage/memory-adapter.js'
import { MaterializeStep } from '../src/sync/materialize-step.js'
import { PoolSync } from '../src/sync/pool-sync.js'
import { AHEAD_CHUNKS, UpdateLog } from '../src/sync/update-log.js'
import { memoryInputs, poolOnRelay } from './sync-fixtures.js'

/**
 * Per forget in a synced pool of N (the sync bench's sequence: join, fact view, 20 writes, one
 * first forget, then `forgets` more), three clocks: until B's status notification finds B's
 * `mem.pools` without the memory (the sync bench's clock), until a poll every 2 ms does (when the
 * API had it), and until both devices are synced again; and the GC pauses in between (kind:major
 * ms@start). For finding what a slow forget waited on (not a bench; issue 31's fifth round found
 * the notification late by the pass's compaction). `npx tsx bench/forget-timeline.ts [N] [forgets]
 * [steps] [rest ms]`; `rest` waits that long idle after the join (its write-ahead done) before the
 * writes. Each forget's start is printed in ms since the process began, as `node --trace-gc` prints
 * a collection's: `node --trace-gc --import tsx bench/forget-timeline.ts 100000 10 steps` lines
 * them up (issue 31's eighth round found the slow forgets inside one major GC's marking).
 */
const size = Number(process.argv[2] ?? 10_000)
const count = Number(process.argv[3] ?? 10)
const withSteps = process.argv[4] === 'steps'
const rest = Number(process.argv[5] ?? 0)

/** The loop's steps per device, timed: the sync loop's own methods wrapped (a bench tool, not an API). */
const steps: Array<{ what: string; start: number; ms: number }> = []
const device = new WeakMap<object, string>()
if (withSteps) {
  // A's pool starts listening first (poolOnRelay), B's when it joins.
  let listening = 0
  const listen = PoolSync.prototype.listen
  PoolSync.prototype.listen = function (this: PoolSync): void {
    const name = 'AB'[listening++] ?? '?'
    device.set(this, name)
    device.set(this.log, name)
    listen.call(this)
  }
  const timed = <T extends object>(proto: T, name: string, label: (self: object, args: unknown[]) => string): void => {
    const original = (proto as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!
    ;(proto as Record<string, unknown>)[name] = async function (this: object, ...args: unknown[]): Promise<unknown> {
      const what = label(this, args)
      const start = performance.now()
      try {
        return await original.apply(this, args)
      } finally {
        steps.push({ what, start, ms: performance.now() - start })
      }
    }
  }
  timed(MaterializeStep.prototype, 'run', (_self, [ps]) => `${device.get(ps as object) ?? '?'} judge`)
  timed(UpdateLog.prototype, 'compact', (self, [, options]) => {
    const log = self as UpdateLog
    const chunks = (options as { chunks?: number } | undefined)?.chunks
    return `${device.get(log) ?? '?'} ${chunks === AHEAD_CHUNKS ? 'ahead' : 'compact'}(${chunks ?? 'last'}, due ${log.due})`
  })
}

const gcs: Array<{ start: number; ms: number; kind: number }> = []
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ start: e.startTime, ms: e.duration, kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 })
})
gcObserver.observe({ entryTypes: ['gc'] })

async function main(): Promise<void> {
  const { member, relay, url, a, pool, records, token } = await poolOnRelay(size, 'timeline', until)
  const b = await createMemory({ storage: memoryStorage(), identity: member, sync: { WebSocketPolyfill: WebSocket } })
  let t = performance.now()
  await b.sync.connect(pool, { url, token: await token(member) })
  await until(b, pool, size)
  await b.facts.retrieve('where', { topK: 1 })
  console.log(`join + fact view ${size}: ${Math.round(performance.now() - t)} ms`)
  if (rest > 0) await new Promise((r) => setTimeout(r, rest))
  const inputs = memoryInputs(21, 0xb16, 'later write')
  for (let i = 0; i < inputs.length; i++) {
    await a.pools.write(pool, inputs[i]!)
    await until(b, pool, size + 1 + i)
  }
  const ids = Array.from({ length: count + 1 }, (_, i) => records[Math.floor(((i + 0.5) * records.length) / (count + 1))]!.id)
  let held = size + inputs.length
  // As the sync bench's `timedForget`: B's count checked on each of its status notifications; then both settle.
  const forget = async (id: string): Promise<number> => {
    const target = --held
    let stopped = 0
    let polled = 0
    const seen = new Promise<void>((ok) => {
      let stop: (() => void) | undefined
      let done = false
      void b.sync.subscribe(() => {
        void (async () => {
          if (done || (await b.pools.info(pool).catch(() => null))?.size! > target) return
          done = true
          stopped = performance.now()
          stop?.()
          ok()
        })()
      }).then((u) => (done ? u() : (stop = u)))
    })
    const t0 = performance.now()
    const poll = until(b, pool, target, true, true).then(() => (polled = performance.now()))
    const forgotten = a.pools.forget(id)
    await seen
    await forgotten
    await poll
    await a.pools.flush()
    await Promise.all([until(a, pool, target, true), until(b, pool, target, true)])
    const end = performance.now()
    const inside = gcs.filter((g) => g.start >= t0 && g.start < end)
    const inSteps = steps.filter((x) => x.start >= t0 && x.start < end).map((x) => `${x.what} ${x.ms.toFixed(0)}@${Math.round(x.start - t0)}`)
    if (withSteps) console.log(`    steps: ${inSteps.join(', ')}`)
    console.log(`  forget@${Math.round(t0)}: notified ${Math.round(stopped - t0)} ms, polled ${Math.round(polled - t0)} ms, settled ${Math.round(end - t0)} ms; GC ${inside.map((g) => `${g.kind}:${g.ms.toFixed(0)}@${Math.round(g.start - t0)}`).join(' ')}`)
    return stopped - t0
  }
  t = performance.now()
  console.log(`first forget: ${Math.round(await forget(ids[0]!))} ms`)
  const cpu0 = process.cpuUsage()
  const times: number[] = []
  for (const id of ids.slice(1)) times.push(await forget(id))
  const cpu = process.cpuUsage(cpu0)
  console.log(`${count} forgets: ${times.map((ms) => Math.round(ms)).join(', ')} ms; process CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms`)
  await b.close()
  await a.close()
  await relay.close()
}

/** Until `mem` is synced (unless `any`) and counts at least `n` memories of the pool (at most `n` when `down`). */
async function until(mem: Memory, pool: PoolId, n: number, down = false, any = false): Promise<void> {
  for (;;) {
    const s = await mem.sync.status()
    const size = (await mem.pools.info(pool).catch(() => null))?.size ?? 0
    if ((any || s.state === 'synced') && (down ? size <= n : size >= n)) return
    await new Promise((r) => setTimeout(r, 2))
  }
}

await main()
