import type { ArtifactStore } from '../../artifacts/types.js'
import { surfaceOf } from '../surface.js'

/** `mem.artifacts`: what `ArtifactStore` declares. */
export const ARTIFACTS_SURFACE = surfaceOf<ArtifactStore>('artifacts', {
  create: 'call',
  commit: 'call',
  read: 'call',
  list: 'call',
  search: 'call',
  merge: 'call',
  log: 'call',
  history: 'call',
  import: 'call',
  flush: 'call',
  refresh: 'call',
})
