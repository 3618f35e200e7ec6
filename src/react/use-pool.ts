import { useMemo, useSyncExternalStore } from 'react'
import type { Memory } from '../memory.js'
import type { PoolSnapshot, QueryOptions } from '../pools/types.js'
import { LiveSource, type Live } from './live-source.js'
import { optionsKey } from './use-retrieve.js'

/**
 * A pool, live (`memory.pools.subscribe`): its header (name, owner, members, size, your rights)
 * and its memories as `pools.query(poolId, options)` lists them, again after each change of the
 * pool here, in another tab or from a synced device. Showing a pool is not reading it: the hook
 * counts no read and consumes no EPHEMERAL memory (call `pools.query` or `pools.get` for that).
 *
 * @param memory The memory (from `useMemory` or `openMemory`), or null.
 * @param poolId The pool's id, or null for none yet.
 * @param options What `pools.query` takes (type, subject, limit, orderBy...), compared by value.
 * @returns `{ data, error, loading }`: `data` `{ info, memories }`; `error` a MemweaveError
 *   (NOT_FOUND, PERMISSION_DENIED for a pool this identity may not read, INVALID_ARGUMENT) or null.
 * @example
 * function Team({ memory, poolId }: { memory: RemoteMemory; poolId: string }) {
 *   const { data } = usePool(memory, poolId, { limit: 20 })
 *   return <ul title={data?.info.name ?? ''}>{data?.memories.map((m) => <li key={m.id}>{String(m.content.object)}</li>)}</ul>
 * }
 */
export function usePool(memory: Pick<Memory, 'pools'> | null | undefined, poolId: string | null, options: QueryOptions = {}): Live<PoolSnapshot> {
  const key = optionsKey(options)
  const source = useMemo(
    () => new LiveSource<PoolSnapshot>(memory && poolId !== null ? (push) => memory.pools.subscribe(poolId, options, push) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [memory, poolId, key],
  )
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot)
}
