import { join } from 'node:path'
import type { Plugin } from 'vite'

// What test/package/bundle-size.test.ts (the budget) and scripts/bundle-modules.ts (where the bytes
// are) both need to build and read the worker an app downloads, so the two measure the same thing.

const WORKER_SOURCE = join(import.meta.dirname, '..', 'worker', 'memory-worker.ts')

/** The worker build starts from the pre-bundled `dist/worker/memory-worker.js`; build it from its source instead. */
export const workerFromSource: Plugin = {
  name: 'memweave:worker-from-source',
  enforce: 'pre',
  resolveId(id) {
    return /[\\/]dist[\\/]worker[\\/]memory-worker\.js(\?.*)?$/.test(id) ? WORKER_SOURCE + (id.match(/\?.*$/)?.[0] ?? '') : null
  },
}

/** A chunk and every chunk it imports statically: what the browser fetches to run it. */
export function closure<C extends { readonly file: string; readonly imports: readonly string[] }>(chunks: readonly C[], roots: readonly C[]): C[] {
  const byFile = new Map(chunks.map((c) => [c.file, c]))
  const seen = new Map<string, C>()
  const visit = (c: C): void => {
    if (seen.has(c.file)) return
    seen.set(c.file, c)
    for (const f of c.imports) visit(byFile.get(f)!)
  }
  roots.forEach(visit)
  return [...seen.values()]
}

/** Whether a chunk holding these modules is the free-text detector's (loaded by the first read that judges a text). */
export const holdsDetector = (moduleIds: readonly string[]): boolean =>
  moduleIds.some((id) => /[\\/]src[\\/]conflict[\\/]judge[\\/]text-detector\.ts$/.test(id))
