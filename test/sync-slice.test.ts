import { expect, test } from 'vitest'
import { FairQueue, SliceSize } from '../src/sync/slice.js'

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

test('the slice size follows the measured cost per key, within its bounds', () => {
  const s = new SliceSize(50)
  expect(s.next).toBe(4)
  s.note(10, 100) // 10 ms a key
  expect(s.next).toBe(5)
  s.note(100, 10) // cheaper: the average moves
  expect(s.next).toBe(Math.floor(50 / ((10 + 0.1) / 2)))
  const slow = new SliceSize(50)
  slow.note(1, 5000)
  expect(slow.next).toBe(1)
})
