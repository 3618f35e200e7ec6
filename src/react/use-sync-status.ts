import { useMemo, useSyncExternalStore } from 'react'
import type { Memory } from '../memory.js'
import type { SyncStatus } from '../sync/types.js'
import { LiveSource, type Live } from './live-source.js'

/**
 * The memory's replication status (`memory.sync.subscribe`): the worst state over its pools
 * (`offline`, `connected`, `syncing`, `synced`), what is pending each way, and each pool's links
 * and last error. Re-renders on every change; stops listening on unmount.
 *
 * @param memory The memory (from `useMemory` or `openMemory`), or null.
 * @returns `{ data, error, loading }`: `data` the SyncStatus, undefined until the first one.
 * @example
 * function SyncBadge({ memory }: { memory: RemoteMemory }) {
 *   const { data } = useSyncStatus(memory)
 *   return <span>{data ? `${data.state}, ${data.pending.outgoing} to send` : '…'}</span>
 * }
 */
export function useSyncStatus(memory: Pick<Memory, 'sync'> | null | undefined): Live<SyncStatus> {
  const source = useMemo(() => new LiveSource<SyncStatus>(memory ? (push) => memory.sync.subscribe(push) : null), [memory])
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot)
}
