import fc from 'fast-check'
import { afterEach, expect, test } from 'vitest'
import { isMemweaveError, type Memory, type PoolId } from '../../src/index.js'
import { fact } from '../helpers/pools-helpers.js'
import { clock, devices, network, seedCrypto, settle, snapshot, type Device } from '../helpers/sync-helpers.js'

/**
 * Seeded multi-replica convergence (STYLE.md 21): three devices replicate one pool through the
 * in-process connector in manual mode, so fast-check decides every interleaving: which device
 * writes, updates, forgets or reads, which message is delivered next, which one is lost, who goes
 * offline. At the end everyone comes back, state vectors are exchanged again, and all three must
 * show the same pool (memories, supersession, conflicts, members, quarantine, fact views), with
 * nothing lost that was not forgotten.
 *
 * A failure prints the seed and the command that replays it; SYNC_SEED and SYNC_RUNS override.
 */

const SEED = Number(process.env.SYNC_SEED ?? 20_260_101)
const RUNS = Number(process.env.SYNC_RUNS ?? 100)
const NAMES = ['alice', 'bob', 'carol'] as const
const SUBJECTS = ['Aria', 'Bruno', 'Chen'] as const
const CITIES = ['Rome', 'Milan', 'Oslo', 'Lima'] as const

type Op =
  /** `fresh`: the object gets a serial number, so no other memory has the same text. */
  | { readonly t: 'write'; readonly r: number; readonly slot: number; readonly value: number; readonly fresh: boolean }
  | { readonly t: 'update'; readonly r: number; readonly pick: number; readonly value: number; readonly fresh: boolean }
  | { readonly t: 'forget'; readonly r: number; readonly pick: number }
  | { readonly t: 'read'; readonly r: number }
  | { readonly t: 'resolve'; readonly r: number; readonly pick: number }
  /** The owner changes carol's rights: 0 revoke, 1 read only, 2 write. */
  | { readonly t: 'acl'; readonly grant: number }
  | { readonly t: 'deliver'; readonly pick: number }
  | { readonly t: 'lose'; readonly pick: number }
  | { readonly t: 'offline'; readonly r: number }
  | { readonly t: 'online'; readonly r: number }

const replica = fc.integer({ min: 0, max: 2 })
const pick = fc.nat({ max: 1000 })
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('write' as const), r: replica, slot: fc.integer({ min: 0, max: 2 }), value: fc.integer({ min: 0, max: 3 }), fresh: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('update' as const), r: replica, pick, value: fc.integer({ min: 0, max: 3 }), fresh: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('forget' as const), r: replica, pick }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('read' as const), r: replica }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('resolve' as const), r: replica, pick }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('acl' as const), grant: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('deliver' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('lose' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('offline' as const), r: replica }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('online' as const), r: replica }) },
)

const open: Memory[] = []
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
})

/** Live memory ids on a device, from its export (not a read). */
async function liveIds(mem: Memory, pool: PoolId): Promise<string[]> {
  const exp = await tolerate(mem.pools.export(pool))
  return (exp?.memories ?? []).map((m) => m.memory_id.slice(2)).sort()
}

/**
 * The fact view caught up on every device: each current memory's text is asserted in `mem.facts`,
 * and nothing else of the pool is. Checked only in runs where no two memories had the same text:
 * those share one content-addressed GMP fact whose chain depends on arrival order (a known limit
 * of the fact view, src/pools/fact-view.ts, docs/sync.md). Runs a query, which writes an access
 * record: only after the devices were compared.
 */
async function expectFactViews(mem: Memory, pool: PoolId): Promise<void> {
  const current = await mem.pools.query(pool, { limit: 10_000, includeArchived: true })
  const texts = current.map((m) => factText(m.content.subject, String(m.content.object)))
  const facts = new Set((await mem.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null).map((f) => f.content))
  for (const f of facts) expect(texts).toContain(f)
  for (const t of texts) expect(facts).toContain(t)
}

const factText = (subject: string, city: string): string => `${subject} lives in ${city}`

/** Pool operations may fail for reasons the interleaving makes legitimate: the memory is gone, no longer current, or the author lost its grant. */
async function tolerate<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p
  } catch (err) {
    if (isMemweaveError(err) && ['NOT_FOUND', 'CONFLICT', 'PERMISSION_DENIED'].includes(err.code)) return null
    throw err
  }
}

async function run(ops: readonly Op[], runSeed: number): Promise<void> {
  const restore = seedCrypto(runSeed)
  try {
    const c = clock()
    const d = await devices(NAMES, { clock: c, clientIdBase: runSeed % 1000 })
    const all: Device[] = NAMES.map((n) => d[n])
    open.push(...all.map((x) => x.mem))
    const net = network({ random: () => 0 })
    const pool = (await d.alice.mem.pools.create({ name: 'trip' })).id
    await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
    await d.alice.mem.pools.share(pool, d.carol.id.did, { write: true })
    for (const x of all) await x.mem.sync.attach(pool, net.provider(x.name))
    await settle(net, all.map((x) => x.mem))

    const written = new Set<string>()
    const forgotten = new Set<string>()
    let serial = 0
    const byText = new Map<string, Set<string>>()
    const wrote = (id: string, text: string): void => {
      written.add(id)
      byText.set(text, new Set([...(byText.get(text) ?? []), id]))
    }
    for (const o of ops) {
      c.advance(1000)
      const dev = 'r' in o ? all[o.r]! : null
      switch (o.t) {
        case 'write': {
          const city = o.fresh ? `${CITIES[o.value]!} ${++serial}` : CITIES[o.value]!
          const m = await tolerate(dev!.mem.pools.write(pool, fact(SUBJECTS[o.slot]!, 'lives_in', city)))
          if (m) wrote(m.id, factText(SUBJECTS[o.slot]!, city))
          break
        }
        case 'update': {
          const ids = await liveIds(dev!.mem, pool)
          if (ids.length === 0) break
          const city = o.fresh ? `${CITIES[o.value]!} ${++serial}` : CITIES[o.value]!
          const m = await tolerate(dev!.mem.pools.update(ids[o.pick % ids.length]!, { content: { subject: 'Aria', predicate: 'lives_in', object: city } }))
          if (m) wrote(m.id, factText('Aria', city))
          break
        }
        case 'forget': {
          const ids = await liveIds(dev!.mem, pool)
          if (ids.length === 0) break
          for (const id of (await tolerate(dev!.mem.pools.forget(ids[o.pick % ids.length]!))) ?? []) forgotten.add(id)
          break
        }
        case 'read':
          await tolerate(dev!.mem.pools.query(pool, { limit: 2 }))
          break
        case 'resolve': {
          const conflicts = (await tolerate(dev!.mem.pools.conflicts(pool))) ?? []
          if (conflicts.length === 0) break
          const m = await tolerate(dev!.mem.pools.resolve(conflicts[o.pick % conflicts.length]!.id))
          if (m && !written.has(m.id)) wrote(m.id, factText(m.content.subject, String(m.content.object)))
          break
        }
        case 'acl':
          if (o.grant === 0) await d.alice.mem.pools.revoke(pool, d.carol.id.did)
          else await d.alice.mem.pools.share(pool, d.carol.id.did, { write: o.grant === 2 })
          break
        case 'deliver':
          if (net.inFlight) net.deliver(o.pick % net.inFlight)
          break
        case 'lose':
          if (net.inFlight) net.lose(o.pick % net.inFlight)
          break
        case 'offline':
          net.setOnline(dev!.name, false)
          break
        case 'online':
          net.setOnline(dev!.name, true)
          break
      }
      // Let local writes reach the documents (and so the network) before the next step.
      await Promise.all(all.map((x) => x.mem.sync.flush()))
    }

    // Carol may read again (to compare her view); what she wrote without a grant stays refused.
    await d.alice.mem.pools.share(pool, d.carol.id.did, { write: true })
    for (const x of all) net.setOnline(x.name, true)
    net.resync()
    await settle(net, all.map((x) => x.mem))

    const [first, ...rest] = await Promise.all(all.map((x) => snapshot(x.mem, pool, { facts: false })))
    for (const s of rest) expect(s).toEqual(first)
    // Nothing lost: whatever was written and not forgotten is live on every device, unless its
    // author had lost the grant at its timestamp (then every device refuses it alike).
    const refused = new Set((await d.alice.mem.sync.quarantine(pool)).map((q) => q.key))
    for (const q of await d.alice.mem.sync.quarantine(pool)) expect(['not-member', 'read-only']).toContain(q.reason)
    const expected = [...written].filter((id) => !forgotten.has(id) && !refused.has(id)).sort()
    for (const x of all) expect(await liveIds(x.mem, pool)).toEqual(expect.arrayContaining(expected))
    for (const x of all) expect((await x.mem.sync.status()).state).toBe('synced')
    // Fact views are checked strictly when no two memories of the run shared a text (see expectFactViews).
    if ([...byText.values()].every((ids) => ids.size === 1)) for (const x of all) await expectFactViews(x.mem, pool)
  } finally {
    restore()
    for (const m of open.splice(0)) await m.close()
  }
}

test('three replicas converge under random interleavings, delivery orders, losses and partitions', async () => {
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 32 }), fc.nat({ max: 2 ** 30 }), (ops, runSeed) => run(ops, runSeed)),
      { seed: SEED, numRuns: RUNS, endOnFailure: process.env.SYNC_SHRINK === undefined },
    )
  } catch (err) {
    console.error(
      `sync convergence failed with seed ${SEED}.\nRepro: SYNC_SEED=${SEED} SYNC_RUNS=${RUNS} npx vitest run --project node test/sync/sync-convergence.test.ts` +
        '\n(add SYNC_SHRINK=1 for a minimal counterexample)',
    )
    throw err
  }
}, 60_000)
