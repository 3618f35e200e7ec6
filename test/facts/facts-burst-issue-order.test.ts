import { expect, test } from 'vitest'
import { factRows } from '../../bench/fixtures.js'
import { GmpFactStore } from '../../src/facts/store.js'
import { RecordLog } from '../../src/records/log.js'
import type { ReadTx, StoragePort } from '../../src/storage/port.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { throughPort } from '../helpers/work-tally.js'

/**
 * Issue 31 (session 13, write37): in a burst of fact writes (the page bench's: 1,000 with metadata
 * and validFrom at once), the records' puts reach storage as they are sealed, before the derived state takes them,
 * so the IndexedDB backend writes while the state, the index and the conflict check run; and a
 * burst makes the same requests, in the same order, into a store of 1,000 facts and of 10,000.
 */

/** The burst's events in order: storage requests (`put records: 1000`) and the facts' deliveries (`deliver: 1000`). */
function recording(inner: StoragePort, seq: string[]): StoragePort {
  const wrap = <T extends ReadTx>(tx: T): T =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          const table = String(args[0])
          // The log's end check is asked by age (CONFIRMED_MS), and meta holds snapshots saved by time: left out.
          if (prop !== 'after' && prop !== 'commit' && table !== 'meta') {
            const rows = prop === 'put' || prop === 'add' || prop === 'delete' ? `: ${(args[1] as unknown[]).length}` : ''
            seq.push(`${String(prop)} ${table}${rows}`)
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args)
        }
      },
    })
  return throughPort(inner, wrap, () => seq.push('write'))
}

async function burstEvents(stored: number): Promise<string[]> {
  const seq: string[] = []
  const log = new RecordLog(recording(memoryStorage(), seq))
  const store = new GmpFactStore(log)
  await log.register({
    name: 'probe',
    kinds: ['fact'],
    reset: () => undefined,
    receive: (records, { reload }) => {
      if (!reload) seq.push(`deliver: ${records.length}`)
    },
    removed: () => undefined,
  })
  const rows = factRows(stored + 1000)
  const write = (r: (typeof rows)[number]): Promise<unknown> => store.write(r.content, { metadata: r.metadata, validFrom: r.validFrom })
  for (let i = 0; i < stored; i += 1000) await Promise.all(rows.slice(i, i + 1000).map(write))
  await store.flush()
  seq.length = 0
  await Promise.all(rows.slice(stored).map(write))
  await store.flush()
  const events = [...seq]
  await log.close()
  return events
}

test('a burst of 1,000 fact writes: records put as sealed, before the state takes them, the same requests at 1,000 and 10,000 facts', async () => {
  const small = await burstEvents(1000)
  const big = await burstEvents(10_000)
  expect(big).toEqual(small)
  // One transaction; the records issued first, then delivered; the batch's one log row last.
  expect(small[0]).toBe('write')
  expect(small.filter((e) => e === 'write')).toHaveLength(1)
  // Put as they are sealed, 100 at a time, every one before the state takes them.
  const delivered = small.indexOf('deliver: 1000')
  expect(small.slice(1, delivered)).toEqual(Array.from({ length: 10 }, () => 'put records: 100'))
  expect(small.at(-1)).toMatch(/^(add|put) log: 1$/)
}, 60_000)
