import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { callsFrom } from '../helpers/work-tally.js'

/**
 * Issue 31 (open39): a cold open counted every free-text fact in the subject tally (a Map entry
 * by ref, its name read from the text), listed it for the slot tally and queued it for the
 * free-text comparison (a Set entry): about 13% of the open's CPU at 100k (Node profile,
 * bench/open-profile.ts), before any conflict was asked for. The open now leaves all three to the
 * first read of a conflict. Counted, not timed: Map and Set entries those modules put while an
 * open of 300 and of 3,000 facts loads (main: about two a fact), then while the first read of a conflict reads.
 */

const NAMES = ['Ingrid', 'Haruto', 'Folake', 'Mateus', 'Yusra']
const TALLIES = ['subject-tally.ts', 'slot-tally.ts', 'free-text-conflicts.ts']

/** Calls of Map.prototype.set and Set.prototype.add made by the tallies' own code while `body` runs. */
const tallyEntries = (body: () => Promise<unknown>): Promise<number> => callsFrom(TALLIES, [[Map.prototype, 'set'], [Set.prototype, 'add']], body)

async function openOf(size: number): Promise<{ open: number; firstRead: number }> {
  const storage = memoryStorage()
  await storage.open()
  let tick = Date.UTC(2025, 0, 1)
  const writer = new GmpFactStore(storage, { now: () => (tick += 1000) })
  const refs = await writer.writeMany(Array.from({ length: size }, (_, i) => ({ content: `${NAMES[i % NAMES.length]} planted row ${i} of the allotment.` })))
  await writer.close()
  const reader = new GmpFactStore(storage, { now: () => (tick += 1000) })
  const open = await tallyEntries(() => reader.get('nothing'))
  // One fact's conflicts: judged against its neighbours, with every fact counted first.
  const firstRead = await tallyEntries(() => reader.get(refs[0]!))
  await reader.close()
  return { open, firstRead }
}

// The catch-up's steps run on timers after the open (catchUpSoon): held here, so what is counted is
// the open's own work, then the read's.
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }))
afterEach(() => void vi.useRealTimers())

test('an open puts no free-text tally or queue entry per fact; the first read of a conflict counts them', async () => {
  const small = await openOf(300)
  const large = await openOf(3_000)
  expect(large.open).toBe(small.open)
  // Moved, not dropped: the first read of a conflict counts each fact and queues it.
  expect(small.firstRead).toBeGreaterThanOrEqual(2 * 300)
  expect(large.firstRead).toBeGreaterThanOrEqual(2 * 3_000)
})
