import { afterEach, expect, test } from 'vitest'
import { createMemory, type Memory, type PoolId } from '../../src/index.js'
import { FACT_VIEW_LEASE_MS } from '../../src/pools/fact-view-marker.js'
import { memoryStorage, type ChangeSet, type MemoryStorage } from '../../src/storage/memory-adapter.js'
import { fact } from '../helpers/pools-helpers.js'
import { clock, identityFor, network, seedCrypto, settle } from '../helpers/sync-helpers.js'

/**
 * The fact view's marker rows with a lease per live handle (issue 31, lease31; fact-view-marker.ts).
 * factview31b read any other handle's row as a killed session's: a second handle on one storage (a
 * tab, a worker and a page) repaired needlessly and deleted the first one's row, so the first one's
 * crash afterwards went unnoticed; and records synced in before a session's first change committed
 * with no row. A kill is a copy of the storage's rows taken at a chosen transaction, opened again.
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

type Rows = Record<string, object[]>
const isOpenRow = (r: object): boolean => String((r as { key?: unknown }).key).startsWith('fact-view-open:')
const openRows = (storage: MemoryStorage): string[] => ((storage.dump() as Rows)['meta'] ?? []).filter(isOpenRow).map((r) => (r as { key: string }).key)
const putsKind = (changes: ChangeSet, kind: string): boolean => changes.puts.some((p) => (p.row as { kind?: string }).kind === kind)

/**
 * Rows of a storage as they stood at a kill, once armed: before the first transaction that puts a
 * fact's tombstone (`before`), or just after the one that puts a pool's (`after`: taken as the next
 * transaction starts, whatever it is).
 */
function killSwitch(at: 'before-fact-tombstone' | 'after-pool-tombstone'): { storage: MemoryStorage; arm: () => void; killed: () => Rows } {
  let armed = false
  let next = false
  let copy: Rows | null = null
  const storage: MemoryStorage = memoryStorage({
    persist: async (changes: ChangeSet) => {
      if (!armed || copy !== null) return
      if (next || (at === 'before-fact-tombstone' && putsKind(changes, 'tombstone'))) copy = structuredClone(storage.dump()) as Rows
      else if (at === 'after-pool-tombstone' && putsKind(changes, 'pool-tombstone')) next = true
    },
  })
  return {
    storage,
    arm: () => (armed = true),
    killed: () => {
      expect(copy, 'the kill point was reached').not.toBeNull()
      return copy!
    },
  }
}

const currentFacts = async (mem: Memory, pool: PoolId): Promise<string[]> =>
  (await mem.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null).map((f) => f.content).sort()

test('a second handle on the storage repairs nothing at its open, and the first handle, killed after the second closed, is still caught', async () => {
  restore = seedCrypto(41)
  const c = clock()
  const id = await identityFor('alice')
  const { storage, arm, killed } = killSwitch('before-fact-tombstone')
  const first = await createMemory({ storage, identity: id, now: c.now })
  open.push(first)
  const pool = (await first.pools.create({ name: 'two tabs' })).id
  const gone = (await first.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))).id
  await first.pools.write(pool, fact('Bruno', 'drinks', 'tea'))
  await first.pools.flush()
  expect(openRows(storage), 'the first handle changed the store: its row').toHaveLength(1)
  const [firstRow] = openRows(storage)

  c.advance(5_000)
  const second = await createMemory({ storage, identity: id, now: c.now })
  expect(await currentFacts(second, pool)).toEqual(['Aria lives in Rome', 'Bruno drinks tea'])
  await second.pools.write(pool, fact('Cy', 'works_at', 'Acme'))
  await second.pools.flush()
  // The first handle's row runs its lease: another live handle, not a killed session. Left alone.
  expect(openRows(storage)).toContain(firstRow)
  expect(openRows(storage)).toHaveLength(2)
  await second.close()
  expect(openRows(storage), 'a clean close deletes its own row only').toEqual([firstRow])

  // The first handle is killed between its forget's pool tombstone and its fact's.
  arm()
  await first.pools.forget(gone)
  await first.pools.flush()
  const rows = killed()
  c.advance(FACT_VIEW_LEASE_MS)
  const again = await createMemory({ storage: memoryStorage({ initial: rows }), identity: id, now: c.now })
  open.push(again)
  expect(await currentFacts(again, pool)).toEqual(['Bruno drinks tea', 'Cy works at Acme'])
})

test('a killed session whose lease still ran at the open is caught once it lapses, by the next read of mem.facts', async () => {
  restore = seedCrypto(43)
  const c = clock()
  const id = await identityFor('alice')
  const { storage, arm, killed } = killSwitch('before-fact-tombstone')
  const before = await createMemory({ storage, identity: id, now: c.now })
  const pool = (await before.pools.create({ name: 'reload' })).id
  const gone = (await before.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))).id
  await before.pools.write(pool, fact('Bruno', 'drinks', 'tea'))
  await before.close()
  const doomed = await createMemory({ storage, identity: id, now: c.now })
  arm()
  await doomed.pools.forget(gone)
  await doomed.close()
  const rows = killed()
  const doomedRows = (rows['meta'] ?? []).filter(isOpenRow)
  expect(doomedRows).toHaveLength(1)

  // Opened again at once (a crashed tab reloaded): the row's lease runs, so it reads as a live handle.
  const copy = memoryStorage({ initial: rows })
  const again = await createMemory({ storage: copy, identity: id, now: c.now })
  open.push(again)
  await again.facts.audit()
  const doomedKey = (doomedRows[0] as { key: string }).key
  expect(openRows(copy), 'a live lease is not a crash: the row is left alone').toEqual([doomedKey])
  // Its lease lapses unrenewed: a killed session's, repaired before the read answers.
  c.advance(FACT_VIEW_LEASE_MS)
  expect(await currentFacts(again, pool)).toEqual(['Bruno drinks tea'])
  // The killed session's row goes; the repair's own deletes of facts wrote this handle's.
  expect(openRows(copy)).not.toContain(doomedKey)
  expect(openRows(copy)).toHaveLength(1)
})

test('a forget synced from another replica, stored, then the handle killed before its fact went: the next open drops the fact', async () => {
  restore = seedCrypto(47)
  const c = clock()
  let client = 5_000_000
  const sync = { clientId: () => client++ }
  const aliceId = await identityFor('alice')
  const bobId = await identityFor('bob')
  const net = network()
  const alice = await createMemory({ storage: memoryStorage(), identity: aliceId, now: c.now, sync })
  open.push(alice)
  const pool = (await alice.pools.create({ name: 'synced' })).id
  await alice.pools.share(pool, bobId.did, { write: true })
  const gone = (await alice.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))).id
  await alice.pools.write(pool, fact('Bruno', 'drinks', 'tea'))
  await alice.sync.attach(pool, net.provider('alice'))

  const { storage, arm, killed } = killSwitch('after-pool-tombstone')
  const joined = await createMemory({ storage, identity: bobId, now: c.now, sync })
  await joined.sync.attach(pool, net.provider('bob'))
  await settle(net, [alice, joined])
  expect(await currentFacts(joined, pool)).toEqual(['Aria lives in Rome', 'Bruno drinks tea'])
  await joined.close()

  // A later session of Bob's changes nothing of its own: the forget comes from Alice.
  const bob = await createMemory({ storage, identity: bobId, now: c.now, sync })
  open.push(bob)
  await bob.sync.attach(pool, net.provider('bob'))
  await settle(net, [alice, bob])
  arm()
  await alice.pools.forget(gone)
  await settle(net, [alice, bob])
  const rows = killed()
  c.advance(FACT_VIEW_LEASE_MS)
  const again = await createMemory({ storage: memoryStorage({ initial: rows }), identity: bobId, now: c.now })
  open.push(again)
  expect(await currentFacts(again, pool)).toEqual(['Bruno drinks tea'])
})

test('a handle that keeps changing renews its lease: opened after its first lease would have lapsed, another handle still reads it as live', async () => {
  restore = seedCrypto(53)
  const c = clock()
  const id = await identityFor('alice')
  const storage = memoryStorage()
  const first = await createMemory({ storage, identity: id, now: c.now })
  open.push(first)
  const pool = (await first.pools.create({ name: 'long lived' })).id
  await first.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  await first.pools.flush()
  const [row] = openRows(storage)
  // Past half its lease, a change renews it.
  c.advance(FACT_VIEW_LEASE_MS * 0.6)
  await first.pools.write(pool, fact('Bruno', 'drinks', 'tea'))
  await first.pools.flush()
  c.advance(FACT_VIEW_LEASE_MS * 0.6)
  const second = await createMemory({ storage, identity: id, now: c.now })
  open.push(second)
  expect(await currentFacts(second, pool)).toEqual(['Aria lives in Rome', 'Bruno drinks tea'])
  expect(openRows(storage), 'the renewed row is a live handle\'s: left alone').toEqual([row])
})
