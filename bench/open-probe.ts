import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import type { ViteDevServer } from 'vite'
import { callProbe, loadAverages as load, loadProbe, openProfile, option, serveCheckout } from './probe-page.js'

/**
 * Issue 31 (fifth round): the cold open through openMemory on one store, two builds alternately.
 *
 *   npx tsx bench/open-probe.ts --profile DIR --port 4401 --count 100000 write
 *   npx tsx bench/open-probe.ts --profile DIR --port 4401 --count 100000 --roots /a,/b --rounds 3 [--worker dev|built|bench] measure
 *
 * `write` fills the store once as the client bench does (bench/open-probe-entry.ts). `measure`
 * serves each root in turn on the same port (one origin: the same IndexedDB) and times, per round
 * and root: the raw baseline, memweave's own rows read raw, the cold open through openMemory in a
 * dedicated worker (and its first retrieve), and the same open in the page. A worker that logs
 * `mwtrace <label> <epoch ms>` to its console has those marks printed in ms after openMemory was called
 * (a local edit for a breakdown; nothing in src/ logs them). `--steps requests` times each request
 * of the open's load alone (the counts, the snapshot rows, the sixteen ranges, one getAll).
 */
const args = process.argv.slice(2)
const opt = (name: string, fallback: string): string => option(args, name, fallback)
const here = fileURLToPath(new URL('..', import.meta.url))
const roots = opt('roots', here).split(',').map((r) => resolve(r))
const profile = resolve(opt('profile', '/tmp/memweave-open-probe'))
const port = Number(opt('port', '4401'))
const count = Number(opt('count', '100000'))
const rounds = Number(opt('rounds', '1'))
const worker = opt('worker', 'dev')
const steps = opt('steps', 'raw,own,remote,page').split(',')
const name = opt('name', `open-probe-${count}`)
const step = args.includes('write') ? 'write' : 'measure'

const call = <T>(page: Page, fn: string, ...params: unknown[]): Promise<T> => callProbe<T>(page, '__openProbe', fn, ...params)

// A cache per root: two checkouts served in turn do not share one optimizer state.
const serve = (root: string): Promise<ViteDevServer> =>
  serveCheckout(root, port, ['bench/open-probe.html', 'bench/bench-worker.ts', 'worker/memory-worker.ts'], resolve(root, 'node_modules/.vite-open-probe', root.replace(/\W+/g, '_')))

async function main(): Promise<void> {
  let traces: Array<[string, number]> = []
  // A dedicated worker's console reaches the page's listener too: its marks arrive here.
  const { context, page } = await openProfile(profile, (text) => {
    const m = /^mwtrace (\S+) ([\d.]+)$/.exec(text)
    if (m) traces.push([m[1]!, Number(m[2])])
    else console.log(`page: ${text}`)
  })
  const goto = async (root: string): Promise<ViteDevServer> => {
    const server = await serve(root)
    await loadProbe(page, port, 'bench/open-probe.html', '__openProbe')
    return server
  }
  try {
    if (step === 'write') {
      const server = await goto(roots[0]!)
      const ms = await call<number>(page, 'write', name, count)
      console.log(`wrote ${count} in ${(ms / 1000).toFixed(1)} s, load ${load()}`)
      await server.close()
      return
    }
    for (let r = 0; r < rounds; r++) {
      for (const root of roots) {
        const server = await goto(root)
        // A small store opened first: the worker's modules are transformed and cached before the figures.
        if (r === 0) await call(page, 'remote', `${name}-warm`, worker).catch(() => undefined)
        const out: string[] = []
        const raw = steps.includes('raw') ? await call<number>(page, 'rawOpen', name) : NaN
        if (steps.includes('raw')) out.push(`raw ${raw.toFixed(0)}`)
        if (steps.includes('own')) out.push(`own rows ${(await call<number>(page, 'rawOwn', name)).toFixed(0)}`)
        if (steps.includes('requests')) out.push(JSON.stringify(await call(page, 'requests', name)))
        if (steps.includes('remote')) {
          traces = []
          const remote = await call<{ ms: number; marks: Record<string, number> }>(page, 'remote', name, worker)
          out.push(`openMemory ${remote.ms.toFixed(0)} (${(remote.ms / raw).toFixed(2)}x raw; opened at ${remote.marks['opened']!.toFixed(0)})`)
          if (traces.length) out.push(`\n    marks: ${traces.map(([l, t]) => `${l} ${(t - remote.marks['start']!).toFixed(0)}`).join(', ')}`)
        }
        if (steps.includes('page')) {
          const p = await call<number>(page, 'page', name)
          out.push(`page ${p.toFixed(0)} (${(p / raw).toFixed(2)}x raw)`)
        }
        console.log(`round ${r + 1} ${root}: ${out.join(', ')} ms; load ${load()}`)
        await server.close()
      }
    }
  } finally {
    await context.close()
  }
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
