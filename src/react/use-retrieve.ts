import { useMemo, useSyncExternalStore } from 'react'
import type { FactMemory, RetrieveOptions } from '../facts/types.js'
import type { Memory } from '../memory.js'
import { LiveSource, type Live } from './live-source.js'

/**
 * A live `retrieve`: the memories `memory.facts.retrieve(query, options)` returns, kept current
 * through `facts.subscribe`: a write from this tab, another tab or a synced device that changes
 * the result re-renders the component (the query is re-run in the worker, and only a changed
 * result crosses to the page). `memory` may be null while `useMemory` opens it. The subscription
 * is renewed when `memory`, `query` or the options' values change, and stopped on unmount, also
 * when it was still being set up then.
 *
 * @param memory The memory (from `useMemory` or `openMemory`), or null.
 * @param query What `facts.retrieve` takes.
 * @param options What `facts.retrieve` takes (budgetTokens, topK, tenantId, asOf).
 * @returns `{ data, error, loading }`: `data` the memories, undefined until the first result;
 *   `error` a MemweaveError (INVALID_ARGUMENT for a bad query or options, CLOSED) or null.
 * @example
 * function Preferences({ memory }: { memory: RemoteMemory }) {
 *   const { data } = useRetrieve(memory, 'user preferences', { topK: 5 })
 *   return <ul>{data?.map((m) => <li key={m.ref}>{m.content}</li>)}</ul>
 * }
 */
export function useRetrieve(memory: Pick<Memory, 'facts'> | null | undefined, query: string, options: RetrieveOptions = {}): Live<FactMemory[]> {
  const key = optionsKey(options)
  const source = useMemo(
    () => new LiveSource<FactMemory[]>(memory ? (push) => memory.facts.subscribe(query, options, push) : null),
    // The options are compared by value: an inline object does not renew the subscription.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [memory, query, key],
  )
  return useSyncExternalStore(source.subscribe, source.getSnapshot, source.getSnapshot)
}

/** Options compared by value (plain data: numbers, strings, a Date). */
export function optionsKey(options: unknown): string {
  return JSON.stringify(options ?? null)
}
