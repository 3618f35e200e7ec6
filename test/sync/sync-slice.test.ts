import { expect, test } from 'vitest'
import type { PoolId } from '../../src/pools/types.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'
import { PoolSync } from '../../src/sync/pool-sync.js'
import { FairQueue, SliceSize } from '../../src/sync/slice.js'

/** Bounded materializer passes (src/sync/slice.ts): fair by author, sized by the measured cost per key. */

test('a flood of one author does not keep another author’s key out of the next slice, whatever the slice size', () => {
  for (const limit of [1, 2, 3, 16]) {
    const q = new FairQueue()
    const live = new Set<string>()
    for (let i = 0; i < 1000; i++) {
      q.add(`m${i}`, 'mallory')
      live.add(`m${i}`)
    }
    q.add('bob-1', 'bob')
    live.add('bob-1')
    const taken: string[] = []
    // Within two passes of any size the honest key is taken (one pass when the slice holds two).
    for (let pass = 0; pass < 2 && !taken.includes('bob-1'); pass++) {
      const slice = q.take(limit, (k) => live.has(k))
      expect(slice.length).toBe(limit)
      for (const k of slice) live.delete(k)
      taken.push(...slice)
    }
    expect(taken).toContain('bob-1')
    // Each author's keys in their order; nothing twice.
    const ms = taken.filter((k) => k.startsWith('m'))
    expect(ms).toEqual(ms.map((_, i) => `m${i}`))
  }
})

test('keys no longer pending or queued twice are skipped, and an exhausted queue yields nothing', () => {
  const q = new FairQueue()
  for (const k of ['a', 'b', 'a', 'c']) q.add(k, 'x')
  q.add('d', 'y')
  expect(q.take(10, (k) => k !== 'b')).toEqual(['a', 'd', 'c'])
  expect(q.take(10, () => true)).toEqual([])
})

test('the slice size fits the budget at the measured cost per key, and outgrows the fixed part of a pass in a big pool', () => {
  const s = new SliceSize(50)
  expect(s.next).toBe(4)
  // Cheap passes: 2 ms fixed, 1 ms a key: about 48 keys fit in 50 ms (give or take the alternation).
  s.note(4, 6)
  s.note(10, 12)
  expect(s.next).toBeGreaterThanOrEqual(48 * 0.8 - 1)
  expect(s.next).toBeLessThanOrEqual(48 * 1.25 + 1)
  // A big pool: 200 ms fixed, 1 ms a key: the keys get three times the fixed part.
  const big = new SliceSize(50)
  big.note(4, 204)
  big.note(100, 300)
  expect(big.next).toBeGreaterThanOrEqual(600 * 0.8 - 1)
  expect(big.next).toBeLessThanOrEqual(600 * 1.25 + 1)
  // One size only: all of a pass counts per key, so the pass fits the budget.
  const flat = new SliceSize(50)
  flat.note(10, 100)
  expect(flat.next).toBeLessThanOrEqual(Math.ceil(5 * 1.25))
  // A catch-up's sizer starts large, and once measured goes by the measure like any other.
  const bulk = new SliceSize(1000, { first: 1000 })
  expect(bulk.next).toBe(1000)
  bulk.note(1000, 2000)
  expect(bulk.next).toBeLessThanOrEqual(Math.ceil(500 * 1.25))
  // Small noisy passes (a loaded machine during a flood) fit almost nothing a key: the next pass
  // grows at most to twice the largest measured (it took 2,565 keys and a second before).
  const noisy = new SliceSize(100, { growth: 2 })
  const seen = [[1, 4], [1, 4], [1, 5], [1, 13], [1, 4], [10, 90], [4, 16], [6, 56], [4, 18], [6, 11], [4, 9], [7, 4], [6, 3], [10, 8], [9, 55], [13, 10], [12, 5], [17, 9], [38, 15]] as const
  for (const [keys, ms] of seen) noisy.note(keys, ms)
  expect(noisy.next).toBeLessThanOrEqual(2 * 38)
  expect(noisy.next).toBeGreaterThan(38)
})

test('keys an exchange of states brings are a catch-up (large passes); keys arriving once a link is in step are not', () => {
  const ps = new PoolSync('0'.repeat(32) as PoolId, memoryStorage(), () => undefined, 1)
  ps.listen()
  const link = ps.addLink('test')
  ps.report(link, { connected: true, synced: false, error: null })
  const remote = Symbol('provider')
  // The first exchange of states: the whole pool arrives before the link is in step.
  ps.doc.transact(() => {
    for (let i = 0; i < 10; i++) ps.pdoc.map.set(`k${i}`, { i })
  }, remote)
  ps.report(link, { connected: true, synced: true, error: null })
  expect(ps.catchingUp).toBe(true)
  const first = ps.takeChanged(4)
  expect(first.slice.size).toBe(4)
  expect(ps.catchingUp).toBe(true)
  ps.takeChanged()
  expect(ps.catchingUp).toBe(false)
  // In step: a flood is not a catch-up, it gets the fair, short passes.
  ps.doc.transact(() => {
    for (let i = 0; i < 10; i++) ps.pdoc.map.set(`f${i}`, { i })
  }, remote)
  expect(ps.pending).toBe(true)
  expect(ps.catchingUp).toBe(false)
  // Back from offline: what the new exchange of states brings is a catch-up again.
  ps.report(link, { connected: false, synced: false, error: null })
  ps.doc.transact(() => ps.pdoc.map.set('late', { i: 0 }), remote)
  expect(ps.catchingUp).toBe(true)
  ps.destroy()
})

test('keys asked for first (just healed) are in the slice whatever its size; the rest stay pending and are taken later, once', () => {
  const ps = new PoolSync('0'.repeat(32) as PoolId, memoryStorage(), () => undefined, 1)
  ps.listen()
  const remote = Symbol('provider')
  ps.doc.transact(() => {
    for (let i = 0; i < 6; i++) ps.pdoc.map.set(`t${i}`, { author: 'mallory', i })
    ps.pdoc.map.set('healed', { i: 0 })
  }, remote)
  const { slice } = ps.takeChanged(1, ['healed', 'not-pending'])
  expect([...slice]).toEqual(['healed'])
  expect(ps.isPending('healed')).toBe(false)
  const taken: string[] = []
  while (ps.pending) taken.push(...ps.takeChanged(1).slice)
  expect(taken.sort()).toEqual(['t0', 't1', 't2', 't3', 't4', 't5'])
  // With room for more, the fair queue fills the rest of the slice.
  ps.doc.transact(() => {
    for (let i = 0; i < 4; i++) ps.pdoc.map.set(`u${i}`, { i })
  }, remote)
  const next = ps.takeChanged(2, ['u3'])
  expect(next.slice.has('u3')).toBe(true)
  expect(next.slice.size).toBe(2)
  ps.destroy()
})
