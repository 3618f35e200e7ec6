import { expect, test } from 'vitest'
import { WriteBatcher, type BatchOp, type Joinable } from '../../src/storage/batcher.js'

/**
 * Issue 31 (fifth round): items of a write that runs many at a time (`enqueueItem`, the fact
 * store's puts) queued one after another in a tick run as one call, in their order and in the
 * batch's place; each resolves with its own result once its batch committed, a failed batch
 * rejects every item of it, and a batch's ops add up to at most its maximum of writes.
 */

/** A batcher whose ops log what runs, committed when the test says (`tick()`), batch by batch. */
function harness(maxOps = 2000): {
  batcher: WriteBatcher<string[]>
  batches: string[][]
  tick: () => Promise<void>
  fail: (err: unknown) => void
} {
  const batches: string[][] = []
  let failure: unknown = null
  const held: Array<() => void> = []
  const batcher = new WriteBatcher<string[]>(async (ops: ReadonlyArray<BatchOp<string[], unknown>>) => {
    const ran: string[] = []
    const results: unknown[] = []
    for (const op of ops) results.push(await op.run(ran))
    batches.push(ran)
    if (failure !== null) throw failure
    ops.forEach((op, i) => op.resolve(results[i]))
  }, maxOps)
  batcher.schedule = (drain) => held.push(drain)
  return {
    batcher,
    batches,
    tick: async () => {
      for (const drain of held.splice(0)) drain()
      await batcher.flush()
    },
    fail: (err) => (failure = err),
  }
}

const join = (name: string): Joinable<string[], string> => ({
  async runAll(ran, items) {
    ran.push(`${name}(${items.join(',')})`)
    return items.map((x) => `${name}:${x}`)
  },
})

test('items queued one after another run as one call; an op between them starts a new one; results are per item', async () => {
  const { batcher, batches, tick } = harness()
  const puts = join('put')
  const other = join('other')
  const got = Promise.all([
    batcher.enqueueItem(puts, 'a'),
    batcher.enqueueItem(puts, 'b'),
    batcher.enqueue(async (ran) => void ran.push('delete')),
    batcher.enqueueItem(puts, 'c'),
    batcher.enqueueItem(other, 'x'),
    batcher.enqueueItem(puts, 'd'),
    batcher.enqueueItem(puts, 'e'),
  ])
  expect(batcher.queued).toBe(7)
  await tick()
  expect(batches).toEqual([['put(a,b)', 'delete', 'put(c)', 'other(x)', 'put(d,e)']])
  expect(await got).toEqual(['put:a', 'put:b', undefined, 'put:c', 'other:x', 'put:d', 'put:e'])
})

test('an item queued while a batch commits joins the next batch, not the one running', async () => {
  const { batcher, batches, tick } = harness()
  const puts = join('put')
  const first = batcher.enqueueItem(puts, 'a')
  await tick()
  const second = batcher.enqueueItem(puts, 'b')
  await tick()
  expect(await Promise.all([first, second])).toEqual(['put:a', 'put:b'])
  expect(batches).toEqual([['put(a)'], ['put(b)']])
})

test('a failed batch rejects every item of it, and the next batch runs', async () => {
  const { batcher, tick, fail } = harness()
  const puts = join('put')
  const boom = new Error('transaction aborted')
  fail(boom)
  const items = Promise.allSettled(['a', 'b', 'c'].map((x) => batcher.enqueueItem(puts, x)))
  await tick()
  expect(await items).toEqual(['a', 'b', 'c'].map(() => ({ status: 'rejected', reason: boom })))
  fail(null)
  const later = batcher.enqueueItem(puts, 'd')
  await tick()
  expect(await later).toBe('put:d')
})

test('a batch holds at most its maximum of writes, joined items counted one by one', async () => {
  const { batcher, batches, tick } = harness(3)
  const puts = join('put')
  const all = Promise.all([
    ...['a', 'b', 'c', 'd', 'e'].map((x) => batcher.enqueueItem(puts, x)),
    batcher.enqueue(async (ran) => void ran.push('delete')),
    batcher.enqueueItem(puts, 'f'),
  ])
  await tick()
  await all
  expect(batches).toEqual([['put(a,b,c)'], ['put(d,e)', 'delete'], ['put(f)']])
})
