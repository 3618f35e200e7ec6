import { mkdir } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { chromium, type BrowserContext, type Page } from 'playwright-core'
import { createServer, type ViteDevServer } from 'vite'
import { chromiumLaunchOptions } from '../scripts/browser.js'

/**
 * What the probes driven step by step from Node share (bench/open-probe.ts, bench/heap-probe.ts):
 * their `--name value` options, the load average printed beside each figure, a checkout served by
 * a Vite dev server, a Chromium profile kept on disk (so a store written once is measured on later
 * runs), and calls into the probe object the page's entry puts on `window`.
 */

/** The value after `--name` in the command line, or `fallback`. */
export function option(args: readonly string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1]! : fallback
}

/** The 1, 5 and 15 minute load averages, for the line a figure is printed on. */
export const loadAverages = (): string => loadavg().map((x) => x.toFixed(1)).join(' ')

/**
 * A Vite dev server on `root` at 127.0.0.1:`port` (strict: the probe's origin, and so its
 * IndexedDB, is that port). No config file (vite.config.ts configures Vitest) and no file
 * watcher; `entries` are crawled at start. `cacheDir`: Vite's dependency cache (default
 * MEMWEAVE_BENCH_VITE_CACHE, else node_modules/.vite).
 */
export async function serveCheckout(root: string, port: number, entries: readonly string[], cacheDir = process.env['MEMWEAVE_BENCH_VITE_CACHE']): Promise<ViteDevServer> {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'warn',
    ...(cacheDir ? { cacheDir } : {}),
    server: { host: '127.0.0.1', port, strictPort: true, watch: null },
    optimizeDeps: { entries: [...entries] },
  })
  await server.listen()
  return server
}

/**
 * Chromium on the profile directory `profile` (made if missing), and its page, whose console lines
 * go to `onConsole` and whose uncaught errors are printed.
 */
export async function openProfile(profile: string, onConsole: (text: string) => void = (text) => console.log(`page: ${text}`)): Promise<{ context: BrowserContext; page: Page }> {
  await mkdir(profile, { recursive: true })
  const launch = chromiumLaunchOptions()
  const context = await chromium.launchPersistentContext(profile, { ...launch, args: [...launch.args] })
  const page = context.pages()[0] ?? (await context.newPage())
  page.on('console', (msg) => onConsole(msg.text()))
  page.on('pageerror', (err) => console.log(`page error: ${err.message}`))
  return { context, page }
}

/** Loads the probe page `path` (from the server's root) and waits until its entry has set `window[global]`. */
export async function loadProbe(page: Page, port: number, path: string, global: string): Promise<void> {
  await page.goto(`http://127.0.0.1:${port}/${path}`, { timeout: 600_000 })
  await page.waitForFunction((g) => (window as unknown as Record<string, unknown>)[g] !== undefined, global, { timeout: 600_000 })
}

/** Calls step `fn` of the page's probe object `window[global]` with `params`, and returns what it resolves to. */
export function callProbe<T>(page: Page, global: string, fn: string, ...params: unknown[]): Promise<T> {
  return page.evaluate(
    ([g, f, p]) => (window as unknown as Record<string, Record<string, (...a: unknown[]) => Promise<T>>>)[g]![f]!(...p),
    [global, fn, params] as const,
  )
}
