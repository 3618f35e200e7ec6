import type { CDPSession, Page } from 'playwright-core'

/** The JS heap of a page's isolate after forced collections, read from outside the page. */
export interface HeapReading {
  /** Bytes in use on the JS heap (CDP `Runtime.getHeapUsage` usedSize). */
  readonly used: number
  /** Bytes of array buffers' backing stores (typed arrays' contents live outside the JS heap). */
  readonly backing: number
}

/**
 * Issue 31: collects garbage through CDP (`HeapProfiler.collectGarbage`, three times, with a pause
 * for finalizers and IndexedDB callbacks between) and reads `Runtime.getHeapUsage`. From outside
 * the page, no page code runs to take the figure; the page's own `gc()` and `performance.memory`
 * gave the same bytes but needed flags, and the figure was only as good as what the page let go.
 */
export async function heapAfterGc(cdp: CDPSession): Promise<HeapReading> {
  for (let i = 0; i < 3; i++) {
    await cdp.send('HeapProfiler.collectGarbage')
    await new Promise((r) => setTimeout(r, 100))
  }
  const u = await cdp.send('Runtime.getHeapUsage')
  return { used: u.usedSize, backing: u.backingStorageSize }
}

/** The page's name for `heapAfterGc` (bench/million-bench.ts calls it between its steps). */
export const HEAP_FUNCTION = '__memweaveHeap'

/** Gives `page` a `window.__memweaveHeap()` that returns `heapAfterGc` of its own isolate. */
export async function exposeHeap(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  await page.exposeFunction(HEAP_FUNCTION, () => heapAfterGc(cdp))
}
