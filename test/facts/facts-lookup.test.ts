import { expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import type { FactRef, FactMemory as Fact } from '../../src/facts/types.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { seeded } from '../helpers/sync-helpers.js'

/**
 * `versionsWhere` (FactLookup, the pools' fact view's lookup) says what audit() says of the
 * versions whose metadata holds a value, whatever happened before or after the index of that key
 * was built: writes, supersessions, deletes, tenants, and another handle's changes on the same storage.
 */

const project = (f: Fact) => ({ ref: f.ref, tenantId: f.tenantId, metadata: f.metadata, sequence: f.sequence, supersededBy: f.supersededBy })

test('versionsWhere agrees with audit() through writes, supersessions, deletes and another handle', async () => {
  const storage = memoryStorage()
  const a = new GmpFactStore(storage)
  const b = new GmpFactStore(storage)
  const random = seeded(42)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!
  const refs: FactRef[] = []
  const expectSame = async (store: GmpFactStore): Promise<void> => {
    const all = await store.audit()
    for (const pool of ['p1', 'p2']) {
      const want = all.filter((f) => f.metadata['pool'] === pool).map(project)
      expect((await store.versionsWhere('pool', pool)).map((e) => ({ ...e, metadata: { ...e.metadata } }))).toEqual(want)
    }
    expect(await store.versionsWhere('pool', 'nowhere')).toEqual([])
    // A batch of values is one lookup: the versions of any of them, in sequence order.
    const some = ['m1', 'm7', 'm7', 'm30', 'nowhere']
    const wantSome = all.filter((f) => some.includes(f.metadata['memoryId'] as string)).map(project)
    expect((await store.versionsWhere('memoryId', some)).map((e) => ({ ...e, metadata: { ...e.metadata } }))).toEqual(wantSome)
  }
  for (let i = 0; i < 300; i++) {
    const store = random() < 0.7 ? a : b
    const r = random()
    const metadata = { pool: pick(['p1', 'p2', 7, undefined]), memoryId: `m${i % 40}`, subject: `s${i % 13}`, predicate: 'p', object: `o${i}` }
    const tenantId = random() < 0.2 ? 'acme' : null
    if (r < 0.5 || refs.length === 0) refs.push(await store.write(`fact ${i}`, { metadata, tenantId }))
    else if (r < 0.8) refs.push(await store.supersede(pick(refs), `fact ${i} again`, { metadata, tenantId }))
    else await store.delete(pick(refs))
    // The index of `pool` is built on the first lookup (after 50 changes), then kept in step.
    if (i >= 50 && i % 25 === 0) await expectSame(store)
  }
  await expectSame(a)
  await expectSame(b)
})
