import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, test, vi } from 'vitest'
import { RecordLog } from '../../src/records/log.js'
import type { Deriver, LogChange } from '../../src/records/types.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import type { StoragePort } from '../../src/storage/port.js'
import type { StoredRecord } from '../../src/storage/schema.js'
import { recordingStorage } from '../helpers/recording-storage.js'

// Issue 31 (fourth round): a write batch runs on the state the handle has, and its log row takes the
// position after the last row the handle saw (WriteTx.add), sent with the puts and commit() at once,
// without waiting for the catch-up read. When another handle committed after that position, its
// row holds it: the add fails, the transaction aborts (nothing written), and the batch runs again
// on state rebuilt from storage, so it decides as a write caught up first would.

/** A deriver whose state is the records of its kind it holds, by id. */
const holder = (kind: string): Deriver & { held: Map<string, StoredRecord> } => ({
  name: kind,
  kinds: [kind],
  held: new Map(),
  reset() {
    this.held.clear()
  },
  receive(records: readonly StoredRecord[]) {
    for (const r of records) this.held.set(r.id, r)
  },
  removed(ids: readonly string[]) {
    for (const id of ids) this.held.delete(id)
  },
})

/** Two handles on one fake-indexeddb database, as two tabs' workers. */
function twoHandles(hearing = false): { a: ReturnType<typeof recordingStorage>; b: StoragePort } {
  const indexedDB = new IDBFactory()
  const name = `optimistic-${Math.random()}`
  return { a: recordingStorage(indexedDbStorage({ name, indexedDB, IDBKeyRange }), { hearing, answers: true }), b: indexedDbStorage({ name, indexedDB, IDBKeyRange }) }
}

/**
 * A log on each of twoHandles' handles, both holding kind 'k': `mine` on the recorded one (its
 * holder is `d`), `other` on the plain one, which commits behind mine's back.
 */
async function twoLogs(hearing = false): Promise<ReturnType<typeof twoHandles> & { mine: RecordLog; other: RecordLog; d: ReturnType<typeof holder> }> {
  const { a, b } = twoHandles(hearing)
  const mine = new RecordLog(a.port)
  const other = new RecordLog(b)
  const d = holder('k')
  await mine.register(d)
  await other.register(holder('k'))
  return { a, b, mine, other, d }
}

/** From here on: what `log` announces, collected in the array returned, and `a`'s transactions recorded afresh. */
function fromHere(log: RecordLog, a: ReturnType<typeof twoHandles>['a']): LogChange[] {
  const feed: LogChange[] = []
  log.onAppend((c) => feed.push(c))
  a.transactions.length = 0
  return feed
}

/** One write on `log`: a record of kind 'k' with `body`, sealed and appended. */
const writeOn = (log: RecordLog, body: Record<string, unknown>): Promise<void> => log.append([log.seal('k', body)])

describe('an optimistic write batch', () => {
  test('alone on the database: the puts, the log row at the next position and commit() go out at once', async () => {
    const { a } = twoHandles()
    const log = new RecordLog(a.port)
    const d = holder('k')
    await log.register(d)
    await writeOn(log, { n: 0 })
    a.transactions.length = 0
    const r = log.seal('k', { n: 1 })
    await log.append([r])
    expect(a.transactions).toEqual([['put records', 'add log', 'commit']])
    expect(await a.port.read(['records'], (tx) => tx.get('records', r.id))).toEqual(r)
    expect(log.position).toBe(2)
    expect(d.held.size).toBe(2)
    await log.close()
  })

  test('the log\'s end is read again, unawaited, when half a second has passed since it was; after a second the batch waits for it', async () => {
    const real = performance.now.bind(performance)
    let skew = 0
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => real() + skew)
    try {
      const { a } = twoHandles()
      const log = new RecordLog(a.port)
      await log.register(holder('k'))
      // The first commit also writes the store's format marker.
      await writeOn(log, { first: true })
      a.transactions.length = 0
      skew += 600
      await writeOn(log, { n: 0 })
      // Its answer renewed the confirmation: the next batch needs none.
      await writeOn(log, { n: 1 })
      skew += 1100
      await writeOn(log, { n: 2 })
      expect(a.transactions).toEqual([
        ['after log', 'put records', 'add log', 'commit', 'answer 0'],
        ['put records', 'add log', 'commit'],
        ['after log', 'answer 0', 'put records', 'put log', 'commit'],
      ])
      expect(log.position).toBe(4)
      await log.close()
    } finally {
      clock.mockRestore()
    }
  })

  test('another handle committed after its position: aborted, nothing of it stored, and run again on fresh state', async () => {
    const { a, b, mine, other, d } = await twoLogs()
    await writeOn(mine, { by: 'mine', n: 0 })
    // The other handle commits; this one has not caught up (it does not follow the log).
    await writeOn(other, { by: 'other', n: 0 })
    const feed = fromHere(mine, a)

    // What the write decides depends on derived state: it records how many records it saw.
    let runs = 0
    const seen = await mine.write(async (w) => {
      runs++
      const count = d.held.size
      await w.append([mine.seal('k', { by: 'mine', seen: count })])
      return count
    })

    expect(runs).toBe(2)
    // The first run saw 1 (stale), the second 2: the answer and the stored record are the second's.
    expect(seen).toBe(2)
    // The first run's transaction: its log row asked for position 2, which the other handle holds.
    expect(a.transactions[0]).toEqual(['put records', 'add log', 'commit'])
    const stored = await a.port.read(['records'], (tx) => tx.all<StoredRecord>('records'))
    expect(stored.map((r) => r.body).filter((b) => (b as { seen?: number }).seen !== undefined)).toEqual([{ by: 'mine', seen: 2 }])
    // Derived state equals storage: the aborted run's record is not held, the other handle's is.
    expect([...d.held.keys()].sort()).toEqual(stored.map((r) => r.id).sort())
    expect(await b.read(['log'], (tx) => tx.count('log'))).toBe(3)
    // The rebuild is announced as a reload, then this handle's own commit.
    expect(feed.map((c) => [c.local, c.reload, c.records.length])).toEqual([[false, true, 0], [true, false, 1]])

    // The other handle sees every record, each once.
    const fresh = new RecordLog(b)
    const again = holder('k')
    await fresh.register(again)
    expect(again.held.size).toBe(3)
    await Promise.all([mine.close(), other.close(), fresh.close()])
  })

  test('after an abort, the next batches wait for the catch-up answer before their puts', async () => {
    const { a, mine, other } = await twoLogs()
    await writeOn(mine, { n: 0 })
    await writeOn(other, { n: 1 })
    await writeOn(mine, { n: 2 })
    a.transactions.length = 0
    await writeOn(mine, { n: 3 })
    expect(a.transactions).toEqual([['after log', 'answer 0', 'put records', 'put log', 'commit']])
    await Promise.all([mine.close(), other.close()])
  })

  test('a batch that writes no log row waits for the catch-up answer, and runs again when another handle committed', async () => {
    const { a, b, mine, other, d } = await twoLogs()
    await writeOn(mine, { n: 0 })
    await writeOn(other, { n: 1 })
    a.transactions.length = 0
    const seen = await mine.write(async (w) => {
      await w.tx.put('meta', [{ key: 'held', value: d.held.size }])
      return d.held.size
    })
    expect(seen).toBe(2)
    expect(a.transactions[0]).toEqual(['after log', 'answer 1'])
    expect(await b.read(['meta'], (tx) => tx.get('meta', 'held'))).toEqual({ key: 'held', value: 2 })
    await Promise.all([mine.close(), other.close()])
  })

  test('a handle that hears another handle commit reads first: no abort, no rebuild', async () => {
    const { a, mine, other, d } = await twoLogs(true)
    await writeOn(mine, { n: 0 })
    // Heard after the log's own listener, which was registered when it opened.
    const heard = new Promise<void>((resolve) => {
      const off = a.port.watch!(() => {
        off()
        resolve()
      })
    })
    await writeOn(other, { n: 1 })
    await heard
    const feed = fromHere(mine, a)
    let runs = 0
    const seen = await mine.write(async (w) => {
      runs++
      await w.append([mine.seal('k', { seen: d.held.size })])
      return d.held.size
    })
    expect([runs, seen]).toEqual([1, 3])
    expect(a.transactions[0]!.slice(0, 2)).toEqual(['after log', 'answer 1'])
    expect(feed.map((c) => [c.local, c.reload])).toEqual([[false, false], [true, false]])
    await Promise.all([mine.close(), other.close()])
  })
})
