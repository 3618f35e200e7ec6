import type { FactStore } from '../../facts/types.js'
import { surfaceOf } from '../surface.js'

/** `mem.facts`: what `FactStore` declares; its `@internal` `FactLookup` methods (hold, holdWhenDue, entry, writeMany, versionsWhere) stay in the worker. */
export const FACTS_SURFACE = surfaceOf<FactStore>('facts', {
  capabilities: 'call',
  policy: 'call',
  write: 'call',
  assert: 'call',
  supersede: 'call',
  delete: 'call',
  retrieve: 'call',
  audit: 'call',
  get: 'call',
  conflicts: 'call',
  flush: 'call',
  verifyProvenance: 'call',
  refresh: 'call',
  subscribe: 'call',
  subscribeConflicts: 'call',
})
