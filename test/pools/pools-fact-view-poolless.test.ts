import { afterEach, expect, test } from 'vitest'
import { createMemory, type Memory } from '../../src/index.js'
import { GmpFactStore } from '../../src/facts/store.js'
import { PoolReplica } from '../../src/pools/replica.js'
import { RecordLog } from '../../src/records/log.js'
import { memoryStorage, type MemoryStorage } from '../../src/storage/memory-adapter.js'
import type { ReadTx, StoragePort } from '../../src/storage/port.js'
import { add, beyond, counting, tallied, type Tally } from '../helpers/work-tally.js'

/**
 * lease36: a store that never had a pool is vouched for at the open (src/pools/fact-view-marker.ts
 * `poolless`). lease31's marker rows vouch only for a store whose sessions changed a pool, so on a
 * store of facts alone the first `mem.facts` read waited for the pools' load and check (their
 * registration with the record log, their signature verdicts, a repair of no pool), and
 * `createMemory` built the fact store's index by memory id over every fact: the page's cold open at
 * 100k went from 1.02-1.04x raw to 1.22-1.27x, its first retrieve from 17-23 ms to 94-103 ms
 * (docs/benchmarks.md, session 12). On lease31 as reverted (7ca7e10) the first test fails: the pools
 * registered and got ready in the read, indexWhere ran in the open, and the read cloned every `meta`
 * row (the facts' lexical snapshots among them).
 */

const open: Memory[] = []
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
})

/** Counts the `meta` rows each read returns (work-tally's `tallied` leaves that table out). */
function metaRows(inner: StoragePort, tally: () => Tally): StoragePort {
  const wrap = (tx: ReadTx): ReadTx =>
    new Proxy(tx, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          const result = (value as (...a: unknown[]) => unknown).apply(target, args)
          if (args[0] !== 'meta' || !(result instanceof Promise)) return result
          return result.then((got: unknown) => {
            add(tally(), 'meta rows read', Array.isArray(got) ? got.length : got === undefined ? 0 : 1)
            return got
          })
        }
      },
    })
  return { ...inner, open: () => inner.open(), close: () => inner.close(), read: (t, body) => inner.read(t, (tx) => body(wrap(tx))), write: (t, body) => inner.write(t, (tx) => body(wrap(tx) as never)) }
}

/** `size` facts written and closed; the store opened again and read once, counted from the open. */
async function firstRead(size: number): Promise<Tally> {
  const storage: MemoryStorage = memoryStorage()
  const first = await createMemory({ storage })
  for (let i = 0; i < size; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, size - i) }, (_, k) => first.facts.write(`Guest ${size} ${i + k} drinks tea number ${i + k} in the garden`)))
  }
  await first.close()
  let tally: Tally = new Map()
  const undo = [
    counting(PoolReplica.prototype, 'ready', () => tally, () => 1, 'pools ready'),
    counting(RecordLog.prototype, 'register', () => tally, (args) => ((args[0] as { name: string }).name === 'pools' ? 1 : 0), 'pools registered'),
    counting(GmpFactStore.prototype, 'indexWhere', () => tally, () => 1, 'facts indexWhere'),
  ]
  try {
    const counted = metaRows(tallied(storage, () => tally), () => tally)
    const again = await createMemory({ storage: counted })
    open.push(again)
    // The open's own reads (the facts' load) grow with the store: counted from the first read on,
    // but for what the open did in the pools' name.
    const fromOpen = new Map([...tally].filter(([k]) => k.startsWith('pools') || k.startsWith('facts')))
    tally = fromOpen
    const hits = await again.facts.retrieve(`Guest ${size} 7 drinks tea`, { topK: 1 })
    expect(hits).toHaveLength(1)
    expect(await again.facts.get(hits[0]!.ref)).not.toBeNull()
  } finally {
    for (const u of undo) u()
  }
  return tally
}

test('a store of facts alone answers its first mem.facts read without the pools module, with the same work at 200 and 2,000 facts', async () => {
  const small = await firstRead(200)
  for (const m of open.splice(0)) await m.close()
  const big = await firstRead(2_000)
  // No registration of the pools with the log, no pool scan, no repair: one count on the kind index.
  for (const t of [small, big]) {
    expect(t.get('pools ready') ?? 0).toBe(0)
    expect(t.get('pools registered') ?? 0).toBe(0)
    expect(t.get('facts indexWhere') ?? 0).toBe(0)
    expect(t.get('countWhere records')).toBe(1)
  }
  expect(beyond(big, small)).toEqual([])
}, 120_000)
