import { describe, expect, test, vi } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoragePort } from '../../src/storage/port.js'

/**
 * Issue 31 (open39): an open no longer counts each free-text fact for the subject and slot tallies
 * nor queues it for the free-text comparison; the first read of a conflict does both, once, from
 * the current facts in write order. What must not change: the conflicts a store lists, in the
 * same order, before and after a reopen, and the flags read through a fact after it.
 */

/** Pairs that contradict, each told by a person named at the start (hubs for the tally), written apart. */
const NOTES = [
  'Marisol parks the van on Elm Street.',
  'The bakery opens at 7am on weekdays.',
  'Marisol keeps the spare key under the blue pot.',
  'The ferry to Vashon leaves at 8:15.',
  'Marisol waters the ferns on Sundays.',
  'The bakery opens at 9am on weekdays.',
  'The ferry to Vashon leaves at 6:40.',
  'Marisol parks the van on Birch Street.',
  'The gym closes at 10pm.',
  'Marisol keeps the spare key in the mailbox.',
  'The gym closes at 8pm.',
  'Marisol waters the ferns on Mondays.',
  'The quarterly report is due on March 3.',
  'The quarterly report is due on March 10.',
]

const storeOn = (storage: StoragePort, tick: { t: number }): GmpFactStore => new GmpFactStore(storage, { now: () => (tick.t += 86_400_000) })

async function written(): Promise<{ storage: StoragePort; tick: { t: number }; refs: string[] }> {
  const storage = memoryStorage()
  await storage.open()
  const tick = { t: Date.UTC(2026, 0, 1) }
  const writer = storeOn(storage, tick)
  const refs: string[] = []
  for (const content of NOTES) refs.push(await writer.write(content))
  await writer.close()
  return { storage, tick, refs }
}

const listing = async (s: GmpFactStore): Promise<Array<[string, string, string, number | undefined]>> =>
  (await s.conflicts()).map((c) => [c.kind, c.refs[0], c.refs[1], c.confidence])

describe('free-text conflicts after a reopen (the tallies counted at the first read, not by the open)', () => {
  test('the listing after a reopen is the listing of the handle that wrote them, in the same order', async () => {
    const storage = memoryStorage()
    await storage.open()
    const tick = { t: Date.UTC(2026, 0, 1) }
    const writer = storeOn(storage, tick)
    for (const content of NOTES) await writer.write(content)
    const before = await listing(writer)
    await writer.close()
    expect(before.length).toBeGreaterThanOrEqual(4)
    const reader = storeOn(storage, tick)
    expect(await listing(reader)).toEqual(before)
    await reader.close()
  })

  test('a fact read first after a reopen names the conflicts the listing has for it', async () => {
    const { storage, tick, refs } = await written()
    const reference = storeOn(storage, tick)
    const pairs = await listing(reference)
    await reference.close()
    const flagged = [...new Set(pairs.flatMap(([, a, b]) => [a, b]))]
    expect(flagged.length).toBeGreaterThanOrEqual(4)
    for (const ref of flagged) {
      const reader = storeOn(storage, tick)
      const expected = pairs.filter(([, a, b]) => a === ref || b === ref).map(([, a, b]) => (a === ref ? b : a)).sort()
      expect((await reader.get(ref))!.conflictsWith).toEqual(expected)
      await reader.close()
    }
    expect(refs).toEqual(expect.arrayContaining(flagged))
  })

  test('written and deleted after a reopen, before any conflict is read: the new fact is judged, the deleted one gone', async () => {
    const { storage, tick, refs } = await written()
    const reader = storeOn(storage, tick)
    await reader.get('none')
    const gone = refs[NOTES.indexOf('The gym closes at 8pm.')]!
    await reader.delete(gone)
    const late = await reader.write('The gym closes at 11pm.')
    const pairs = await listing(reader)
    expect(pairs.some(([, a, b]) => a === gone || b === gone)).toBe(false)
    const gym = refs[NOTES.indexOf('The gym closes at 10pm.')]!
    expect(pairs.some(([, a, b]) => [a, b].includes(late) && [a, b].includes(gym))).toBe(true)
    await reader.close()
  })

  test('a write and a delete while the catch-up is part way (its steps on timers): the new fact judged, the deleted one not', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const storage = memoryStorage()
      await storage.open()
      const tick = { t: Date.UTC(2026, 0, 1) }
      const writer = storeOn(storage, tick)
      // More current facts than one step of the catch-up counts (2,000), the gym's last.
      await writer.writeMany(Array.from({ length: 2_400 }, (_, i) => ({ content: `Ingrid planted row ${i} of the allotment.` })))
      const gym = await writer.write('The gym closes at 10pm.')
      const gone = await writer.write('The gym closes at 8pm.')
      await writer.close()
      const reader = storeOn(storage, tick)
      await reader.get('none')
      // One step: the first 2,000 counted, the gym's facts not yet (a second step waits).
      expect(vi.getTimerCount()).toBe(1)
      vi.advanceTimersToNextTimer()
      expect(vi.getTimerCount()).toBe(1)
      await reader.delete(gone)
      const late = await reader.write('The gym closes at 11pm.')
      const seen = (await reader.get(late))!.conflictsWith
      expect(seen).toContain(gym)
      expect(seen).not.toContain(gone)
      expect((await reader.get(gym))!.conflictsWith).toEqual([late])
      await reader.close()
    } finally {
      vi.useRealTimers()
    }
  })
})
