// Type tests of mem.sync, checked by `npm run typecheck` (tsc).
import { expectTypeOf } from 'vitest'
import type { Remote } from 'comlink'
import type { Memory, RemoteMemory, Sync, SyncStatus } from '../../src/index.js'

expectTypeOf<Memory['sync']>().toEqualTypeOf<Sync>()
expectTypeOf<RemoteMemory['sync']>().toEqualTypeOf<Sync>()

// Every method is async, so the worker's comlink Remote of it has the same call signatures.
type Methods = { [K in keyof Sync]: Sync[K] extends (...args: never[]) => Promise<unknown> ? true : false }
expectTypeOf<Methods[keyof Methods]>().toEqualTypeOf<true>()
expectTypeOf<Remote<Sync>['status']>().returns.resolves.toEqualTypeOf<SyncStatus>()
expectTypeOf<Sync['subscribe']>().parameter(0).toEqualTypeOf<(status: SyncStatus) => void>()
