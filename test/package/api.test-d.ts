// Type tests of the public API, checked by `npm run typecheck` (tsc). They fail the build, not a run.
import { expectTypeOf } from 'vitest'
import type { Remote } from 'comlink'
import { createMemory, openMemory, type FactRef, type FactStore, type Memory, type RemoteMemory } from '../../src/index.js'

// openMemory() gives the same API as createMemory(), plus where it runs.
expectTypeOf<Awaited<ReturnType<typeof openMemory>>>().toEqualTypeOf<RemoteMemory>()
expectTypeOf<RemoteMemory>().toMatchTypeOf<Memory>()
expectTypeOf<Awaited<ReturnType<typeof createMemory>>['facts']>().toEqualTypeOf<FactStore>()
expectTypeOf<RemoteMemory['facts']>().toEqualTypeOf<FactStore>()

// Every FactStore method is async, so a comlink Remote of it has the same call signatures.
type Methods = { [K in keyof FactStore]: FactStore[K] extends (...args: never[]) => Promise<unknown> ? true : false }
expectTypeOf<Methods[keyof Methods]>().toEqualTypeOf<true>()
expectTypeOf<Remote<FactStore>['write']>().parameters.toEqualTypeOf<Parameters<FactStore['write']>>()

// Refs are branded: a plain string is not a FactRef.
expectTypeOf<string>().not.toEqualTypeOf<FactRef>()
expectTypeOf<FactStore['write']>().returns.resolves.toEqualTypeOf<FactRef>()
