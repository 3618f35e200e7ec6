import fc from 'fast-check'
import { afterEach, expect, test } from 'vitest'
import type { Memory } from '../../src/index.js'
import { CurrentIndex } from '../../src/pools/current-index.js'
import { DEFAULT_POLICIES } from '../../src/pools/input.js'
import type { MemoryPayload } from '../../src/pools/records.js'
import { duplicateKey } from '../../src/pools/similarity.js'
import type { LiveMemory, Structure } from '../../src/pools/structure.js'
import { T0, fact } from '../helpers/pools-helpers.js'
import { clock, devices, network, seedCrypto, settle } from '../helpers/sync-helpers.js'

/**
 * The current index's duplicate keys (current-index.ts), built apart from its topics, slots and
 * predecessors, and ahead by the fact view when it reads the whole pool: a device that only reads a
 * pool built the whole index in the first forget it brought its fact view in line for (the fact
 * view looks memories up by duplicate key when a forget takes a fact away: 4 s of the first forget
 * after a join of 100k memories, issue 31).
 */

const open: Memory[] = []
let restore: () => void = () => undefined
afterEach(async () => {
  for (const m of open.splice(0)) await m.close()
  restore()
})

function memory(i: number, subject: string, object: string, reads: { n: number }, ephemeral = false): LiveMemory {
  const payload: MemoryPayload = {
    type: 'KNOWLEDGE', subject, predicate: 'drinks', object, context: null, confidence: 1, source: 'direct_statement',
    evidence: [], createdAt: T0 + i, ttl: null, permanent: false, visibility: 'AUTHORIZED', ephemeral, noTraining: false,
    supersedes: [], merged: null,
  }
  const id = i.toString(16).padStart(32, '0')
  return {
    id,
    record: { id, hlc: `${String(i).padStart(4, '0')}`, author: 'did:key:z' } as unknown as LiveMemory['record'],
    // Counts every read of the payload's fields: building an index reads each memory's.
    payload: new Proxy(payload, { get: (t, k) => (reads.n++, t[k as keyof MemoryPayload]) }),
  } as unknown as LiveMemory
}

const s = { id: 'ab'.repeat(16), policies: DEFAULT_POLICIES } as unknown as Structure

test('duplicate keys kept through random entries and leavings equal a scan, whichever part of the index is built when', () => {
  // Few subjects and values: keys with several memories (concurrent writes of one text), "Green_tea" and "green tea" one key.
  const specs = fc.record({ subject: fc.constantFrom('Aria', 'aria', 'Bo'), object: fc.constantFrom('green tea', 'Green_tea', 'espresso'), ephemeral: fc.boolean() })
  fc.assert(
    fc.property(
      fc.array(specs, { minLength: 1, maxLength: 16 }),
      fc.array(fc.oneof(fc.nat({ max: 99 }), fc.constantFrom('dups' as const, 'rest' as const)), { maxLength: 50 }),
      (memories, ops) => {
        const all = memories.map((m, i) => memory(i, m.subject, m.object, { n: 0 }, m.ephemeral))
        const current = new Map<string, LiveMemory>()
        const index = new CurrentIndex(s, current)
        for (const op of ops) {
          if (op === 'dups') index.buildDuplicates()
          else if (op === 'rest') index.conflicts(1)
          else {
            const m = all[op % all.length]!
            if (current.has(m.id)) {
              current.delete(m.id)
              index.leave(m)
            } else {
              current.set(m.id, m)
              index.enter(m)
            }
          }
          for (const m of all) {
            const key = duplicateKey(m.payload)
            const same = [...current.values()].filter((c) => !c.payload.ephemeral && duplicateKey(c.payload) === key)
            expect(index.duplicates(key).map((c) => c.id).sort()).toEqual(same.map((c) => c.id).sort())
            // The earliest record of them (record order: hlc, then id).
            expect(index.duplicate(key)?.id).toBe(same.sort((a, b) => (a.record.hlc < b.record.hlc ? -1 : 1))[0]?.id)
          }
        }
      },
    ),
    { seed: 20_261_128, numRuns: 300 },
  )
})

test('the duplicate keys are built without the rest of the index, and a look-up after them reads no other memory', () => {
  const N = 500
  const reads = { n: 0 }
  const current = new Map<string, LiveMemory>()
  for (let i = 0; i < N; i++) {
    const m = memory(i, `subject ${i}`, `value ${i}`, reads)
    current.set(m.id, m)
  }
  const index = new CurrentIndex(s, current)
  index.buildDuplicates()
  const built = reads.n
  expect(built).toBeGreaterThanOrEqual(N)
  const key = duplicateKey(current.values().next().value!.payload)
  reads.n = 0
  expect(index.duplicates(key)).toHaveLength(1)
  index.buildDuplicates()
  expect(reads.n).toBe(0)
  // The rest (slots: each value's words) is built when a listing asks, reading every memory again.
  index.conflicts(1)
  expect(reads.n).toBeGreaterThanOrEqual(N)
})

test("a device's first forget after joining a pool reads what the forget changed, not the pool (its index is built with the join's fact view)", async () => {
  restore = seedCrypto(31)
  const d = await devices(['alice', 'bob'] as const, { clock: clock() })
  open.push(d.alice.mem, d.bob.mem)
  const net = network()
  const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
  await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
  const N = 300
  const ids: string[] = []
  for (let i = 0; i < N; i++) ids.push((await d.alice.mem.pools.write(pool, fact(`guest ${i}`, 'drinks', `tea number ${i}`))).id)
  for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
  await settle(net, [d.alice.mem, d.bob.mem])
  expect((await d.bob.mem.pools.info(pool)).size).toBe(N)
  expect((await d.bob.mem.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null)).toHaveLength(N)

  // Each key of the index normalizes a memory's texts (similarity.ts `norm`): counted while Alice
  // forgets one memory and both devices bring it in line. Building the index of N memories
  // normalizes several texts of each (before: about 9 N, on Bob).
  const normalize = String.prototype.normalize
  let calls = 0
  String.prototype.normalize = function (this: string, form?: string): string {
    calls++
    return normalize.call(this, form)
  }
  try {
    await d.alice.mem.pools.forget(ids[N >> 1]!)
    await settle(net, [d.alice.mem, d.bob.mem])
  } finally {
    String.prototype.normalize = normalize
  }
  expect((await d.bob.mem.pools.info(pool)).size).toBe(N - 1)
  expect((await d.bob.mem.facts.audit()).filter((f) => f.metadata['pool'] === pool && f.supersededBy === null)).toHaveLength(N - 1)
  expect(calls).toBeLessThan(N / 2)
}, 120_000)

test("a device's subscribers hear a forget it judged before its pass compacts the log (the state still syncing)", async () => {
  restore = seedCrypto(32)
  const d = await devices(['alice', 'bob'] as const, { clock: clock() })
  open.push(d.alice.mem, d.bob.mem)
  const net = network()
  const pool = (await d.alice.mem.pools.create({ name: 'household' })).id
  await d.alice.mem.pools.share(pool, d.bob.id.did, { write: true })
  const secret = await d.alice.mem.pools.write(pool, fact('spare key', 'is_under', 'the blue flowerpot'))
  await d.alice.mem.pools.write(pool, fact('Aria', 'lives_in', 'Rome'))
  for (const x of [d.alice, d.bob]) await x.mem.sync.attach(pool, net.provider(x.name))
  await settle(net, [d.alice.mem, d.bob.mem])
  // Bob's status as told, and whether his log rows still held the forgotten text then.
  const told: Array<{ state: string; records: number; incoming: number; inLog: boolean }> = []
  const rows = (): string => JSON.stringify(d.bob.storage.dump()['syncUpdates'] ?? [], (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : v))
  const stop = await d.bob.mem.sync.subscribe((s) => {
    const p = s.pools[0]!
    told.push({ state: s.state, records: p.records, incoming: p.pending.incoming, inLog: rows().includes('the blue flowerpot') })
  })
  await d.alice.mem.pools.forget(secret.id)
  await settle(net, [d.alice.mem, d.bob.mem])
  stop()
  expect(rows()).not.toContain('the blue flowerpot')
  // Told once the forget was judged (nothing incoming) while the log still held it: the pass had not compacted yet.
  expect(told.some((t) => t.state === 'syncing' && t.incoming === 0 && t.inLog)).toBe(true)
  expect(told.at(-1)!.state).toBe('synced')
}, 120_000)
