// Type tests of memweave/ai (issue 29), checked by `npm run typecheck` (tsc).
import { wrapLanguageModel, type LanguageModelMiddleware } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { expectTypeOf } from 'vitest'
import { memoryMiddleware, memoryTools, type MiddlewareMemory, type ToolFailure, type ToolMemory } from '../../src/ai/index.js'
import type { Memory, RemoteMemory } from '../../src/index.js'

// The middleware is what wrapLanguageModel takes, over either kind of memory.
expectTypeOf(memoryMiddleware).returns.toEqualTypeOf<LanguageModelMiddleware>()
expectTypeOf<Memory>().toMatchTypeOf<MiddlewareMemory>()
expectTypeOf<RemoteMemory>().toMatchTypeOf<MiddlewareMemory>()
declare const mem: RemoteMemory
wrapLanguageModel({ model: new MockLanguageModelV3(), middleware: memoryMiddleware(mem, { recall: { budgetTokens: 800 }, remember: false }) })
// @ts-expect-error recall takes options or false, not true
memoryMiddleware(mem, { recall: true })

// The tools' refusal names its error in one object.
expectTypeOf<ToolFailure['error']['code']>().toEqualTypeOf<string>()
expectTypeOf<ToolFailure['error']['hint']>().toEqualTypeOf<string | undefined>()
expectTypeOf<RemoteMemory>().toMatchTypeOf<ToolMemory>()
memoryTools(mem, { includeUnmatched: true })
