import { expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoredRecord } from '../../src/storage/schema.js'
import { WorkingStore } from '../../src/working/store.js'
import { CountingStorage } from '../helpers/counting-storage.js'

// Working memory on the record log (issue 14): its writes ride in the Memory's batch, and a task
// opened late is derived from the records the log delivered before it was open.

const note = (content: string, agent: string) => ({ content, sourceAgentId: agent, isBeliefCandidate: true, beliefType: 'FACT' })

test('a tick with a fact write and working writes commits one storage transaction', async () => {
  const storage = new CountingStorage(new MemoryStorage())
  const mem = await createMemory({ storage })
  const wm = await mem.working.open('task')
  await wm.addObservation(note('warm-up', 'a'))
  storage.reset()
  await Promise.all([mem.facts.write('The user prefers dark mode'), wm.applyAttentionDecay(0.9), wm.applyAttentionDecay(0.8)])
  expect(storage.writes).toBe(1)
  await mem.close()
})

test('a task opened after another handle wrote it (and compacted it) is derived from what the log delivered meanwhile', async () => {
  const shared = new MemoryStorage()
  const writer = await createMemory({ storage: shared })
  const reader = await createMemory({ storage: shared })
  // The reader's working memory is registered and caught up while "late" is not open there.
  await (await reader.working.open('other')).observations()
  const w = await writer.working.open('late')
  const a = await w.addObservation({ content: 'x', sourceAgentId: 'a', attentionWeight: 1 })
  const other = await reader.working.open('other')
  // 300 decays: the reader takes them in as they come, then hears that the writer folded them into a
  // checkpoint and hard-deleted them.
  for (let i = 0; i < 300; i++) {
    await w.applyAttentionDecay(0.99)
    if (i % 50 === 0) await other.observations()
  }
  await w.getContextForAgent('r', 'RESEARCHER')
  await other.observations()
  const late = await reader.working.open('late')
  const seen = (await late.get(a.id))!
  expect(seen.attentionWeight).toBeCloseTo(0.99 ** 300, 12)
  expect(seen).toMatchObject({ accessCount: 1, accessedBy: ['r'] })
  expect(seen).toEqual(await w.get(a.id))
  await Promise.all([writer.close(), reader.close()])
})

test('alone on a storage port, the store runs on a private log that closes the storage', async () => {
  const storage = new MemoryStorage()
  const store = new WorkingStore(storage)
  const wm = await store.open('t')
  const o = await wm.addObservation(note('The offsite is on Tuesday', 'a'))
  await store.close()
  await store.close()
  await expect(storage.read(['records'], (tx) => tx.count('records'))).rejects.toMatchObject({ code: 'CLOSED' })
  await expect(store.open('t')).rejects.toMatchObject({ code: 'CLOSED' })
  await expect(wm.boostAttention(o.id)).rejects.toMatchObject({ code: 'CLOSED' })
  const again = new WorkingStore(storage)
  expect((await (await again.open('t')).get(o.id))?.content).toBe('The offsite is on Tuesday')
  const kinds = await storage.read(['records'], (tx) => tx.all<StoredRecord>('records'))
  expect(new Set(kinds.map((r) => r.kind))).toEqual(new Set(['observation']))
  await again.close()
})
