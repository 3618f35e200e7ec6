// Type-checked by e2e/consumer-react.spec.ts in a browser project: memweave/react as an app uses it.
import { createElement, type ReactElement } from 'react'
import type { FactConflict, FactMemory, PoolMemory, RemoteMemory, SyncState } from 'memweave'
import { useConflicts, useMemory, usePool, useRetrieve, useSyncStatus, type Live, type MemoryState } from 'memweave/react'

export function Notes(): ReactElement {
  const state: MemoryState = useMemory({ name: 'my-app', workerTimeoutMs: 5_000 })
  const memory: RemoteMemory | null = state.memory
  const hits: Live<FactMemory[]> = useRetrieve(memory, 'standup notes', { topK: 5 })
  const conflicts: FactConflict[] | undefined = useConflicts(memory, { minConfidence: 0.8 }).data
  const sync: SyncState | undefined = useSyncStatus(memory).data?.state
  const team: readonly PoolMemory[] | undefined = usePool(memory, 'f'.repeat(32), { limit: 20 }).data?.memories
  if (state.status === 'failed') return createElement('p', null, String(state.error))
  return createElement('ul', { title: `${conflicts?.length ?? 0} conflicts, ${team?.length ?? 0} in the pool, ${sync ?? '…'}` }, hits.data?.map((m) => createElement('li', { key: m.ref }, m.content)))
}
