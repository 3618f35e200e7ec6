import type { ArtifactStore } from './types.js'

/** Every ArtifactStore method: all async, with structured-cloneable arguments and results. */
export const ARTIFACT_STORE_METHODS = [
  'create', 'commit', 'read', 'list', 'search', 'merge', 'log', 'history', 'import', 'flush', 'refresh',
] as const satisfies ReadonlyArray<keyof ArtifactStore>

/**
 * The ArtifactStore methods of `target` as a plain object of functions: the worker exposes a
 * store through it (nothing else of the store crosses), and the page wraps the comlink proxy with
 * it (a `Remote<ArtifactStore>` has the same call signatures, every method being async).
 */
export function artifactStoreMethods(target: ArtifactStore): ArtifactStore {
  const out: Record<string, unknown> = {}
  for (const name of ARTIFACT_STORE_METHODS) {
    out[name] = (...args: unknown[]) => (target[name] as (...a: unknown[]) => Promise<unknown>)(...args)
  }
  return out as unknown as ArtifactStore
}
