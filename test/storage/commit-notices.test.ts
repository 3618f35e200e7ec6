import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createMemory } from '../../src/memory.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { noticeChannelName, UNHEARD_NOTICE_MS } from '../../src/storage/commit-notices.js'

// Issue 31 (seventh round): a commit's notice to the origin's other handles (a BroadcastChannel
// message) cost an awaited single write in Chromium about 0.15 ms of its 1.2. A handle alone on its
// database (one SharedWorker for every tab) now posts none per commit; a handle of this build that
// watches says so and is told of each commit at once; one that never says so (an older build's
// reader) still hears, at most a second late. Timers and Date are faked: no figure here depends on speed.

const factory = () => ({ indexedDB: new IDBFactory(), IDBKeyRange })

/** Counts the commit notices posted on `name`'s channel, by any handle of this process. */
function countNotices(name: string): { readonly committed: () => number; restore: () => void } {
  const proto = BroadcastChannel.prototype
  const post = proto.postMessage
  let committed = 0
  proto.postMessage = function (this: BroadcastChannel, message: unknown) {
    if (this.name === noticeChannelName(name) && (message as { type?: string } | null)?.type === 'committed') committed++
    return post.call(this, message)
  }
  return { committed: () => committed, restore: () => void (proto.postMessage = post) }
}

/** Resolves on the next message of `type` heard on `channel`. */
const next = (channel: BroadcastChannel, type: string): Promise<void> =>
  new Promise((resolve) => {
    const hear = (e: MessageEvent): void => {
      if ((e.data as { type?: string }).type !== type) return
      channel.removeEventListener('message', hear)
      resolve()
    }
    channel.addEventListener('message', hear)
  })

afterEach(() => void vi.useRealTimers())

describe('commit notices on an IndexedDB database', () => {
  test('a handle alone posts one notice for 100 awaited writes (main: 100); a listener that never says so still hears the rest after a second', async () => {
    const name = `notices-alone-${crypto.randomUUID()}`
    const mem = await createMemory({ storage: indexedDbStorage({ name, ...factory() }) })
    await mem.facts.write('The first write marks the store and announces itself')
    // A handle of an older build: it listens on the channel and never says so.
    const older = new BroadcastChannel(noticeChannelName(name))
    const counted = countNotices(name)
    try {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
      vi.setSystemTime(Date.now() + 10 * UNHEARD_NOTICE_MS)
      for (let i = 0; i < 100; i++) await mem.facts.write(`Awaited note ${i} on the release checklist`)
      expect(counted.committed()).toBe(1)
      const heard = next(older, 'committed')
      vi.advanceTimersByTime(UNHEARD_NOTICE_MS)
      expect(counted.committed()).toBe(2)
      await heard
      expect((await mem.facts.audit()).length).toBe(101)
    } finally {
      counted.restore()
      older.close()
      vi.useRealTimers()
      await mem.close()
    }
  })

  test('a handle of this build that watches is told of every commit at once, with no timer', async () => {
    const name = `notices-peer-${crypto.randomUUID()}`
    const deps = factory()
    const mem = await createMemory({ storage: indexedDbStorage({ name, ...deps }) })
    await mem.facts.write('Written before the other handle opens')
    const other = indexedDbStorage({ name, ...deps })
    let heard = 0
    let wake: () => void = () => undefined
    const unwatch = other.watch(() => {
      heard++
      wake()
    })
    const counted = countNotices(name)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      for (let i = 0; i < 20; i++) {
        const before = heard
        const told = new Promise<void>((resolve) => (wake = resolve))
        await mem.facts.write(`Note ${i} another tab shows live`)
        // Fake timers never fire here: only a notice posted with the commit wakes this.
        if (heard === before) await told
      }
      expect(heard).toBeGreaterThanOrEqual(20)
      expect(counted.committed()).toBeGreaterThanOrEqual(20)
    } finally {
      counted.restore()
      unwatch()
      vi.useRealTimers()
      await other.close()
      await mem.close()
    }
  })

  test('a handle that starts watching after unannounced commits is told of them at once', async () => {
    const name = `notices-late-${crypto.randomUUID()}`
    const deps = factory()
    const mem = await createMemory({ storage: indexedDbStorage({ name, ...deps }) })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const other = indexedDbStorage({ name, ...deps })
    try {
      for (let i = 0; i < 5; i++) await mem.facts.write(`Note ${i} before anyone else listens`)
      // The later commits wait for a timer that never fires; a handle that says it watches is told now.
      await new Promise<void>((resolve) => other.watch(resolve))
      await other.open()
      expect(await other.read(['records'], (tx) => tx.count('records'))).toBe(5)
    } finally {
      vi.useRealTimers()
      await other.close()
      await mem.close()
    }
  })
})
