import fc from 'fast-check'
import * as Y from 'yjs'
import { expect, test } from 'vitest'
import { FORMAT_VERSIONS } from '../../src/core/format-version.js'
import { FORMAT_ROW, type FormatRow } from '../../src/records/format-marker.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { CHUNK_CLOCKS, LARGE_STRUCT_BYTES, UpdateLog, type UpdateRow } from '../../src/sync/update-log.js'

/**
 * The persisted update log of a pool's document (src/sync/update-log.ts): appended updates and
 * compactions into parts (chunks of each client's structs, the delete set, pending updates). Over
 * random histories of two documents that exchange updates, with values set, overwritten and
 * deleted and compactions at random points: a document loaded from the rows always equals the
 * live one (same state vector, same entries), and once compacted no row holds a deleted value.
 */

const SEED = Number(process.env.UPDATE_LOG_SEED ?? 20_261_127)
const RUNS = Number(process.env.UPDATE_LOG_RUNS ?? 60)

type Op =
  | { readonly t: 'set'; readonly doc: 0 | 1; readonly key: number; readonly n: number }
  | { readonly t: 'bulk'; readonly doc: 0 | 1; readonly from: number; readonly n: number }
  | { readonly t: 'delete'; readonly doc: 0 | 1; readonly key: number }
  | { readonly t: 'large'; readonly doc: 0 | 1; readonly key: number }
  | { readonly t: 'exchange' }
  | { readonly t: 'compact' }
  | { readonly t: 'ahead'; readonly chunks: number }
  | { readonly t: 'reload' }

const doc01 = fc.constantFrom<0 | 1>(0, 1)
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('set' as const), doc: doc01, key: fc.nat({ max: 300 }), n: fc.nat({ max: 1e6 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('bulk' as const), doc: doc01, from: fc.nat({ max: 300 }), n: fc.integer({ min: 1, max: 3 * CHUNK_CLOCKS }) }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('delete' as const), doc: doc01, key: fc.nat({ max: 300 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('large' as const), doc: doc01, key: fc.nat({ max: 300 }) }) },
  { weight: 2, arbitrary: fc.constant<Op>({ t: 'exchange' }) },
  { weight: 2, arbitrary: fc.constant<Op>({ t: 'compact' }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('ahead' as const), chunks: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 1, arbitrary: fc.constant<Op>({ t: 'reload' }) },
)

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

/** One replica: its document, persisted as the sync layer persists it (pool-sync.ts `listen`). */
class Replica {
  doc = new Y.Doc({ gc: true })
  readonly storage = memoryStorage()
  log = new UpdateLog(this.storage, 'p')
  /** Values this replica ever saw deleted or overwritten: none may survive a compaction. */
  readonly gone = new Set<string>()

  constructor(readonly id: number) {
    this.listen()
  }

  listen(): void {
    this.doc.clientID = this.id
    this.doc.on('afterTransactionCleanup', (tr: Y.Transaction) => this.log.noteTransaction(tr))
    this.doc.on('update', (u: Uint8Array) => this.log.append(u))
    this.doc.getMap<string>('records').observe((e) => {
      for (const [, change] of e.changes.keys) if (change.action !== 'add' && typeof change.oldValue === 'string') this.gone.add(change.oldValue)
    })
  }

  get map(): Y.Map<string> {
    return this.doc.getMap<string>('records')
  }

  rows(): UpdateRow[] {
    return (this.storage.dump()['syncUpdates'] ?? []) as UpdateRow[]
  }

  /** A fresh document from the rows, as a reopened replica loads it. */
  async reload(): Promise<Y.Doc> {
    const log = new UpdateLog(this.storage, 'p')
    const doc = new Y.Doc({ gc: true })
    for (const u of await log.load()) Y.applyUpdate(doc, u)
    return doc
  }
}

async function run(ops: readonly Op[]): Promise<void> {
  const rs = [new Replica(101), new Replica(202)]
  for (const r of rs) {
    await r.storage.open()
    // As the sync loop does before the pool's first transaction (loop.ts `load`).
    await r.log.load()
  }
  let serial = 0
  const same = async (r: Replica): Promise<void> => {
    await r.log.flush()
    const loaded = await r.reload()
    expect(Y.encodeStateVector(loaded)).toEqual(Y.encodeStateVector(r.doc))
    expect(Object.fromEntries(loaded.getMap('records').entries())).toEqual(Object.fromEntries(r.map.entries()))
    expect(loaded.store.pendingStructs).toBeNull()
    // The same deletions too (an overwritten value's deletion changes no entry).
    expect(Y.equalSnapshots(Y.snapshot(loaded), Y.snapshot(r.doc))).toBe(true)
  }
  for (const o of ops) {
    if (o.t === 'set') rs[o.doc]!.map.set(`k${o.key}`, `<value-${o.doc}-${o.key}-${serial++}-${o.n}>`)
    else if (o.t === 'bulk') rs[o.doc]!.doc.transact(() => {
      for (let i = 0; i < o.n; i++) rs[o.doc]!.map.set(`k${o.from + i}`, `<value-${o.doc}-${o.from + i}-${serial++}>`)
    })
    else if (o.t === 'delete') rs[o.doc]!.map.delete(`k${o.key}`)
    // A value that is a part of its own (update-log.ts runsOf), as the owner's checkpoints are.
    else if (o.t === 'large') rs[o.doc]!.map.set(`k${o.key}`, `<large-${o.doc}-${o.key}-${serial++}>`.padEnd(LARGE_STRUCT_BYTES + 10, '.'))
    else if (o.t === 'exchange') {
      const [a, b] = rs as [Replica, Replica]
      Y.applyUpdate(b.doc, Y.encodeStateAsUpdate(a.doc, Y.encodeStateVector(b.doc)))
      Y.applyUpdate(a.doc, Y.encodeStateAsUpdate(b.doc, Y.encodeStateVector(a.doc)))
    } else if (o.t === 'compact') {
      for (const r of rs) {
        await r.log.flush()
        await r.log.compact(r.doc)
        // No row keeps a value that left the document.
        const live = new Set(r.map.values())
        const rows = r.rows().map((row) => text(row.update)).join('\n')
        for (const v of r.gone) if (!live.has(v)) expect(rows.includes(v), `${v} survived compaction`).toBe(false)
        await same(r)
      }
    } else if (o.t === 'ahead') {
      // The sync loop's step when idle (loop.ts): some chunks of a rewrite that is due, the appended rows kept.
      for (const r of rs) {
        await r.log.flush()
        await r.log.compact(r.doc, { chunks: o.chunks })
        await same(r)
      }
    } else {
      // Reopen replica 0 from its rows: the document it continues with is the loaded one.
      const r = rs[0]!
      await r.log.flush()
      const doc = await r.reload()
      const log = new UpdateLog(r.storage, 'p')
      await log.load()
      r.doc = doc
      r.log = log
      r.listen()
    }
  }
  for (const r of rs) await same(r)
}

test('a document loaded from the rows equals the live one, and compaction leaves no deleted value, over random histories', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
      await run(ops)
    }),
    { seed: SEED, numRuns: RUNS },
  )
}, 120_000)

test('a deletion in a compacted document of many chunks rewrites its own chunk, not the document', async () => {
  const r = new Replica(7)
  await r.storage.open()
  r.doc.transact(() => {
    for (let i = 0; i < 10 * CHUNK_CLOCKS; i++) r.map.set(`k${i}`, `value ${i}`)
  })
  await r.log.flush()
  await r.log.compact(r.doc)
  const before = new Map(r.rows().map((row) => [row.part, row.seq]))
  expect([...before.keys()].filter((p) => p?.startsWith('s:'))).toHaveLength(10)
  r.map.delete(`k${5 * CHUNK_CLOCKS + 17}`)
  await r.log.flush()
  await r.log.compact(r.doc)
  const after = new Map(r.rows().map((row) => [row.part, row.seq]))
  const rewritten = [...after].filter(([part, seq]) => before.get(part) !== seq).map(([part]) => part)
  // The chunk that held the value, with its deletions: no row of the whole document's delete set.
  expect(rewritten.sort()).toEqual([`s:7:5`])
  expect(r.rows().some((row) => row.part === 'ds')).toBe(false)
  expect(r.rows().some((row) => text(row.update).includes(`value ${5 * CHUNK_CLOCKS + 17}`))).toBe(false)
  const loaded = await r.reload()
  expect(loaded.getMap('records').size).toBe(10 * CHUNK_CLOCKS - 1)
})

test('a compaction marks the store format 2 in its own transaction: a build reading 4,096-clock parts refuses the store, whatever else was written', async () => {
  const r = new Replica(9)
  await r.storage.open()
  r.doc.transact(() => {
    for (let i = 0; i < 3 * CHUNK_CLOCKS; i++) r.map.set(`k${i}`, `value ${i}`)
  })
  await r.log.flush()
  expect(r.storage.dump()['meta'] ?? []).toEqual([])
  await r.log.compact(r.doc)
  expect((r.storage.dump()['meta'] as FormatRow[]).find((row) => row.key === FORMAT_ROW)?.version).toBe(FORMAT_VERSIONS.store)
  expect(FORMAT_VERSIONS.store).toBeGreaterThan(1)
  const parts = r.rows().filter((row) => row.part?.startsWith('s:'))
  expect(parts).toHaveLength(3)
  expect(parts.every((row) => row.clocks === CHUNK_CLOCKS)).toBe(true)
})

test('a large value is a part of its own: a deletion beside it in its chunk leaves it unwritten, and its own deletion drops it', async () => {
  const r = new Replica(11)
  await r.storage.open()
  const large = (n: number): string => `<large ${n}>`.padEnd(LARGE_STRUCT_BYTES + 100, '.')
  r.doc.transact(() => {
    for (let i = 0; i < 40; i++) r.map.set(`k${i}`, i % 10 === 5 ? large(i) : `value ${i}`)
  })
  await r.log.flush()
  await r.log.compact(r.doc)
  const before = new Map(r.rows().map((row) => [row.part, row.seq]))
  // One chunk, cut around each of the four large values: nine runs.
  expect([...before.keys()].filter((p) => p?.startsWith('s:'))).toHaveLength(9)
  const sizeOf = (part: string | undefined): number => r.rows().find((row) => row.part === part)!.update.length
  expect([...before.keys()].filter((p) => p?.startsWith('s:') && sizeOf(p) > LARGE_STRUCT_BYTES)).toHaveLength(4)

  // A small value beside the large ones (after the last, as a tombstone after a checkpoint) is set and one deleted: no large value is written again.
  r.map.set('k40', 'value 40')
  r.map.delete('k37')
  await r.log.flush()
  await r.log.compact(r.doc)
  const after = new Map(r.rows().map((row) => [row.part, row.seq]))
  const rewritten = [...after].filter(([part, seq]) => before.get(part) !== seq).map(([part]) => part!)
  expect(rewritten.length).toBeGreaterThan(0)
  expect(rewritten.every((part) => sizeOf(part) < LARGE_STRUCT_BYTES)).toBe(true)
  expect(r.rows().some((row) => text(row.update).includes('value 37'))).toBe(false)

  // A large value deleted leaves every row, and the runs around it become one again.
  r.map.delete('k25')
  await r.log.flush()
  await r.log.compact(r.doc)
  expect(r.rows().some((row) => text(row.update).includes('<large 25>'))).toBe(false)
  expect(r.rows().filter((row) => row.part?.startsWith('s:') && row.update.length > LARGE_STRUCT_BYTES)).toHaveLength(3)
  const loaded = await r.reload()
  expect(Object.fromEntries(loaded.getMap('records').entries())).toEqual(Object.fromEntries(r.map.entries()))
  expect(Y.encodeStateVector(loaded)).toEqual(Y.encodeStateVector(r.doc))
})

test("each part carries its own structs' deletions: a document that keeps deleted values (gc off) loads from the parts with the same deletions", async () => {
  // With gc on (the pools' documents) a deleted value is collected into a struct that marks itself
  // deleted on load; without it, only the parts' delete sets say what was deleted.
  const storage = memoryStorage()
  await storage.open()
  const doc = new Y.Doc({ gc: false })
  doc.clientID = 13
  const log = new UpdateLog(storage, 'p')
  doc.on('afterTransactionCleanup', (tr: Y.Transaction) => log.noteTransaction(tr))
  doc.on('update', (u: Uint8Array) => log.append(u))
  const map = doc.getMap<string>('records')
  doc.transact(() => {
    for (let i = 0; i < 3 * CHUNK_CLOCKS; i++) map.set(`k${i}`, `value ${i}`)
  })
  await log.flush()
  await log.compact(doc)
  for (const i of [3, 4, CHUNK_CLOCKS + 9, 2 * CHUNK_CLOCKS + 1]) map.delete(`k${i}`)
  map.set('k5', 'value 5 again')
  await log.flush()
  await log.compact(doc)
  const rows = (storage.dump()['syncUpdates'] ?? []) as UpdateRow[]
  expect(rows.every((row) => row.part?.startsWith('s:'))).toBe(true)
  const loaded = new Y.Doc({ gc: false })
  for (const u of await new UpdateLog(storage, 'p').load()) Y.applyUpdate(loaded, u)
  expect(Y.equalSnapshots(Y.snapshot(loaded), Y.snapshot(doc))).toBe(true)
  expect(Object.fromEntries(loaded.getMap('records').entries())).toEqual(Object.fromEntries(map.entries()))
})

test('a join\'s rows are rewritten ahead in bounded steps, and the forget that drops them rewrites only what is left (issue 31)', async () => {
  // Before: the first compaction after a join rewrote every chunk, in the forget that asked for it.
  const r = new Replica(17)
  await r.storage.open()
  await r.log.load()
  // The exchange of states of a join: one transaction, one appended row of unknown extent.
  r.doc.transact(() => {
    for (let i = 0; i < 10 * CHUNK_CLOCKS; i++) r.map.set(`k${i}`, `value ${i}`)
  })
  await r.log.flush()
  expect(r.log.behind).toBe(true)
  const parts = (): string[] => r.rows().flatMap((row) => (row.part ? [row.part] : [])).sort()
  const appended = (): number => r.rows().filter((row) => row.part === undefined).length
  await r.log.compact(r.doc, { chunks: 4 })
  expect(parts()).toHaveLength(4)
  expect(appended()).toBe(1)
  expect(Object.fromEntries((await r.reload()).getMap('records').entries())).toEqual(Object.fromEntries(r.map.entries()))
  await r.log.compact(r.doc, { chunks: 4 })
  expect(parts()).toHaveLength(8)
  // Two chunks due: a step of 4 leaves them to the compaction that drops the row.
  await r.log.compact(r.doc, { chunks: 4 })
  expect(parts()).toHaveLength(8)
  expect(appended()).toBe(1)

  // A forget now: its chunk (written ahead) and the two chunks not yet written, and the join's row goes.
  const seqs = new Map(r.rows().map((row) => [row.part, row.seq]))
  const forgotten = `value ${2 * CHUNK_CLOCKS + 5}`
  r.map.delete(`k${2 * CHUNK_CLOCKS + 5}`)
  await r.log.flush()
  await r.log.compact(r.doc)
  const rewritten = r.rows().filter((row) => seqs.get(row.part) !== row.seq).map((row) => row.part)
  expect(rewritten.sort()).toEqual(['s:17:2', 's:17:8', 's:17:9'])
  expect(appended()).toBe(0)
  expect(r.log.behind).toBe(false)
  expect(r.rows().some((row) => text(row.update).includes(forgotten))).toBe(false)
  const loaded = await r.reload()
  expect(Object.fromEntries(loaded.getMap('records').entries())).toEqual(Object.fromEntries(r.map.entries()))
  // A later burst of writes (a pull of many records) is written ahead too, the appended row kept.
  r.doc.transact(() => {
    for (let i = 0; i < 6 * CHUNK_CLOCKS; i++) r.map.set(`n${i}`, `new value ${i}`)
  })
  await r.log.flush()
  expect(r.log.behind).toBe(false)
  await r.log.compact(r.doc, { chunks: 2 })
  expect(parts()).toHaveLength(12)
  expect(appended()).toBe(1)
  await r.log.compact(r.doc)
  expect(appended()).toBe(0)
  expect(Object.fromEntries((await r.reload()).getMap('records').entries())).toEqual(Object.fromEntries(r.map.entries()))
  // Nothing is left to write ahead: a step does nothing.
  const now = new Map(r.rows().map((row) => [row.part, row.seq]))
  await r.log.compact(r.doc, { chunks: 4 })
  expect(new Map(r.rows().map((row) => [row.part, row.seq]))).toEqual(now)
})
