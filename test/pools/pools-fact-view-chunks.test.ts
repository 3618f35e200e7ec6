import { expect, test } from 'vitest'
import { createIdentity, memoryStorage } from '../../src/index.js'
import { GmpFactStore } from '../../src/facts/store.js'
import type { FactLookup, FactStore, FactWrite, PreparedWrites } from '../../src/facts/types.js'
import { PoolStore } from '../../src/pools/store.js'
import { RecordLog } from '../../src/records/log.js'

/**
 * Issue 31, fifth round: a fact view of more than one chunk (a join brings a whole pool) prepares
 * each chunk (checks, ids, WebCrypto signatures: `FactLookup.prepareMany`) while the chunk before it
 * commits, instead of the thread waiting for every chunk's signatures in turn. What lands is what
 * one chunk after another gave: a current fact of each memory, each chunk committed in order.
 */
test('the fact view prepares the next chunk before the one before it has committed, and every memory gets its fact', async () => {
  const alice = await createIdentity({ seed: new Uint8Array(32).fill(5) })
  const log = new RecordLog(memoryStorage(), { identity: alice })
  const real = new GmpFactStore(log, { identity: alice })
  const events: string[] = []
  let chunks = 0
  const facts = new Proxy(real, {
    get(target, key) {
      if (key === 'prepareMany') {
        return async (writes: readonly FactWrite[]): Promise<PreparedWrites> => {
          const i = chunks++
          events.push(`prepare ${i}`)
          const prepared = await target.prepareMany(writes)
          events.push(`prepared ${i}`)
          return {
            size: prepared.size,
            async commit() {
              events.push(`commit ${i}`)
              const refs = await prepared.commit()
              events.push(`committed ${i}`)
              return refs
            },
          }
        }
      }
      const v = Reflect.get(target, key, target) as unknown
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    },
  }) as FactStore & FactLookup
  const pools = new PoolStore(log, { facts })
  const pool = (await pools.create({ name: 'big' })).id
  // One more than a chunk (5,000): two chunks.
  const n = 5_001
  await pools.import({ memories: Array.from({ length: n }, (_, i) => ({
    memory_id: `${i + 1}`.padStart(32, '0'), type: 'KNOWLEDGE', content: { subject: `person ${i}`, predicate: 'lives_in', object: `City ${i % 97}` },
  })) }, { poolId: pool })
  await pools.flush()

  const at = (e: string): number => events.indexOf(e)
  expect(chunks).toBe(2)
  // Each chunk committed once, in order, after it was prepared.
  expect(events.filter((e) => e.startsWith('commit'))).toEqual(['commit 0', 'committed 0', 'commit 1', 'committed 1'])
  expect(at('prepared 0')).toBeLessThan(at('commit 0'))
  expect(at('prepared 1')).toBeLessThan(at('commit 1'))
  // The second chunk was being prepared while the first committed.
  expect(at('prepare 1')).toBeLessThan(at('committed 0'))
  const current = (await real.audit()).filter((f) => f.metadata['pool'] === pool && f.validUntil === null)
  expect(current).toHaveLength(n)
  expect(new Set(current.map((f) => f.metadata['memoryId'])).size).toBe(n)
  expect((await pools.info(pool)).factsRefused).toEqual([])
  await pools.close()
  await log.close()
})
