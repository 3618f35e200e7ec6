import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CDPSession, Page } from 'playwright-core'
import { heapAfterGc } from './cdp-heap.js'
import { summarizeSnapshot } from './heap-snapshot.js'
import { summarizeProfile } from './profile-summary.js'
import { callProbe, loadAverages as load, loadProbe, openProfile, option, serveCheckout } from './probe-page.js'

/**
 * Issue 31: what a Memory of facts holds on Chromium's JS heap, measured from outside the page.
 * bench/heap-probe.html's steps are called one by one; between them the heap is read through CDP
 * (`HeapProfiler.collectGarbage`, then `Runtime.getHeapUsage`), so no page code runs to measure.
 *
 *   npx tsx bench/heap-probe.ts --profile DIR --port 7801 --count 100000 write
 *   npx tsx bench/heap-probe.ts --profile DIR --port 7801 --count 100000 measure [--rounds 2] [--snapshot FILE]
 *
 * `write` fills the store once (the fact bench's rows) in a Chromium profile on disk; `measure`
 * opens it cold and reports, each after forced collections: the heap before the open, with the
 * Memory held (after its first retrieve), after `close()`, and two seconds later. A fact's cost is
 * held minus before. `--root` serves another checkout (the same port and profile see the same
 * IndexedDB: an origin is its host and port), so two builds are measured on one store. With
 * `--snapshot`, a heap snapshot is taken with the Memory held and summarized by constructor; with
 * `--cpu N`, the open (with `write`: the write) is CPU-profiled (CDP Profiler) and its N functions of
 * most self time listed; `--cpu-of first` profiles the first retrieve after the open instead, and
 * `--cpu-of retrieve` the 50 measured queries, each listing where the time goes
 * (bench/profile-summary.ts); `--cpuprofile FILE` keeps that
 * profile (DevTools opens it).
 * MEMWEAVE_HEAP_SNAPSHOT_JSON=FILE also keeps the snapshot itself (for DevTools' Memory tab).
 */
const args = process.argv.slice(2)
const opt = (name: string, fallback: string): string => option(args, name, fallback)
const root = resolve(opt('root', fileURLToPath(new URL('..', import.meta.url))))
const profile = resolve(opt('profile', '/tmp/memweave-heap-probe'))
const port = Number(opt('port', '7801'))
const count = Number(opt('count', '100000'))
const rounds = Number(opt('rounds', '1'))
const snapshotFile = opt('snapshot', '')
const cpuTop = Number(opt('cpu', '0'))
const cpuFile = opt('cpuprofile', '')
const cpuOf = opt('cpu-of', 'open')
if (cpuOf !== 'open' && cpuOf !== 'first' && cpuOf !== 'retrieve') throw new Error(`--cpu-of is open, first or retrieve, got ${cpuOf}`)
const name = opt('name', `heap-probe-${count}`)
const step = args.find((a) => a === 'write' || a === 'measure') ?? 'measure'

const MiB = 2 ** 20
const mib = (bytes: number): string => (bytes / MiB).toFixed(1)
const perFact = (bytes: number): string => (bytes / count).toFixed(0)

async function takeSnapshot(cdp: CDPSession): Promise<string> {
  const parts: string[] = []
  const onChunk = (e: { chunk: string }): void => void parts.push(e.chunk)
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk)
  await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false })
  cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk)
  return parts.join('')
}

/** CPU time of the page's main thread, in seconds (CDP Performance metrics, ThreadTime). */
async function threadTime(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return metrics.find((m) => m.name === 'ThreadTime')?.value ?? Number.NaN
}

/** The functions of most self time in a CPU profile, with their share of the samples. */
function selfTimes(profile: { nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>; samples?: number[] }, top: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]))
  const counts = new Map<string, number>()
  const samples = profile.samples ?? []
  for (const id of samples) {
    const f = byId.get(id)!
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/').split('?')[0]}:${f.lineNumber + 1}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, c]) => `  ${((100 * c) / samples.length).toFixed(1).padStart(5)}% ${k}`).join('\n')
}

async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  await cdp.send('Profiler.start')
}

/** Stops the CPU profile: its top functions by self time, and the profile itself in `--cpuprofile`'s file. */
async function stopProfile(cdp: CDPSession, top: number, steps = false): Promise<string> {
  const { profile } = await cdp.send('Profiler.stop')
  if (cpuFile) await writeFile(cpuFile, JSON.stringify(profile))
  return steps ? summarizeProfile(profile, top) : selfTimes(profile, top)
}

const call = <T>(page: Page, fn: string, ...params: unknown[]): Promise<T> => callProbe<T>(page, '__probe', fn, ...params)

async function main(): Promise<void> {
  const server = await serveCheckout(root, port, ['bench/heap-probe.html'])
  const { context, page } = await openProfile(profile)
  try {
    await loadProbe(page, port, 'bench/heap-probe.html', '__probe')
    const cdp = await context.newCDPSession(page)
    console.log(`root ${root}, ${count} facts, load ${load()}`)
    if (step === 'write') {
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
      if (cpuTop > 0) await startProfile(cdp)
      const cpu0 = await threadTime(cdp)
      const ms = await call<number>(page, 'write', name, count)
      const cpu = (await threadTime(cdp)) - cpu0
      if (cpuTop > 0) console.log(await stopProfile(cdp, cpuTop))
      console.log(`wrote ${count} in ${(ms / 1000).toFixed(1)} s (main thread CPU ${cpu.toFixed(2)} s), load ${load()}`)
      return
    }
    // A small store opened and read first: the code the open runs is compiled before the figures.
    await call(page, 'write', `${name}-warm`, 2000)
    await call(page, 'open', `${name}-warm`)
    await call(page, 'retrieve', 10)
    await call(page, 'close')
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' })
    for (let r = 0; r < rounds; r++) {
      let cpu0 = await threadTime(cdp)
      const raw = await call<{ ms: number; rows: number }>(page, 'rawRead', name)
      const rawCpu = (await threadTime(cdp)) - cpu0
      const before = await heapAfterGc(cdp)
      const profileOpen = cpuTop > 0 && cpuOf === 'open'
      if (profileOpen) await startProfile(cdp)
      cpu0 = await threadTime(cdp)
      let open = await call<{ openMs: number; firstMs: number; hits: number }>(page, 'open', name, cpuOf !== 'first')
      if (cpuOf === 'first') {
        if (cpuTop > 0) await startProfile(cdp)
        open = { ...open, ...(await call<{ firstMs: number; hits: number }>(page, 'first')) }
        if (cpuTop > 0) console.log(await stopProfile(cdp, cpuTop, true))
      }
      const openCpu = (await threadTime(cdp)) - cpu0
      if (profileOpen) console.log(await stopProfile(cdp, cpuTop))
      const heldBytes = await heapAfterGc(cdp)
      // The bench's three unmeasured queries first, as bench/million-bench.ts asks them.
      if (cpuOf === 'retrieve') await call(page, 'retrieve', 3)
      if (cpuTop > 0 && cpuOf === 'retrieve') await startProfile(cdp)
      cpu0 = await threadTime(cdp)
      const q = await call<{ times: number[]; checksum: string }>(page, 'retrieve', 50)
      const queryCpu = (await threadTime(cdp)) - cpu0
      if (cpuTop > 0 && cpuOf === 'retrieve') console.log(await stopProfile(cdp, cpuTop, true))
      const afterQueries = await heapAfterGc(cdp)
      if (snapshotFile && r === rounds - 1) {
        const json = await takeSnapshot(cdp)
        if (process.env['MEMWEAVE_HEAP_SNAPSHOT_JSON']) await writeFile(process.env['MEMWEAVE_HEAP_SNAPSHOT_JSON'], json)
        const s = summarizeSnapshot(json, ['FactState', 'LexicalIndex', 'WriteOrder', 'FreeTextConflicts', 'FactVersion', 'GmpFactStore', 'Postings'])
        const lines = [`snapshot with the Memory held: ${s.nodes} nodes, ${(s.totalBytes / MiB).toFixed(1)} MiB`]
        lines.push('retained by constructor (count, MiB, B a fact):')
        for (const [c, x] of s.retained) lines.push(`  ${c}: ${x.count}, ${(x.bytes / MiB).toFixed(1)} MiB, ${(x.bytes / count).toFixed(0)} B`)
        lines.push('self size by group (top 30: count, MiB, B a fact):')
        for (const g of s.groups.slice(0, 30)) lines.push(`  ${g.group}: ${g.count}, ${(g.selfBytes / MiB).toFixed(2)} MiB, ${(g.selfBytes / count).toFixed(1)} B`)
        await writeFile(snapshotFile, lines.join('\n') + '\n')
        console.log(lines.join('\n'))
      }
      await call(page, 'close')
      const closed = await heapAfterGc(cdp)
      await new Promise((r) => setTimeout(r, 2000))
      const later = await heapAfterGc(cdp)
      const times = [...q.times].sort((a, b) => a - b)
      console.log(
        [
          `round ${r + 1}: raw read ${(raw.ms / 1000).toFixed(2)} s (${raw.rows} rows); open ${(open.openMs / 1000).toFixed(2)} s + first retrieve ${open.firstMs.toFixed(0)} ms (${(open.openMs / raw.ms).toFixed(2)}x raw); main thread CPU: raw ${rawCpu.toFixed(2)} s, open + first retrieve ${openCpu.toFixed(2)} s (${(openCpu / rawCpu).toFixed(2)}x)`,
          `  JS heap (MiB) before ${mib(before.used)}, held ${mib(heldBytes.used)}, after 50 queries ${mib(afterQueries.used)}, closed ${mib(closed.used)}, 2 s later ${mib(later.used)}; array buffers before ${mib(before.backing)}, held ${mib(heldBytes.backing)}`,
          `  per fact: held - before ${perFact(heldBytes.used - before.used)} B (+ array buffers ${perFact(heldBytes.backing - before.backing)} B), after queries - before ${perFact(afterQueries.used - before.used)} B, held - closed ${perFact(heldBytes.used - closed.used)} B`,
          `  retrieve p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, p95 ${times[Math.ceil(times.length * 0.95) - 1]!.toFixed(1)} ms, slowest ${times.slice(-3).map((t) => t.toFixed(0)).join(' / ')} ms, main thread CPU of the 50 ${(queryCpu * 1000).toFixed(0)} ms, checksum ${q.checksum}; load ${load()}`,
        ].join('\n'),
      )
    }
  } finally {
    await context.close()
    await server.close()
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
