import { expect, test } from 'vitest'
import { GmpFactStore } from '../../src/facts/store.js'
import { RecordLog } from '../../src/records/log.js'
import { memoryStorage } from '../../src/storage/memory-adapter.js'

/**
 * Issue 31 (sixth round): once the fact store is registered, a write is drafted and queued in the
 * call itself, while the first writes of a store wait for its registration. A write called while
 * earlier ones still wait must queue behind them, not overtake them on the fast way: sequence
 * order is call order, whenever the calls fall around the registration.
 */
test('writes and deletes called in successive microtasks around the registration keep their call order', async () => {
  const store = new GmpFactStore(new RecordLog(memoryStorage()))
  const kept = await store.write('written before, to be deleted')
  const fresh = new GmpFactStore(new RecordLog(memoryStorage()))
  const calls: Array<Promise<unknown>> = []
  const contents: string[] = []
  // One call per microtask from before the registration starts until well after it ended.
  let chain: Promise<void> = Promise.resolve()
  for (let i = 0; i < 400; i++) {
    chain = chain.then(() => {
      const content = `call ${String(i).padStart(3, '0')}`
      contents.push(content)
      calls.push(fresh.write(content))
    })
  }
  await chain
  await Promise.all(calls)
  const bySequence = (await fresh.audit()).sort((a, b) => (a.sequence < b.sequence ? -1 : 1)).map((f) => f.content)
  expect(bySequence).toEqual(contents)
  // A delete called in the same step as writes is ordered among them too (a delete of the ref a write in the same tick re-asserts).
  const again = store.write('written before, to be deleted')
  const gone = store.delete(kept)
  const after = store.write('written before, to be deleted')
  expect(await again).toBe(kept)
  expect(await gone).toBe(true)
  expect(await after).not.toBe(kept)
  expect((await store.audit()).map((f) => f.content)).toEqual(['written before, to be deleted'])
})
