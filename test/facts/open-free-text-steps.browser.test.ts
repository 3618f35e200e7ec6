import { expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'

/**
 * Issue 31 (open39), in Chromium: after an open the free-text tallies are counted in steps at
 * background priority (`scheduler.postTask`, which Node lacks). A reopened store on real IndexedDB
 * lists the writer's pairs in the writer's order, whether a read comes before the steps are done
 * or after they have all run.
 */

const NOTES = [
  'The bakery opens at 7am on weekdays.',
  'The ferry to Vashon leaves at 8:15.',
  'The bakery opens at 9am on weekdays.',
  'The ferry to Vashon leaves at 6:40.',
  'The gym closes at 10pm.',
  'The gym closes at 8pm.',
]

const listing = async (s: GmpFactStore): Promise<string[]> => (await s.conflicts()).map((c) => `${c.refs[0]}|${c.refs[1]}`)

test('a reopened store on IndexedDB lists the writer\'s pairs in its order, read at once or after the steps', async () => {
  expect(typeof (globalThis as { scheduler?: { postTask?: unknown } }).scheduler?.postTask).toBe('function')
  const name = `open39-${crypto.randomUUID()}`
  let tick = Date.UTC(2026, 0, 1)
  const now = (): number => (tick += 86_400_000)
  const writer = new GmpFactStore(indexedDbStorage({ name }), { now })
  for (const content of NOTES) await writer.write(content)
  const before = await listing(writer)
  await writer.close()
  expect(before.length).toBeGreaterThanOrEqual(3)
  const atOnce = new GmpFactStore(indexedDbStorage({ name }), { now })
  expect(await listing(atOnce)).toEqual(before)
  await atOnce.close()
  const later = new GmpFactStore(indexedDbStorage({ name }), { now })
  await later.get('none')
  // Past every step: background tasks run in the order posted, after the calls waiting.
  await new Promise((resolve) => setTimeout(resolve, 50))
  expect(await listing(later)).toEqual(before)
  await later.close()
})
