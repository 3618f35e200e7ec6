import { expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { callsFrom } from '../helpers/work-tally.js'

/**
 * Issue 31 (open37): an open from the lexical snapshot put each restored ref in a Map of refs not
 * yet attached, then, as each version attached, deleted it there and set it again in the index's
 * lookup under the version's own string: three Map writes a fact, 15% of the open's JavaScript at
 * 100k (Node CPU profile, bench/open-profile.ts). The restored refs are now the lookup's keys and
 * an attach only reads. Counted, not timed: Map writes (set, delete) made by the lexical index's
 * own code while an open of 300 and of 3,000 facts loads (main: three a fact).
 */

/** Calls of Map.prototype.set and .delete made by lexical-index.ts while `body` runs. */
const lexicalMapWrites = (body: () => Promise<unknown>): Promise<number> => callsFrom(['lexical-index.ts'], [[Map.prototype, 'set'], [Map.prototype, 'delete']], body)

async function openOf(size: number): Promise<{ writes: number; found: string[] }> {
  const storage = memoryStorage()
  await storage.open()
  let tick = Date.UTC(2025, 0, 1)
  // A snapshot at any size, so both opens restore from one.
  const writer = new GmpFactStore(storage, { now: () => (tick += 1000), lexicalSnapshotMin: 0 })
  // Distinct words per fact, so the vocabulary (a Map entry a term at restore) grows with the store as the refs do.
  await writer.writeMany(Array.from({ length: size }, (_, i) => ({ content: `note ${i} on the orchard, row ${i % 7}` })))
  await writer.close()
  const reader = new GmpFactStore(storage, { now: () => (tick += 1000), lexicalSnapshotMin: 0 })
  const writes = await lexicalMapWrites(() => reader.get('nothing'))
  // The first retrieve after the open answers from the restored index.
  const found = (await reader.retrieve(`note ${size - 1} orchard`, { budgetTokens: 300 })).map((m) => m.content)
  await reader.close()
  return { writes, found }
}

test('an open from the lexical snapshot writes one Map entry a restored ref and term, none per attach', async () => {
  const small = await openOf(300)
  const large = await openOf(3_000)
  // `note i` is a term of its own: a ref and a term a fact, and the shared words once (main: two more a fact, the attach's delete and set).
  expect(small.writes - 2 * 300).toBeLessThan(20)
  expect(large.writes - 2 * 3_000).toBe(small.writes - 2 * 300)
  expect(small.found[0]).toBe('note 299 on the orchard, row 5')
  expect(large.found[0]).toBe('note 2999 on the orchard, row 3')
})
