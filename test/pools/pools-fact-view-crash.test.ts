import { afterEach, expect, test } from 'vitest'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { FactView } from '../../src/pools/fact-view.js'
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

async function killedForget(older: 'older store' | 'older writer' | null = null): Promise<{ again: Memory; storage: MemoryStorage; pool: PoolId; gone: string; kept: string; reopen: () => Promise<Memory> }> {
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
  // An older memweave that wrote after this one's clean close kept the format row it found, and wrote no row of its own.
  const drop = older === 'older store' ? 'fact-view' : older === 'older writer' ? 'fact-view-open:' : null
  const meta = (rows!['meta'] ?? []).filter((r) => drop === null || !String((r as { key: string }).key).startsWith(drop))
  // Opened after the killed session's lease lapsed (a reopen within it: pools-fact-view-lease.test.ts).
  c.advance(FACT_VIEW_LEASE_MS)
  const copy = memoryStorage({ initial: { ...rows!, meta } })
  const reopen = async (): Promise<Memory> => {
    const mem = await createMemory({ storage: copy, identity: id, now: c.now })
    open.push(mem)
    return mem
  }
  return { again: await reopen(), storage: copy, pool, gone, kept, reopen }
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
  const { again, gone } = await killedForget('older store')
  expect((await again.facts.audit()).filter((f) => f.metadata['memoryId'] === gone && f.supersededBy === null)).toEqual([])
})

test('an older memweave killed in a forget after this one closed cleanly (a downgrade, then this version again): the log moved past the close\'s stamp, the facts are brought in line', async () => {
  const { again, storage, pool, gone, kept, reopen } = await killedForget('older writer')
  const audit = await again.facts.audit()
  expect(audit.filter((f) => f.metadata['memoryId'] === gone && f.supersededBy === null)).toEqual([])
  expect(audit.filter((f) => f.metadata['memoryId'] === kept)).toHaveLength(1)
  await again.close()
  // A session that changes nothing of the pools (a fact of its own) moves the stamp at its clean
  // close: the next open repairs nothing, and one that only reads changes no byte.
  const plain = await reopen()
  await plain.facts.write('A fact outside the pools')
  await plain.close()
  const repairs = countRepairs()
  const next = await reopen()
  expect((await next.pools.info(pool)).size).toBe(1)
  await next.facts.audit()
  await next.close()
  const before = JSON.stringify(storage.dump())
  const last = await reopen()
  expect((await last.pools.info(pool)).size).toBe(1)
  await last.facts.audit()
  await last.close()
  expect(repairs()).toBe(0)
  expect(JSON.stringify(storage.dump())).toBe(before)
})

/** Pools whose facts were repaired whole (fact-view-guard.ts: each goes through `FactView.unsee`) while it counts. */
function countRepairs(): () => number {
  const proto = FactView.prototype as unknown as { unsee: (pool: string) => void }
  const original = proto.unsee
  let n = 0
  proto.unsee = function (this: unknown, pool: string): void {
    n++
    original.call(this, pool)
  }
  const undo = restore
  restore = () => {
    proto.unsee = original
    undo()
  }
  return () => n
}
