import { describe, expect, test } from 'vitest'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { SyncStore } from '../../src/sync/store.js'
import type { SyncProvider, SyncStatus } from '../../src/sync/index.js'

/**
 * `mem.sync.subscribe()` tells each subscriber a status when it differs from the last one told to
 * that subscriber (issue 31: the sync bench waited forever for `synced` on a replica that was).
 */

const POOL = 'ab'.repeat(16)

/** A link that is in step with the other side at once and carries nothing. */
const inStep: SyncProvider = {
  kind: 'in-step',
  connect: (_pool, _doc, report) => {
    report({ connected: true, synced: true, error: null })
    return { close: () => undefined }
  },
}

describe('sync status subscriptions', () => {
  test('a subscriber that joined during a quiet pass hears `synced` when the pass ends', async () => {
    const store = new SyncStore(memoryStorage())
    try {
      const first: SyncStatus[] = []
      await store.subscribe((s) => first.push(s))
      await store.attach(POOL, inStep)
      await store.flush()
      expect(first.at(-1)?.state).toBe('synced')

      // A pass that changes nothing anyone can see (a compaction): the loop is busy, so `syncing`.
      const compacted = store.compact(POOL)
      const second: SyncStatus[] = []
      await store.subscribe((s) => second.push(s))
      expect(second.at(-1)?.state).toBe('syncing')
      await compacted

      expect((await store.status()).state).toBe('synced')
      // The status after the pass is the one the first subscriber was last told: the second was not told it yet.
      expect(second.at(-1)?.state).toBe('synced')
      expect(first.at(-1)?.state).toBe('synced')
    } finally {
      await store.close()
    }
  })
})
