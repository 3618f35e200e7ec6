import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { build, createServer, preview } from 'vite'
import { chromiumLaunchOptions } from '../scripts/browser.js'
import type { BrowserBenchResult } from './browser-entry.js'
import { exposeHeap } from './cdp-heap.js'
import type { MillionResult, MillionStoreMode } from './million-bench.js'

export interface ChromiumRun extends BrowserBenchResult {
  /** The browser's own version string, e.g. `156.0.8078.79`. */
  readonly version: string
}

/**
 * How a bench page reaches the browser. `'dev'`: a Vite dev server transforms and serves the
 * TypeScript module by module, workers too (the same modules Node runs). `'built'`: `vite build`
 * bundles the page and its workers into a temporary directory, and `vite preview` serves the files
 * as they are, which is what a user's built app loads (issue 31, fifth round: at 3,000 facts the
 * dev server's module-by-module worker was about 0.8 s of a 1.8 s cold open through openMemory).
 */
export type BenchServe = 'dev' | 'built'

interface Served {
  /** The origin the page is served from, ending in `/`. */
  readonly base: string
  readonly close: () => Promise<void>
}

/**
 * Serves the repository root on 127.0.0.1: MEMWEAVE_BENCH_PORT pins the port (a shared machine
 * gives each user a range), else any free one. A page's workers must be imported as
 * `import url from './x.ts?worker&url'`: a build bundles them from that (a bare
 * `new URL('./x.ts', import.meta.url)` is copied as a file, TypeScript and all).
 */
async function serve(options: {
  readonly page: string
  readonly workers: readonly string[]
  readonly mode: BenchServe
  readonly cacheDir?: string
  readonly port?: number
}): Promise<Served> {
  const root = fileURLToPath(new URL('..', import.meta.url))
  const port = options.port ?? Number(process.env['MEMWEAVE_BENCH_PORT'] ?? 0)
  // A port asked for by the caller is the origin of stored databases: another one would not find them.
  const strictPort = options.port !== undefined
  // A worktree whose node_modules is a link to another's shares its node_modules/.vite: another
  // user's dev server re-optimizing there can reload this run's page mid-run. MEMWEAVE_BENCH_VITE_CACHE gives the run its own.
  const cacheDir = options.cacheDir ?? process.env['MEMWEAVE_BENCH_VITE_CACHE']
  // vite.config.ts configures Vitest; the bench needs none of it.
  const common = { root, configFile: false as const, logLevel: 'warn' as const, ...(cacheDir ? { cacheDir } : {}) }
  if (options.mode === 'dev') {
    const server = await createServer({
      ...common,
      // The file watcher off: an edit under src/ cannot reload a page mid-run.
      server: { host: '127.0.0.1', port, strictPort, watch: null },
      // Crawl the page's and its workers' imports at startup, so a late dependency discovery cannot reload the page mid-run.
      optimizeDeps: { entries: [options.page, ...options.workers] },
      worker: { format: 'es' },
    })
    await server.listen()
    const base = server.resolvedUrls?.local[0]
    if (!base) throw new Error('the Vite dev server did not report a URL')
    return { base, close: () => server.close() }
  }
  const outDir = await mkdtemp(join(tmpdir(), 'memweave-bench-page-'))
  try {
    await build({
      ...common,
      // Relative URLs: the page sits at its own path under the output directory, as in the repository.
      base: './',
      // Module workers that split their chunks (src/memory-loader.ts's import()s).
      worker: { format: 'es' },
      build: {
        outDir,
        emptyOutDir: true,
        target: 'es2022',
        minify: true,
        sourcemap: false,
        reportCompressedSize: false,
        // No report of the slowest plugins: on a loaded machine the worker's bundling always is one.
        rollupOptions: { input: join(root, options.page), checks: { bundlerTimings: false } },
      },
    })
    const server = await preview({ ...common, build: { outDir }, preview: { host: '127.0.0.1', port, strictPort } })
    const base = server.resolvedUrls?.local[0]
    if (!base) throw new Error('the Vite preview server did not report a URL')
    return {
      base,
      close: async () => {
        await server.close()
        await rm(outDir, { recursive: true, force: true })
      },
    }
  } catch (err) {
    await rm(outDir, { recursive: true, force: true })
    throw err
  }
}

/**
 * Serves the repository (`serve`: a Vite dev server, or the page built and served as files), opens
 * `page` with `query` in headless Chromium chosen by chromiumLaunchOptions(), forwards the console
 * to `log`, and waits until `done()` is true in the page. Returns what `collect` reads from the
 * page, and the browser's version.
 */
export async function runBenchPage<T>(options: {
  readonly page: string
  readonly query: Record<string, string>
  readonly log: (line: string) => void
  readonly timeoutMs: number
  readonly done: () => boolean
  readonly collect: () => { error?: string; value?: T }
  /** Give the page `window.__memweaveHeap()`: the heap after forced collections, read through CDP (bench/cdp-heap.ts). */
  readonly heap?: boolean
  /**
   * Run in a profile on disk (a fresh temporary directory, removed after) instead of the default
   * throwaway context, whose storage quota a million facts exceed.
   */
  readonly onDisk?: boolean
  /** Run in this profile directory on disk (created if missing) and keep it: a kept store lives there. */
  readonly profileDir?: string
  /** Serve on exactly this port (IndexedDB's origin includes it); fails if it is taken. */
  readonly port?: number
  /**
   * Scripts the page starts as workers. Vite's dependency scan does not follow them: without them
   * here, the dev server finds the worker's dependencies while the page runs, and reloads the page
   * to serve the re-optimized ones ("the bench page loaded 3 times", issue 31).
   */
  readonly workers?: readonly string[]
  /** Vite's dependency cache (default `node_modules/.vite`); an empty one is what a fresh checkout runs with. */
  readonly cacheDir?: string
  /** Default `'dev'` (BenchServe). */
  readonly serve?: BenchServe
  /** Told the origin the page is served from, before the page loads. */
  readonly onServe?: (base: string) => void
}): Promise<{ version: string; value: T }> {
  const server = await serve({
    page: options.page,
    workers: options.workers ?? [],
    mode: options.serve ?? 'dev',
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
  })
  try {
    const base = server.base
    options.onServe?.(base)
    const launch = chromiumLaunchOptions()
    if (options.profileDir) await mkdir(options.profileDir, { recursive: true })
    const temporary = options.onDisk && !options.profileDir ? await mkdtemp(join(tmpdir(), 'memweave-bench-')) : undefined
    const profile = options.profileDir ?? temporary
    const context = profile ? await chromium.launchPersistentContext(profile, launch) : undefined
    const browser = context ? null : await chromium.launch(launch)
    try {
      const page = context ? (context.pages()[0] ?? (await context.newPage())) : await browser!.newPage()
      page.on('console', (msg) => {
        // Vite's own lines are noise, except the one that says it is about to reload the page.
        if (!msg.text().startsWith('[vite]') || msg.text().includes('server connection lost')) options.log(msg.text())
      })
      page.on('pageerror', (err) => options.log(`page error: ${err.message}`))
      page.on('crash', () => options.log('the page crashed'))
      if (options.heap) await exposeHeap(page)
      let loads = 0
      page.on('load', () => void loads++)
      // The run's own timeout, not Playwright's 30 s: on a loaded machine Vite serving the page's modules took longer.
      await page.goto(new URL(`${options.page}?${new URLSearchParams(options.query)}`, base).href, { timeout: options.timeoutMs })
      await page.waitForFunction(options.done, null, { timeout: options.timeoutMs, polling: 500 })
      // A reload would have restarted the run and mixed two runs' progress lines.
      if (loads > 1) throw new Error(`the bench page loaded ${loads} times; the figures cannot be trusted`)
      const { error, value } = await page.evaluate(options.collect)
      if (error) throw new Error(`the benchmark failed in Chromium:\n${error}`)
      // A persistent context has no Browser handle; the user agent is reduced (156.0.0.0): ask the browser itself.
      const version = browser
        ? browser.version()
        : ((await (await context!.newCDPSession(page)).send('Browser.getVersion')).product.split('/')[1] ?? 'unknown')
      return { version, value: value! }
    } finally {
      await (context ?? browser)!.close()
      if (temporary) await rm(temporary, { recursive: true, force: true })
    }
  } finally {
    await server.close()
  }
}

/** Runs bench/browser.html (the fact benchmark) in headless Chromium on real IndexedDB. */
export async function runInChromium(options: {
  readonly sizes: readonly number[]
  readonly writeBudgetMs: number
  readonly naiveBudgetMs: number
  readonly log: (line: string) => void
  readonly timeoutMs: number
}): Promise<ChromiumRun> {
  const { version, value } = await runBenchPage<BrowserBenchResult>({
    page: 'bench/browser.html',
    query: { sizes: options.sizes.join(','), writeBudgetMs: String(options.writeBudgetMs), naiveBudgetMs: String(options.naiveBudgetMs) },
    log: options.log,
    timeoutMs: options.timeoutMs,
    done: () => window.__benchResult !== undefined || window.__benchError !== undefined,
    collect: () => ({ error: window.__benchError, value: window.__benchResult }),
  })
  return { ...value, version }
}

/**
 * Runs bench/million.html (bench/million-bench.ts: a Memory of `count` facts) in headless Chromium
 * on real IndexedDB, with the heap read through CDP (`heap`).
 */
export async function runMillionInChromium(options: {
  readonly count: number
  readonly openReps: number
  readonly log: (line: string) => void
  readonly timeoutMs: number
  /** A kept store (bench/million-store.ts): its profile directory, databases and port. */
  readonly store?: MillionStoreMode & { readonly profileDir: string; readonly port?: number }
  readonly onServe?: (base: string) => void
}): Promise<{ version: string; value: MillionResult }> {
  const store = options.store
  return runBenchPage<MillionResult>({
    page: 'bench/million.html',
    query: {
      count: String(options.count),
      openReps: String(options.openReps),
      ...(store ? { store: store.mode, rawName: store.rawName, memweaveName: store.memweaveName } : {}),
    },
    ...(store ? { profileDir: store.profileDir } : {}),
    ...(store?.port !== undefined ? { port: store.port } : {}),
    ...(options.onServe ? { onServe: options.onServe } : {}),
    log: options.log,
    timeoutMs: options.timeoutMs,
    done: () => window.__millionResult !== undefined || window.__millionError !== undefined,
    collect: () => ({ error: window.__millionError, value: window.__millionResult }),
    heap: true,
    onDisk: true,
  })
}
