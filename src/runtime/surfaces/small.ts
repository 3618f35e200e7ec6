import type { SmallStore } from '../../small/store-api.js'
import { surfaceOf } from '../surface.js'

/** `mem.small`: what `SmallStore` declares, but `close`. */
export const SMALL_SURFACE = surfaceOf<SmallStore>('small', {
  get: 'call',
  put: 'call',
  appendProgress: 'call',
  handoff: 'call',
  validate: 'call',
  import: 'call',
  export: 'call',
  replayId: 'call',
  conflicts: 'call',
  projects: 'call',
  flush: 'call',
  // The worker's memory is shared by every tab that opened it: the page closes it with mem.close().
  close: false,
})
