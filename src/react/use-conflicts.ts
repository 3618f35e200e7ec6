import { useMemo, useSyncExternalStore } from 'react'
import type { ConflictsOptions, FactConflict } from '../facts/types.js'
import type { Memory } from '../memory.js'
import { LiveSource, type Live } from './live-source.js'
import { optionsKey } from './use-retrieve.js'

/**
 * The memory's current fact conflicts, live (`facts.subscribeConflicts`): the pairs
 * `facts.conflicts(options)` lists, again after each write here, in another tab or from a synced
 * device that changes them (a contradiction written, superseded, deleted). Conflicts are flagged,
 * never merged: resolving one is the app's call (supersede or delete one side).
 *
 * @param memory The memory (from `useMemory` or `openMemory`), or null.
 * @param options What `facts.conflicts` takes (tenantId, limit, minConfidence), compared by value.
 * @returns `{ data, error, loading }`: `data` the pairs; `error` a MemweaveError (INVALID_ARGUMENT
 *   for bad options, CAPABILITY_NOT_SUPPORTED without CONFLICT_DETECTION) or null.
 * @example
 * function Conflicts({ memory }: { memory: RemoteMemory }) {
 *   const { data = [] } = useConflicts(memory)
 *   return <p>{data.length} facts contradict each other</p>
 * }
 */
export function useConflicts(memory: Pick<Memory, 'facts'> | null | undefined, options: ConflictsOptions = {}): Live<FactConflict[]> {
  const key = optionsKey(options)
  const source = useMemo(
    () => new LiveSource<FactConflict[]>(memory ? (push) => memory.facts.subscribeConflicts(options, push) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [memory, key],
  )
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot)
}
