import type { Pools } from '../../pools/types.js'
import { surfaceOf } from '../surface.js'

/** `mem.pools`: what `Pools` declares. */
export const POOLS_SURFACE = surfaceOf<Pools>('pools', {
  create: 'call',
  info: 'call',
  list: 'call',
  access: 'call',
  share: 'call',
  revoke: 'call',
  configure: 'call',
  write: 'call',
  update: 'call',
  get: 'call',
  status: 'call',
  query: 'call',
  merge: 'call',
  forget: 'call',
  forgotten: 'call',
  rate: 'call',
  conflicts: 'call',
  conflictGroups: 'call',
  resolve: 'call',
  sweep: 'call',
  export: 'call',
  import: 'call',
  flush: 'call',
  subscribe: 'call',
})
