import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import { describe, expect, test } from 'vitest'
import { RecordLog } from '../../src/records/log.js'
import { LOG_KEEP } from '../../src/records/trim.js'
import type { Deriver } from '../../src/records/types.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoredRecord } from '../../src/storage/schema.js'
import { recordingStorage } from '../helpers/recording-storage.js'

// Issue 31 (third round): a write batch's flush is its transaction's last request, and the log
// tells the transaction so (WriteTx.commit), so IndexedDB commits as soon as the puts are done
// instead of after their results came back to the body: one round trip less per awaited write.

const sink = (kind: string): Deriver & { held: number } => ({
  name: kind,
  kinds: [kind],
  held: 0,
  reset() {
    this.held = 0
  },
  receive(records: readonly StoredRecord[]) {
    this.held += records.length
  },
  removed() {},
})

describe('a write batch tells its transaction to commit after its last request', () => {
  test('one awaited write: the catch-up read, the records and their log row, then commit', async () => {
    const { port, transactions } = recordingStorage(indexedDbStorage({ name: `commit-${Math.random()}`, indexedDB: new IDBFactory(), IDBKeyRange }), { strictCommit: true, withoutAdd: true })
    const log = new RecordLog(port)
    const d = sink('k')
    await log.register(d)
    await log.append([log.seal('k', { n: 0 })])
    transactions.length = 0
    const r = log.seal('k', { n: 1 })
    await log.append([r])
    expect(transactions).toEqual([['after log', 'put records', 'put log', 'commit']])
    // Committed when the write resolved: another handle on the same database reads it.
    expect(await port.read(['records'], (tx) => tx.get('records', r.id))).toEqual(r)
    expect(d.held).toBe(2)
    await log.close()
  })

  test('when the log is trimmed, the trim goes before the flush and commit stays last; nothing is lost', async () => {
    const { port, transactions } = recordingStorage(new MemoryStorage(), { strictCommit: true, withoutAdd: true })
    const log = new RecordLog(port)
    const d = sink('k')
    await log.register(d)
    const total = LOG_KEEP + 1500
    for (let i = 0; i < total; i++) await log.append([log.seal('k', { i })])
    const trimmed = transactions.filter((calls) => calls.includes('delete log'))
    expect(trimmed.length).toBeGreaterThan(0)
    for (const calls of transactions) expect(calls.at(-1)).toBe('commit')
    // The batch's records go out when appended (BufferedTx.putNow, issue 31 write37); the trim still goes before the log row and commit.
    for (const calls of trimmed) expect(calls.indexOf('delete log')).toBeLessThan(calls.lastIndexOf('put log'))
    expect(await port.read(['records'], (tx) => tx.count('records'))).toBe(total)
    const fresh = new RecordLog(port)
    const again = sink('k')
    await fresh.register(again)
    expect(again.held).toBe(total)
    await log.close()
  })
})
