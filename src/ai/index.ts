// The agent-framework entry of memweave ('memweave/ai'): memory tools and a memory middleware for the Vercel AI SDK. It needs
// the optional peer dependency `ai` (npm install ai); it runs wherever the memory does (page, worker, Node).
export { memoryTools, MEMORY_TOOL_NAMES } from './tools.js'
export { llmConflictJudge } from './conflict-judge.js'
export { memoryMiddleware } from './memory-middleware.js'

export type { LlmConflictJudgeOptions } from './conflict-judge.js'
export type { MemoryMiddlewareOptions, MemoryRecallOptions, MemoryRememberOptions, MemoryStep, MiddlewareMemory } from './memory-middleware.js'
export type { ConflictJudge, JudgeVerdict } from '../conflict-judge/types.js'
export type { MemoryToolName, MemoryToolsOptions, ToolFailure, ToolMemory } from './tools.js'
