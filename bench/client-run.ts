import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { createServer } from 'vite'
import { chromiumLaunchOptions } from '../scripts/browser.js'
import type { ClientBenchRow } from './client-entry.js'

/** Runs issue 3's client benchmark (bench/client.html) in headless Chromium and returns its rows. */
export async function runClientBench(options: { sizes: readonly number[]; log: (line: string) => void; timeoutMs: number }): Promise<{ version: string; rows: ClientBenchRow[] }> {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'warn',
    server: { host: '127.0.0.1', port: 0, strictPort: false, watch: null },
    optimizeDeps: { entries: ['bench/client.html'] },
  })
  try {
    await server.listen()
    const base = server.resolvedUrls?.local[0]
    if (!base) throw new Error('the Vite dev server did not report a URL')
    const browser = await chromium.launch(chromiumLaunchOptions())
    try {
      const page = await browser.newPage()
      page.on('console', (msg) => {
        if (!msg.text().startsWith('[vite]')) options.log(msg.text())
      })
      await page.goto(new URL(`bench/client.html?sizes=${options.sizes.join(',')}`, base).href)
      await page.waitForFunction(() => window.__clientBench !== undefined || window.__clientBenchError !== undefined, null, { timeout: options.timeoutMs, polling: 500 })
      const error = await page.evaluate(() => window.__clientBenchError)
      if (error) throw new Error(`the client benchmark failed in Chromium:\n${error}`)
      return { version: browser.version(), rows: (await page.evaluate(() => window.__clientBench))! }
    } finally {
      await browser.close()
    }
  } finally {
    await server.close()
  }
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
