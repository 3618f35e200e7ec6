import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { callsFrom } from '../helpers/work-tally.js'

/**
 * Issue 31 (open31): a cold open of free-text facts fed each one to the slot tally
 * (src/facts/slot-tally.ts) as three Map entries, a record and a key string, though its words are
 * counted only when a flag asks about its name: about a fifth of the open's JavaScript at 100k
 * (Node CPU profile, bench/open-profile.ts). The open now puts a fact in its name's list and
 * nothing by ref. Counted, not timed: Map entries the slot tally puts while an open of 300 and of
 * 3,000 facts loads (main: 900 and 9,000, three a fact).
 */

const NAMES = ['Noor', 'Tomas', 'Abena', 'Lucia', 'Kenji']

/** Calls of Map.prototype.set made by the slot tally's own code while `body` runs. */
const slotTallyMapSets = (body: () => Promise<unknown>): Promise<number> => callsFrom(['slot-tally.ts'], [[Map.prototype, 'set']], body)

async function openOf(size: number): Promise<number> {
  const storage = memoryStorage()
  await storage.open()
  let tick = Date.UTC(2025, 0, 1)
  const writer = new GmpFactStore(storage, { now: () => (tick += 1000) })
  await writer.writeMany(Array.from({ length: size }, (_, i) => ({ content: `${NAMES[i % NAMES.length]} kept note ${i} about the garden.` })))
  await writer.close()
  const reader = new GmpFactStore(storage, { now: () => (tick += 1000) })
  const sets = await slotTallyMapSets(() => reader.get('nothing'))
  await reader.close()
  return sets
}

// open39: the free-text tallies are counted on timers after the open; held here, so only the open's own work is counted.
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }))
afterEach(() => void vi.useRealTimers())

test('an open puts no slot-tally entry per fact: the same Map entries at 300 and 3,000 facts', async () => {
  const small = await openOf(300)
  const large = await openOf(3_000)
  // At most one list a name (none since open39: the first read of a conflict counts them, open-free-text-tally-cost.test.ts).
  expect(small).toBeLessThanOrEqual(NAMES.length)
  expect(large).toBe(small)
})
