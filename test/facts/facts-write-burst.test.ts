import { expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import type { FactRef, FactMemory as Fact, WriteOptions } from '../../src/facts/types.js'
import { RecordLog } from '../../src/records/log.js'
import type { Deriver } from '../../src/records/types.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { seeded } from '../helpers/sync-helpers.js'

/**
 * Issue 31 (fifth round): fact writes and supersessions issued in one tick run as one call of the
 * store's put in the batch (RecordLog.submitItem), not one each. What each write paid per op, its
 * delivery to the derived state above all, is paid once per run; the outcome is what the same
 * calls awaited one after another give.
 */

/** Counts the log's deliveries of fact records (what each write's op paid before). */
function countDeliveries(log: RecordLog): { deliveries: number; records: number } {
  const seen = { deliveries: 0, records: 0 }
  const probe: Deriver = {
    name: 'probe',
    kinds: ['fact'],
    reset: () => undefined,
    receive: (records, { reload }) => {
      if (reload) return
      seen.deliveries++
      seen.records += records.length
    },
    removed: () => undefined,
  }
  void log.register(probe)
  return seen
}

test('a burst of writes in one tick reaches the derived state in one delivery', async () => {
  const log = new RecordLog(memoryStorage())
  const store = new GmpFactStore(log)
  const seen = countDeliveries(log)
  await store.write('a first write opens the store')
  const before = { ...seen }
  const refs = await Promise.all(Array.from({ length: 500 }, (_, i) => store.write(`burst fact number ${i}`, { metadata: { subject: `s${i}`, predicate: 'p', object: i } })))
  expect(new Set(refs).size).toBe(500)
  // One delivery of 500 records (before: 500 deliveries of one).
  expect(seen.deliveries - before.deliveries).toBe(1)
  expect(seen.records - before.records).toBe(500)
  expect(await store.audit()).toHaveLength(501)
  await store.close()
  await log.close()
})

/** What a version says, without what depends on when it was written (refs, times, sequences). */
function shape(all: readonly Fact[]): unknown[] {
  const index = new Map(all.map((f, i) => [f.ref, i]))
  return all.map((f) => ({
    content: f.content, metadata: f.metadata, tenantId: f.tenantId, factId: f.factId, validFrom: f.validFrom === null ? null : 'set',
    supersededBy: f.supersededBy === null ? null : index.get(f.supersededBy), signed: f.source?.signature != null,
  }))
}

type Step =
  | { readonly op: 'write'; readonly content: string; readonly options: WriteOptions }
  | { readonly op: 'supersede'; readonly of: number; readonly content: string; readonly options: WriteOptions }
  | { readonly op: 'delete'; readonly of: number }

// Unsigned: a signed write awaits its signature before it is queued, so a delete called after it in
// the tick is queued first (the writeMany test holds signed writes to the one-after-another outcome).
test('a tick of writes, repeats, supersessions and deletes ends as the same calls awaited one after another', async () => {
  const random = seeded(31)
  for (let round = 0; round < 40; round++) {
    const stores = [0, 1].map(() => new GmpFactStore(memoryStorage()))
    const history: FactRef[][] = [[], []]
    for (let i = 0; i < 6; i++) {
      for (const [s, store] of stores.entries()) history[s]!.push(await store.write(`base ${i % 4}`, { metadata: { subject: `s${i % 3}`, predicate: 'p', object: i } }))
    }
    const steps: Step[] = []
    for (let i = 0; i < 16; i++) {
      const r = random()
      const content = random() < 0.35 ? `base ${Math.floor(random() * 4)}` : `new ${Math.floor(random() * 6)}`
      const options: WriteOptions = {
        ...(random() < 0.5 ? { metadata: { subject: `s${i % 3}`, predicate: 'p', object: `o${i % 4}` } } : {}),
        ...(random() < 0.2 ? { tenantId: 'acme' } : {}),
        ...(random() < 0.2 ? { validFrom: '2026-01-02T03:04:05Z' } : {}),
      }
      const of = Math.floor(random() * 6)
      steps.push(r < 0.15 ? { op: 'delete', of } : r < 0.4 ? { op: 'supersede', of, content, options } : { op: 'write', content, options })
    }
    const call = (s: number, step: Step): Promise<FactRef | boolean> => {
      const store = stores[s]!
      if (step.op === 'delete') return store.delete(history[s]![step.of]!)
      if (step.op === 'supersede') return store.supersede(history[s]![step.of]!, step.content, step.options)
      return store.write(step.content, step.options)
    }
    const oneByOne: Array<FactRef | boolean> = []
    for (const step of steps) oneByOne.push(await call(0, step))
    const inOneTick = await Promise.all(steps.map((step) => call(1, step)))
    const [a, b] = [await stores[0]!.audit(), await stores[1]!.audit()]
    expect(shape(b)).toEqual(shape(a))
    // Which calls were answered by which version (a repeat by the version before it), and every delete's outcome, agree too.
    const at = (all: readonly Fact[], results: ReadonlyArray<FactRef | boolean>) => results.map((r) => (typeof r === 'boolean' ? r : all.findIndex((f) => f.ref === r)))
    expect(at(b, inOneTick)).toEqual(at(a, oneByOne))
    for (const store of stores) await store.close()
  }
})
