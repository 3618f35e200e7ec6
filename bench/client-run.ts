import { runBenchPage, type BenchServe } from './chromium.js'
import type { ClientBenchRow } from './client-entry.js'

/**
 * Runs issue 3's client benchmark (bench/client.html) in headless Chromium and returns its rows;
 * MEMWEAVE_BENCH_CLIENT_SERVE (`built` or `dev`) picks how the page is served (`clientServe()`).
 */
export async function runClientBench(options: {
  sizes: readonly number[]
  log: (line: string) => void
  timeoutMs: number
  /** Vite's dependency cache (runBenchPage's `cacheDir`). */
  cacheDir?: string
  /**
   * Default `'built'`: the page and its worker bundled by `vite build` and served as files, as a
   * user's built app is; `'dev'`: through Vite's dev server, module by module (issue 31, fifth round).
   */
  serve?: BenchServe
  /** Cold opens measured at the largest size (default 3; medians reported). */
  coldOpens?: number
}): Promise<{ version: string; rows: ClientBenchRow[] }> {
  const { version, value } = await runBenchPage<ClientBenchRow[]>({
    page: 'bench/client.html',
    query: { sizes: options.sizes.join(','), coldOpens: String(options.coldOpens ?? 3) },
    log: options.log,
    timeoutMs: options.timeoutMs,
    workers: ['bench/bench-worker.ts'],
    serve: options.serve ?? 'built',
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    done: () => window.__clientBench !== undefined || window.__clientBenchError !== undefined,
    collect: () => ({ error: window.__clientBenchError, value: window.__clientBench }),
  })
  return { version, rows: value }
}

export function formatClientReport(rows: readonly ClientBenchRow[]): string {
  const w = Math.max(...rows.map((r) => r.metric.length))
  const m = Math.max(...rows.map((r) => r.memweave.length))
  return rows.map((r) => `${r.metric.padEnd(w)}  ${r.memweave.padEnd(m)}  vs ${r.baseline}  ratio ${r.ratio.toFixed(2)}x`).join('\n')
}

/** MEMWEAVE_BENCH_CLIENT_SERVE: `built` (the default) or `dev`. */
export function clientServe(): BenchServe {
  const raw = process.env['MEMWEAVE_BENCH_CLIENT_SERVE'] ?? 'built'
  if (raw !== 'built' && raw !== 'dev') throw new Error('MEMWEAVE_BENCH_CLIENT_SERVE must be "built" or "dev"')
  return raw
}

// Run on its own: npx tsx bench/client-run.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env['MEMWEAVE_BENCH_CLIENT_SIZES'] ?? '10000,100000').split(',').map(Number)
  const serve = clientServe()
  runClientBench({ sizes, log: (l) => console.log(`  ${l}`), timeoutMs: 20 * 60_000, serve }).then(
    ({ version, rows }) => console.log(`== Chromium ${version}, public client through the worker, page ${serve} ==\n${formatClientReport(rows)}`),
    (err: unknown) => {
      console.error(err)
      process.exitCode = 1
    },
  )
}
