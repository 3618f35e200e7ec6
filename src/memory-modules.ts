/**
 * The protocol modules of a Memory, by property name: what the worker runtime exposes. Kept apart
 * from memory.ts so the page-side client does not pull the stores into its bundle.
 */
export const MEMORY_MODULES = ['facts', 'pools', 'working', 'small', 'artifacts', 'sync'] as const
export type MemoryModule = (typeof MEMORY_MODULES)[number]
