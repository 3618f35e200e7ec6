import { createMemory, type CreateMemoryOptions } from '../../src/index.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import type { ConformanceSession, ConformanceStore, SessionFactory } from '../../src/conformance/index.js'

/** Fresh memweave stores on shared in-memory storage; the second session is another Memory on it. */
export function memorySessions(options: Omit<CreateMemoryOptions, 'storage'> = {}, wrap?: (s: ConformanceStore) => ConformanceStore): SessionFactory {
  return async (): Promise<ConformanceSession> => {
    const storage = memoryStorage()
    const mem = await createMemory({ ...options, storage })
    const others: Array<{ close(): Promise<void> }> = []
    const w = wrap ?? ((s) => s)
    return {
      store: w(mem.facts),
      async secondSession() {
        const other = await createMemory({ ...options, storage })
        others.push(other)
        return w(other.facts)
      },
      async close() {
        await mem.close()
        for (const o of others) await o.close()
      },
    }
  }
}

/** Fresh memweave stores on IndexedDB (real in a browser, or an injected factory); one database per session. */
export function indexedDbSessions(options: Omit<CreateMemoryOptions, 'storage' | 'name'> = {}): SessionFactory {
  let n = 0
  return async (): Promise<ConformanceSession> => {
    const name = `conformance-${Date.now()}-${n++}-${Math.random().toString(36).slice(2)}`
    const mem = await createMemory({ ...options, storage: 'indexeddb', name })
    const others: Array<{ close(): Promise<void> }> = []
    return {
      store: mem.facts,
      async secondSession() {
        const other = await createMemory({ ...options, storage: 'indexeddb', name })
        others.push(other)
        return other.facts
      },
      async close() {
        await mem.close()
        for (const o of others) await o.close()
      },
    }
  }
}
