// Type tests of memweave/react, checked by `npm run typecheck` (tsc).
import { expectTypeOf } from 'vitest'
import type { FactConflict, FactMemory, PoolSnapshot, RemoteMemory, SyncStatus } from '../../src/index.js'
import { useConflicts, useMemory, usePool, useRetrieve, useSyncStatus, type Live, type MemoryState } from '../../src/react/index.js'

expectTypeOf(useMemory).returns.toEqualTypeOf<MemoryState>()
// Narrowed by status: an open state holds the memory, a failed one the error.
declare const state: MemoryState
if (state.status === 'open') expectTypeOf(state.memory).toEqualTypeOf<RemoteMemory>()
if (state.status === 'opening') expectTypeOf(state.memory).toEqualTypeOf<null>()

// The live hooks take the memory (or null while it opens) and return Live<what the memory's call returns>.
expectTypeOf(useRetrieve).parameter(0).toEqualTypeOf<Pick<RemoteMemory, 'facts'> | null | undefined>()
expectTypeOf(useRetrieve).returns.toEqualTypeOf<Live<FactMemory[]>>()
expectTypeOf(useConflicts).returns.toEqualTypeOf<Live<FactConflict[]>>()
expectTypeOf(usePool).returns.toEqualTypeOf<Live<PoolSnapshot>>()
expectTypeOf(useSyncStatus).returns.toEqualTypeOf<Live<SyncStatus>>()
expectTypeOf<Live<number>['data']>().toEqualTypeOf<number | undefined>()
