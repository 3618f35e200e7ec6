import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { callProbe, loadAverages as load, loadProbe, openProfile, option, serveCheckout } from './probe-page.js'
import { summarizeProfile, type CpuProfile } from './profile-summary.js'

/**
 * Issue 31 (session 13): where a single awaited write through openMemory goes. Opens a memory
 * through the client bench's worker (bench/bench-worker.ts) and warms up; prints the messages the
 * page posts per write; in shared mode, `hops` (round trips on the worker's own port and on a port
 * it made, interleaved) and `--parts` rounds of `parts` (the page's write beside the same write
 * without the client's wrappers, asked of the worker by one call, called in the worker, and a raw
 * put + commit there; means, as the page's clock is coarsened to 0.1 ms); then `--rounds` rounds of
 * `--n` single writes, with `--out FILE.cpuprofile` CPU profiles of the page and the worker around
 * the last (and of the worker's own loop of the same writes, `.direct.cpuprofile`).
 *
 *   npx tsx bench/write-probe.ts [--root .] [--port 4221] [--mode shared|dedicated] [--n 1000] [--rounds 3]
 *     [--hops 1] [--parts 2] [--partsN 500] [--out /tmp/w.cpuprofile]
 */
const args = process.argv.slice(2)
const root = resolve(option(args, 'root', fileURLToPath(new URL('..', import.meta.url))))
const port = Number(option(args, 'port', '4221'))
const mode = option(args, 'mode', 'shared') as 'shared' | 'dedicated'
const n = Number(option(args, 'n', '1000'))
const rounds = Number(option(args, 'rounds', '3'))
const out = option(args, 'out', '')

const server = await serveCheckout(root, port, ['bench/write-probe.html', 'bench/bench-worker.ts'], resolve(root, 'node_modules/.vite-write-probe', root.replace(/\W+/g, '_')))
const { context, page } = await openProfile(`/tmp/write-probe-${port}-${Date.now()}`)
try {
  await loadProbe(page, port, 'bench/write-probe.html', '__writeProbe')
  await callProbe(page, '__writeProbe', 'open', `probe-${Date.now()}`, mode)
  await callProbe(page, '__writeProbe', 'singles', 300, 'warm')
  console.log(`messages the page posts per single write: ${await callProbe<number>(page, '__writeProbe', 'messages', 200)}`)
  if (mode === 'shared' && option(args, 'hops', '1') === '1') {
    for (let r = 0; r < 3; r++) {
      const hops = await callProbe<Record<string, number>>(page, '__writeProbe', 'hops', 2000)
      console.log(`hops ${r} (mean ms, load ${load()}): ${Object.entries(hops).map(([k, v]) => `${k} ${v.toFixed(3)}`).join('; ')}`)
    }
    for (let r = 0; r < Number(option(args, 'parts', '2')); r++) {
      const parts = await callProbe<Record<string, number>>(page, '__writeProbe', 'parts', Number(option(args, 'partsN', '500')), `parts${r}`)
      console.log(`parts ${r} (mean ms, load ${load()}): ${Object.entries(parts).map(([k, v]) => `${k} ${v.toFixed(3)}`).join('; ')}`)
    }
  }
  const cdp = await context.newCDPSession(page)
  // The worker's isolate, through the browser's target list (non-flat sessions: Playwright sends
  // on one session only, so the worker's profiler is driven by Target.sendMessageToTarget).
  const browserCdp = await context.browser()!.newBrowserCDPSession()
  const { targetInfos } = await browserCdp.send('Target.getTargets')
  const workerTarget = targetInfos.find((t) => t.type === 'shared_worker' || t.type === 'worker')
  let worker: ((method: string, params?: object) => Promise<unknown>) | null = null
  if (workerTarget) {
    const { sessionId } = await browserCdp.send('Target.attachToTarget', { targetId: workerTarget.targetId, flatten: false })
    let next = 1
    const waiting = new Map<number, (v: unknown) => void>()
    browserCdp.on('Target.receivedMessageFromTarget', (e) => {
      const msg = JSON.parse(e.message) as { id?: number; result?: unknown; error?: unknown }
      if (msg.id !== undefined) waiting.get(msg.id)?.(msg.result ?? msg.error)
    })
    worker = (method, params = {}) =>
      new Promise((resolve) => {
        const id = next++
        waiting.set(id, resolve)
        void browserCdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
      })
    console.log(`worker target: ${workerTarget.type} ${workerTarget.url}`)
  }
  for (let r = 0; r < rounds; r++) {
    const last = r === rounds - 1 && out !== ''
    if (last) {
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 50 })
      await cdp.send('Profiler.start')
      if (worker) {
        await worker('Profiler.enable')
        await worker('Profiler.setSamplingInterval', { interval: 50 })
        await worker('Profiler.start')
      }
    }
    const lat = await callProbe<number[]>(page, '__writeProbe', 'singles', n, `round${r}`)
    console.log(`round ${r}: ${n} single writes, p50 ${lat[Math.floor(n / 2)]!.toFixed(3)} ms, p90 ${lat[Math.floor(n * 0.9)]!.toFixed(3)} ms (load ${load()})`)
    if (last) {
      const { profile } = await cdp.send('Profiler.stop')
      writeFileSync(out, JSON.stringify(profile))
      console.log('== page ==\n' + summarizeProfile(profile as unknown as CpuProfile, 12, ['(idle)', '(program)', '(garbage collector)']))
      if (worker) {
        const { profile: wp } = (await worker('Profiler.stop')) as { profile: CpuProfile }
        writeFileSync(out.replace(/\.cpuprofile$/, '.worker.cpuprofile'), JSON.stringify(wp))
        console.log('== worker ==\n' + summarizeProfile(wp, 40, ['(idle)', '(program)', '(garbage collector)', 'write', 'commit', 'call', 'callTarget']))
        // The same writes called in the worker (the client bench's in-worker baseline), profiled alike.
        await worker('Profiler.start')
        const direct = await callProbe<number>(page, '__writeProbe', 'direct', n)
        const { profile: dp } = (await worker('Profiler.stop')) as { profile: CpuProfile }
        writeFileSync(out.replace(/\.cpuprofile$/, '.direct.cpuprofile'), JSON.stringify(dp))
        console.log(`in-worker: ${n} single writes, mean ${direct.toFixed(3)} ms (load ${load()})`)
      }
    }
  }
} finally {
  await context.close()
  await server.close()
}
