import { afterEach, expect, test } from 'vitest'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { FACT_VIEW_LEASE_MS } from '../../src/pools/fact-view-marker.js'
import { memoryStorage, type ChangeSet, type MemoryStorage } from '../../src/storage/memory-adapter.js'
import { fact } from '../helpers/pools-helpers.js'
import { clock, identityFor, seedCrypto } from '../helpers/sync-helpers.js'

/**
 * A session killed between a pool's forget and its fact's delete (issue 31, factview31b): the
 * forget's tombstone committed, the fact's tombstone not. The storage is copied as it stood when the
 * fact's delete was about to commit, and opened again: the forgotten memory's fact must be gone
 * before any read of mem.facts returns it, with no write to the pool to start a reconcile.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

/** Rows of `storage` as they stood before the first transaction that stores a fact's tombstone after `arm()`. */
function killSwitch(): { storage: MemoryStorage; arm: () => void; killed: () => Record<string, object[]> | null } {
  let armed = false
  let copy: Record<string, object[]> | null = null
  const storage: MemoryStorage = memoryStorage({
    persist: async (changes: ChangeSet) => {
      if (armed && copy === null && changes.puts.some((p) => (p.row as { kind?: string }).kind === 'tombstone')) copy = structuredClone(storage.dump())
    },
  })
  return { storage, arm: () => (armed = true), killed: () => copy }
}

async function killedForget(older = false): Promise<{ again: Memory; pool: PoolId; gone: string; kept: string }> {
  restore = seedCrypto(31)
  const c = clock()
  const id = await identityFor('alice')
  const { storage, arm, killed } = killSwitch()
  const first = await createMemory({ storage, identity: id, now: c.now })
  const pool = (await first.pools.create({ name: 'crash' })).id
  const gone = (await first.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))).id
  const kept = (await first.pools.write(pool, fact('Bruno', 'drinks', 'tea'))).id
  await first.close()
  const doomed = await createMemory({ storage, identity: id, now: c.now })
  arm()
  await doomed.pools.forget(gone)
  await doomed.close()
  const rows = killed()
  expect(rows, 'the forget deleted its fact with a tombstone').not.toBeNull()
  // An older store kept no marker rows (src/pools/fact-view-marker.ts): it cannot say whether its facts are in line.
  const meta = (rows!['meta'] ?? []).filter((r) => !older || !String((r as { key: string }).key).startsWith('fact-view'))
  // Opened after the killed session's lease lapsed (a reopen within it: pools-fact-view-lease.test.ts).
  c.advance(FACT_VIEW_LEASE_MS)
  const again = await createMemory({ storage: memoryStorage({ initial: { ...rows!, meta } }), identity: id, now: c.now })
  open.push(again)
  return { again, pool, gone, kept }
}

test('a fact a killed session left behind is gone before the first read of mem.facts after the open, and the pool writes on in line', async () => {
  const { again, pool, gone, kept } = await killedForget()
  const audit = await again.facts.audit()
  expect(audit.filter((f) => f.metadata['memoryId'] === gone && f.supersededBy === null)).toEqual([])
  expect(audit.filter((f) => f.metadata['memoryId'] === kept)).toHaveLength(1)
  expect((await again.facts.retrieve('Aria lives in Rome', { topK: 5 })).map((f) => f.content)).not.toContain('Aria lives in Rome')
  // The first write after the repair starts from facts in line (factview31's start): its own fact lands, no other comes back.
  await again.pools.write(pool, fact('Cy', 'works_at', 'Acme'))
  await again.pools.flush()
  const current = (await again.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null)
  expect(current.map((f) => f.content).sort()).toEqual(['Bruno drinks tea', 'Cy works at Acme'])
})

test('a store without the marker rows (older than them) gets its facts brought in line at the open too', async () => {
  const { again, gone } = await killedForget(true)
  expect((await again.facts.audit()).filter((f) => f.metadata['memoryId'] === gone && f.supersededBy === null)).toEqual([])
})
