import type { Sync } from '../../sync/types.js'
import { surfaceOf } from '../surface.js'

/** `mem.sync`: what `Sync` declares, but `attach` and `close`. */
export const SYNC_SURFACE = surfaceOf<Sync>('sync', {
  open: 'call',
  connect: 'call',
  // A provider is an object with methods: it cannot be cloned into the worker (in-process only, see Sync.attach).
  attach: false,
  disconnect: 'call',
  stop: 'call',
  status: 'call',
  subscribe: 'call',
  quarantine: 'call',
  compact: 'call',
  flush: 'call',
  // As small.close: one page must not stop the replica every tab shares.
  close: false,
})
