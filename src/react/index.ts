// The React entry of memweave ('memweave/react'): hooks over openMemory and the memory's live
// queries. It needs the optional peer dependency `react` (18 or later); the main entry carries none of it.
export { useMemory } from './use-memory.js'
export { useRetrieve } from './use-retrieve.js'
export { useConflicts } from './use-conflicts.js'
export { usePool } from './use-pool.js'
export { useSyncStatus } from './use-sync-status.js'

export type { MemoryState } from './use-memory.js'
export type { Live } from './live-source.js'
