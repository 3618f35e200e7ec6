import { runMillionBench, type MillionResult } from './million-bench.js'

/**
 * The page side of the million-fact run (bench/million.html): runs bench/million-bench.ts on the
 * page's real IndexedDB with the count in the query string, forwards progress to the console, and
 * leaves the result in `window.__millionResult` (or the failure in `window.__millionError`).
 */
declare global {
  interface Window {
    __millionResult?: MillionResult
    __millionError?: string
  }
}

const params = new URLSearchParams(location.search)
const mode = params.get('store')

runMillionBench({
  count: Number(params.get('count') ?? 1_000_000),
  openReps: Number(params.get('openReps') ?? 3),
  deps: { indexedDB, IDBKeyRange },
  log: (line) => console.log(line),
  ...(mode === 'keep' || mode === 'reuse' ? { store: { mode, rawName: params.get('rawName')!, memweaveName: params.get('memweaveName')! } } : {}),
}).then(
  (result) => {
    window.__millionResult = result
  },
  (err: unknown) => {
    window.__millionError = err instanceof Error ? (err.stack ?? err.message) : String(err)
  },
)
