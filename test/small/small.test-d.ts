// Type tests of mem.small's public API, checked by `npm run typecheck` (tsc).
import { expectTypeOf } from 'vitest'
import type { Remote } from 'comlink'
import { createMemory, type PlanDoc, type ProgressEntry, type SmallDocument, type SmallStore } from '../../src/index.js'

type Mem = Awaited<ReturnType<typeof createMemory>>
// createMemory() always has mem.small (openMemory's worker client does not carry it yet).
expectTypeOf<Mem['small']>().toEqualTypeOf<SmallStore>()
expectTypeOf<SmallStore['get']>().toBeFunction()
declare const small: SmallStore
expectTypeOf(small.get('plan')).resolves.toEqualTypeOf<SmallDocument<'plan'> | null>()
expectTypeOf<SmallDocument<'plan'>['data']>().toEqualTypeOf<PlanDoc>()
expectTypeOf(small.appendProgress).returns.resolves.toEqualTypeOf<ProgressEntry>()
// @ts-expect-error not a SMALL document
void small.get('readme')

// Every method is async with cloneable arguments, so a comlink Remote has the same call signatures.
type Methods = { [K in keyof SmallStore]: SmallStore[K] extends (...args: never[]) => Promise<unknown> ? true : false }
expectTypeOf<Methods[keyof Methods]>().toEqualTypeOf<true>()
expectTypeOf<Remote<SmallStore>['validate']>().parameters.toEqualTypeOf<Parameters<SmallStore['validate']>>()
