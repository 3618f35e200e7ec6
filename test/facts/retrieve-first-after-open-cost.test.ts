import { afterEach, expect, test, vi } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { PriorOrder } from '../../src/facts/prior-order.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { counting, sorted, type Tally } from '../helpers/work-tally.js'

/**
 * Issue 31 (prior31): the first retrieve after an open built the heads' order by importance and
 * recency (`PriorOrder.of`, one pass over every current fact) and, when the load left the write
 * order unsorted, the write order too (`timeOrder`, a radix sort of every write time): one query
 * per open whose cost grew with the store (100-160 ms at a million facts in Chromium, the p95 of
 * retrieve). Both are now built at the end of the open's load, which reads every fact anyway.
 * Counted, not timed: the first retrieve after an open of 150 facts and of 1,500 does the same
 * work (none of either build), and its answers are those of a second retrieve.
 */

let tally: Tally = new Map()
const now = (): Tally => tally
const timeOrderCalls = vi.hoisted(() => ({ times: 0 }))
vi.mock('../../src/facts/time-order.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/facts/time-order.js')>()
  return {
    ...real,
    timeOrder: (times: Float64Array) => {
      timeOrderCalls.times += times.length
      return real.timeOrder(times)
    },
  }
})

let restore: () => void = () => undefined
afterEach(() => restore())

async function firstRetrieveAfterOpen(size: number): Promise<{ work: Array<[string, number]>; first: string[]; second: string[] }> {
  const storage = memoryStorage()
  await storage.open()
  let tick = Date.UTC(2025, 0, 1)
  const writer = new GmpFactStore(storage, { now: () => (tick += 1000), lexicalSnapshotMin: 0 })
  // Importances in several groups and out of write order, texts mostly unmatched by the query: the answer reads the zero-score tail.
  await writer.writeMany(Array.from({ length: size }, (_, i) => ({
    content: i < 150 && i % 50 === 0 ? `lemon cake ${size} ${i}` : `filler ${size} ${i}`,
    options: { metadata: { importance: (i * 7) % 5 } },
  })))
  await writer.close()
  const reader = new GmpFactStore(storage, { now: () => (tick += 1000), lexicalSnapshotMin: 0 })
  // The open's load (any call registers the store and loads every fact); not counted.
  expect(await reader.get('nothing')).toBeNull()
  tally = new Map()
  timeOrderCalls.times = 0
  restore = counting(PriorOrder as unknown as Record<string, unknown>, 'of', now, (args) => (args[0] as unknown[]).length, 'PriorOrder.of: versions')
  const first = (await reader.retrieve('lemon cake', { budgetTokens: 400 })).map((m) => m.ref)
  restore()
  restore = () => undefined
  if (timeOrderCalls.times > 0) tally.set('timeOrder: times', timeOrderCalls.times)
  const second = (await reader.retrieve('lemon cake', { budgetTokens: 400 })).map((m) => m.ref)
  await reader.close()
  return { work: sorted(tally), first, second }
}

test('the first retrieve after an open builds no order over the store: the same work at 150 and 1,500 facts', async () => {
  const small = await firstRetrieveAfterOpen(150)
  const large = await firstRetrieveAfterOpen(1_500)
  // Answers past the matches (the query matches 3 facts at both sizes; the budget reads the tail).
  expect(small.first.length).toBeGreaterThan(3)
  expect(large.first.length).toBeGreaterThan(3)
  expect(small.first).toEqual(small.second)
  expect(large.first).toEqual(large.second)
  expect(large.work).toEqual(small.work)
})
