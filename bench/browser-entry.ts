import { runFactsBench, type SizeResult } from './facts-bench.js'

/**
 * The page side of the Chromium run (bench/browser.html): runs the fact benchmark on the page's real
 * IndexedDB with the sizes and budgets in the query string, forwards progress to the console, and leaves the rows in
 * `window.__benchResult` (or the failure in `window.__benchError`) for bench/chromium.ts to collect.
 */
export interface BrowserBenchResult {
  readonly userAgent: string
  readonly rows: SizeResult[]
}

declare global {
  interface Window {
    __benchResult?: BrowserBenchResult
    __benchError?: string
  }
}

const params = new URLSearchParams(location.search)
const sizes = (params.get('sizes') ?? '1000').split(',').map(Number)
const budget = (name: string): number => Number(params.get(name) ?? Infinity)

runFactsBench({
  runtime: 'chromium',
  sizes,
  freshIdb: () => ({ indexedDB, IDBKeyRange }),
  writeBudgetMs: budget('writeBudgetMs'),
  naiveBudgetMs: budget('naiveBudgetMs'),
  // Real IndexedDB keeps databases on disk: drop each size's before the next.
  cleanup: true,
  log: (line) => console.log(line),
}).then(
  (rows) => {
    window.__benchResult = { userAgent: navigator.userAgent, rows }
  },
  (err: unknown) => {
    window.__benchError = err instanceof Error ? (err.stack ?? err.message) : String(err)
  },
)
