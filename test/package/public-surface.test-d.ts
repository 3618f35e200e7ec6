// Type tests of the worker boundary's allow-lists (src/runtime/surface.ts, surfaces/), checked by
// `npm run typecheck` (tsc): a list must name every member of its public interface and nothing else.
import type { FactStore } from '../../src/facts/types.js'
import { surfaceOf, type Surface } from '../../src/runtime/surface.js'
import type { SharedWorkingMemory } from '../../src/working/types.js'

const everyFactMethod = {
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
} as const satisfies Surface<FactStore>

// A method added to FactStore without an entry (here: one left out) fails the typecheck.
const { verifyProvenance: _left, ...missingOne } = everyFactMethod
// @ts-expect-error verifyProvenance is missing
void (missingOne satisfies Surface<FactStore>)

// An @internal method of the store is not in FactStore: listing it is an error too.
// @ts-expect-error hold is not a member of FactStore
void ({ ...everyFactMethod, hold: 'call' } as const satisfies Surface<FactStore>)

// A handle's plain properties are listed as data; the list cannot leave them out either.
// @ts-expect-error taskId and config are missing
void ({ addObservation: 'call' } as const satisfies Surface<SharedWorkingMemory>)

// The same through surfaceOf, as src/runtime/surfaces/ writes the lists.
surfaceOf<FactStore>('facts', everyFactMethod)
// @ts-expect-error verifyProvenance is missing
surfaceOf<FactStore>('facts', missingOne)
// @ts-expect-error writeMany is @internal (FactLookup), not a member of FactStore
surfaceOf<FactStore>('facts', { ...everyFactMethod, writeMany: 'call' })
