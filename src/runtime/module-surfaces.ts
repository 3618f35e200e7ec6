import type { MemoryModule } from '../memory-modules.js'
import type { HandleSurface } from './surface.js'
import { FACTS_SURFACE } from './surfaces/facts.js'

/**
 * The surface of each module of a Memory (surface.ts), by the name it has on Memory. Facts is in
 * every worker; the others load with their module's first call, so that a facts-only worker does
 * not carry the names of modules it never loads (its bundle budget: test/package/bundle-size.test.ts).
 */
export const MODULE_SURFACES: { readonly [K in MemoryModule]: () => Promise<HandleSurface> } = {
  facts: () => Promise.resolve(FACTS_SURFACE),
  pools: async () => (await import('./surfaces/pools.js')).POOLS_SURFACE,
  working: async () => (await import('./surfaces/working.js')).WORKING_SURFACE,
  small: async () => (await import('./surfaces/small.js')).SMALL_SURFACE,
  artifacts: async () => (await import('./surfaces/artifacts.js')).ARTIFACTS_SURFACE,
  sync: async () => (await import('./surfaces/sync.js')).SYNC_SURFACE,
}
