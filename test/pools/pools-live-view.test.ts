import { expect, test } from 'vitest'
import type { PoolSnapshot } from '../../src/index.js'
import { agents, expectCode, fact } from '../helpers/pools-helpers.js'

/**
 * Issue 29, item 4: `pools.subscribe`, the live pool view React's usePool stands on. Two agents on
 * one database (two tabs): B watches the pool, A writes into it, and B's view follows; watching is
 * not reading (an EPHEMERAL memory A wrote stays unconsumed, no read is counted) while a query()
 * by B consumes it, which the view then shows; after the unsubscribe nothing more arrives; a
 * refused pool or bad options register nothing.
 */

/** A subscriber that records what it gets; `next()` resolves with the next delivery. */
function collector(): { seen: PoolSnapshot[]; next(): Promise<PoolSnapshot>; callback: (s: PoolSnapshot) => void } {
  const seen: PoolSnapshot[] = []
  let waiters: Array<(s: PoolSnapshot) => void> = []
  return {
    seen,
    next: () => new Promise((ok) => waiters.push(ok)),
    callback: (s) => {
      seen.push(s)
      const woken = waiters
      waiters = []
      for (const ok of woken) ok(s)
    },
  }
}

test('a live pool view follows another handle\'s writes, counts no read and consumes nothing', async () => {
  const { mem, id, close } = await agents(['a', 'b'])
  const pool = await mem.a.pools.create({ name: 'team' })
  await mem.a.pools.share(pool.id, id.b.did, { write: true })
  const c = collector()
  const stop = await mem.b.pools.subscribe(pool.id, {}, c.callback)
  expect(c.seen).toHaveLength(1)
  expect(c.seen[0]!.info).toMatchObject({ id: pool.id, name: 'team', size: 0 })
  expect(c.seen[0]!.memories).toEqual([])

  let next = c.next()
  await mem.a.pools.write(pool.id, fact('standup', 'starts_at', '09:30'))
  let got = await next
  expect(got.memories.map((m) => m.content.object)).toEqual(['09:30'])
  expect(got.info.size).toBe(1)

  next = c.next()
  const once = await mem.a.pools.write(pool.id, { type: 'CONTEXT', content: { subject: 'otp', predicate: 'is', object: '913-554' }, privacy: 'EPHEMERAL' })
  got = await next
  expect(got.memories.map((m) => m.content.object).sort()).toEqual(['09:30', '913-554'])
  // Delivered to B, and still there: a view is not a read.
  expect(got.memories.every((m) => m.accessCount === 0)).toBe(true)
  expect(await mem.a.pools.status(once.id)).not.toBe('forgotten')

  // B's counted query consumes the ephemeral memory; the view shows it gone.
  next = c.next()
  const read = await mem.b.pools.query(pool.id)
  expect(read.map((m) => m.content.object).sort()).toEqual(['09:30', '913-554'])
  got = await next
  expect(got.memories.map((m) => m.content.object)).toEqual(['09:30'])
  expect(await mem.a.pools.status(once.id)).toBe('forgotten')
  const calls = c.seen.length
  expect(calls).toBe(4)

  stop()
  await mem.a.pools.write(pool.id, fact('standup', 'room', 'Blue'))
  // A second view, still subscribed, says when the write has been evaluated.
  const d = collector()
  const stopD = await mem.b.pools.subscribe(pool.id, {}, d.callback)
  next = d.next()
  await mem.a.pools.write(pool.id, fact('standup', 'length', '15 minutes'))
  await next
  expect(c.seen).toHaveLength(calls)
  stopD()

  await expectCode(mem.b.pools.subscribe('00'.repeat(16), {}, () => undefined), 'NOT_FOUND')
  await expectCode(mem.b.pools.subscribe(pool.id, { limit: -1 }, () => undefined), 'INVALID_ARGUMENT')
  await close()
})
