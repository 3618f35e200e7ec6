import { runBenchPage } from './chromium.js'
import type { ClientBenchRow } from './client-entry.js'

/** Runs issue 3's client benchmark (bench/client.html) in headless Chromium and returns its rows. */
export async function runClientBench(options: {
  sizes: readonly number[]
  log: (line: string) => void
  timeoutMs: number
  /** Vite's dependency cache (runBenchPage's `cacheDir`). */
  cacheDir?: string
}): Promise<{ version: string; rows: ClientBenchRow[] }> {
  const { version, value } = await runBenchPage<ClientBenchRow[]>({
    page: 'bench/client.html',
    query: { sizes: options.sizes.join(',') },
    log: options.log,
    timeoutMs: options.timeoutMs,
    workers: ['bench/bench-worker.ts'],
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

// Run on its own: npx tsx bench/client-run.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env['MEMWEAVE_BENCH_CLIENT_SIZES'] ?? '10000,100000').split(',').map(Number)
  runClientBench({ sizes, log: (l) => console.log(`  ${l}`), timeoutMs: 20 * 60_000 }).then(
    ({ version, rows }) => console.log(`== Chromium ${version}, public client through the worker ==\n${formatClientReport(rows)}`),
    (err: unknown) => {
      console.error(err)
      process.exitCode = 1
    },
  )
}
