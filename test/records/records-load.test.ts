import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, test } from 'vitest'
import { Fanout, readKinds } from '../../src/records/fanout.js'
import { RecordLog } from '../../src/records/log.js'
import type { Deriver } from '../../src/records/types.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'
import type { ReadTx, StoragePort } from '../../src/storage/port.js'
import type { StoredRecord } from '../../src/storage/schema.js'

// Issue 31: a full load reads the records table in key order when the kinds wanted are most of
// it, through the `kind` index when they are few; either way each kind arrives as the index gives it.

const row = (id: string, kind: string): StoredRecord => ({ id, kind, tenant: null, body: { id }, author: null, hlc: '1' })

/** 12,500 records (more than one scan chunk): mostly facts, some tombstones, a few of another kind. */
function rows(): StoredRecord[] {
  return Array.from({ length: 12_500 }, (_, i) => {
    // Ids out of insertion order, so key order and write order differ; most in hex as record ids
    // are (spread over the ranges a scan asks for), some not (they must be read all the same).
    const n = (i * 7919) % 12_500
    const id = i % 7 === 0 ? `r${n.toString().padStart(5, '0')}` : ((n * 2_654_435_761) % 2 ** 32).toString(16).padStart(8, '0') + n.toString(16)
    return row(id, i % 50 === 0 ? 'other' : i % 10 === 0 ? 'tombstone' : 'fact')
  })
}

/** The real transaction, with the names of the reads made through it (which way readKinds went). */
function counted(tx: ReadTx, calls: string[]): ReadTx {
  return new Proxy(tx, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        calls.push(String(name))
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
}

const adapters: Array<[string, () => StoragePort]> = [
  ['memory', () => new MemoryStorage()],
  ['Dexie on fake-indexeddb', () => indexedDbStorage({ name: `load-${Math.random()}`, indexedDB: new IDBFactory(), IDBKeyRange })],
]

describe.each(adapters)('readKinds on %s', (_name, make) => {
  test('kinds that are most of the table: one scan in key order, each kind as the index gives it', async () => {
    const s = make()
    await s.open()
    await s.write(['records'], (tx) => tx.put('records', rows()))
    const calls: string[] = []
    const { got, byIndex } = await s.read(['records'], async (tx) => ({
      got: await readKinds(counted(tx, calls), ['tombstone', 'fact']),
      byIndex: { tombstone: await tx.where<StoredRecord>('records', 'kind', 'tombstone'), fact: await tx.where<StoredRecord>('records', 'kind', 'fact') },
    }))
    expect(calls).not.toContain('where')
    // The 250 rows of another kind are counted, the 12,250 wanted are not, nor the table (issue 31, fifth round).
    expect(calls.slice(0, 1)).toEqual(['countOthers'])
    expect(calls).not.toContain('countWhere')
    expect(calls).not.toContain('count')
    // Every key range at once (issue 31, fourth round), not a chunk after another.
    expect(calls).not.toContain('after')
    expect(calls.filter((c) => c === 'between').length).toBe(16)
    expect([...got.keys()]).toEqual(['tombstone', 'fact'])
    expect(got.get('tombstone')!.map((r) => r.id)).toEqual(byIndex.tombstone.map((r) => r.id))
    expect(got.get('fact')!.map((r) => r.id)).toEqual(byIndex.fact.map((r) => r.id))
    expect(got.get('fact')!.length + got.get('tombstone')!.length).toBe(12_250)
    await s.close()
  })

  test('a storage port without key ranges (between, optional): one chunk after another, the same records', async () => {
    const s = make()
    await s.open()
    await s.write(['records'], (tx) => tx.put('records', rows()))
    const calls: string[] = []
    const older = (tx: ReadTx): ReadTx => new Proxy(counted(tx, calls), { get: (t, name, r) => (name === 'between' ? undefined : Reflect.get(t, name, r)) })
    const { got, byIndex } = await s.read(['records'], async (tx) => ({
      got: await readKinds(older(tx), ['tombstone', 'fact']),
      byIndex: { tombstone: await tx.where<StoredRecord>('records', 'kind', 'tombstone'), fact: await tx.where<StoredRecord>('records', 'kind', 'fact') },
    }))
    expect(calls.filter((c) => c === 'after').length).toBe(2)
    expect(got.get('tombstone')!.map((r) => r.id)).toEqual(byIndex.tombstone.map((r) => r.id))
    expect(got.get('fact')!.map((r) => r.id)).toEqual(byIndex.fact.map((r) => r.id))
    await s.close()
  })

  test('a kind that is a few rows of the table: read through the index', async () => {
    const s = make()
    await s.open()
    await s.write(['records'], (tx) => tx.put('records', rows()))
    const calls: string[] = []
    const got = await s.read(['records'], (tx) => readKinds(counted(tx, calls), ['other', 'missing']))
    expect(calls).not.toContain('after')
    expect(got.get('other')!.length).toBe(250)
    expect(got.get('other')!.map((r) => r.id)).toEqual(got.get('other')!.map((r) => r.id).sort())
    expect(got.get('missing')).toEqual([])
    await s.close()
  })

  test('a storage port written before countWhere (0.2.x, optional) still loads: through the index', async () => {
    const s = make()
    await s.open()
    await s.write(['records'], (tx) => tx.put('records', rows()))
    const calls: string[] = []
    // The transaction as an older port gives it: every method but countWhere.
    const older = (tx: ReadTx): ReadTx => new Proxy(counted(tx, calls), { get: (t, name, r) => (name === 'countWhere' ? undefined : Reflect.get(t, name, r)) })
    const { got, byIndex } = await s.read(['records'], async (tx) => ({
      got: await readKinds(older(tx), ['tombstone', 'fact']),
      byIndex: { tombstone: await tx.where<StoredRecord>('records', 'kind', 'tombstone'), fact: await tx.where<StoredRecord>('records', 'kind', 'fact') },
    }))
    expect(calls).not.toContain('after')
    expect(got.get('tombstone')!.map((r) => r.id)).toEqual(byIndex.tombstone.map((r) => r.id))
    expect(got.get('fact')!.map((r) => r.id)).toEqual(byIndex.fact.map((r) => r.id))
    await s.close()
  })

  test('an empty store reads no row', async () => {
    const s = make()
    await s.open()
    const calls: string[] = []
    const got = await s.read(['records'], (tx) => readKinds(counted(tx, calls), ['fact']))
    expect(got.get('fact')).toEqual([])
    expect(calls).not.toContain('after')
    expect(calls).not.toContain('where')
    await s.close()
  })
})

test('a reopened log loads every record of its derivers, each kind in key order, tombstones before facts', async () => {
  const storage = new MemoryStorage()
  await storage.open()
  await storage.write(['records'], (tx) => tx.put('records', rows()))
  const log = new RecordLog(storage, { ownsStorage: false })
  const seen: string[][] = []
  const deriver: Deriver = { name: 'd', kinds: ['tombstone', 'fact'], reset: () => void (seen.length = 0), receive: async (records) => void seen.push(records.map((r) => r.kind)), removed: () => undefined }
  await log.register(deriver)
  const kinds = seen.flat()
  expect(kinds.length).toBe(12_250)
  expect(kinds.indexOf('fact')).toBe(kinds.lastIndexOf('tombstone') + 1)
  await log.close()
})

test('issue 31 (fifth round): a deriver with loaded() takes each key range as it is read, in key order, while later ranges are still pending; then loaded()', async () => {
  const storage = new MemoryStorage()
  await storage.open()
  const all = rows()
  await storage.write(['records'], (tx) => tx.put('records', all))
  // The transaction's range reads, each answered only when the test releases it.
  const releases: Array<() => void> = []
  let allAsked: () => void = () => undefined
  const asked = new Promise<void>((resolve) => (allAsked = resolve))
  const held = (tx: ReadTx): ReadTx =>
    new Proxy(tx, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown
        if (typeof value !== 'function') return value
        if (name !== 'between') return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args)
        return (...args: unknown[]) => {
          const read = (value as (...a: unknown[]) => Promise<unknown>).apply(target, args)
          return new Promise((resolve) => {
            releases.push(() => resolve(read))
            if (releases.length === 16) allAsked()
          })
        }
      },
    })
  const events: string[] = []
  const received: string[][] = []
  const deriver: Deriver = {
    name: 'd',
    kinds: ['tombstone', 'fact'],
    reset: () => undefined,
    receive: (records) => void received.push(records.map((r) => r.id)),
    loaded: () => void events.push(`loaded after ${received.length}`),
    removed: () => undefined,
  }
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 20; i++) await Promise.resolve()
  }
  const fanout = new Fanout(() => undefined)
  await storage.read(['records', 'meta', 'log'], async (tx) => {
    const loading = fanout.load(held(tx), [deriver])
    await asked
    releases[0]!()
    await settle()
    // The first range is applied while the fifteen others are still being read.
    expect(received.length).toBe(1)
    // Later ranges answered first wait for the one before them: delivered in key order.
    for (let i = 15; i >= 2; i--) releases[i]!()
    await settle()
    expect(received.length).toBe(1)
    expect(events).toEqual([])
    releases[1]!()
    await loading
  })
  expect(received.length).toBeGreaterThan(8)
  expect(events).toEqual([`loaded after ${received.length}`])
  const ids = received.flat()
  const wanted = all.filter((r) => r.kind !== 'other').map((r) => r.id)
  expect(ids.length).toBe(wanted.length)
  expect(new Set(ids)).toEqual(new Set(wanted))
  // Within each range tombstones come first, and the ranges follow each other in key order.
  const kindOf = new Map(all.map((r) => [r.id, r.kind]))
  for (const part of received) {
    const kinds = part.map((id) => kindOf.get(id))
    expect(kinds.indexOf('fact') === -1 || kinds.lastIndexOf('tombstone') < kinds.indexOf('fact')).toBe(true)
  }
  for (let i = 1; i < received.length; i++) expect(received[i - 1]!.reduce((a, b) => (a > b ? a : b)) < received[i]!.reduce((a, b) => (a < b ? a : b))).toBe(true)
})
