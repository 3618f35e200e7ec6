import { expect, test } from 'vitest'
import { createMemory, isMemweaveError, memoryStorage, type FactConflict } from '../../src/index.js'

/**
 * Issue 29, item 4: `facts.subscribeConflicts`, the live listing React's useConflicts stands on. It
 * delivers conflicts() now and after each write that changes it (a contradiction written, then
 * superseded away), not after writes that leave it as it was; bad options are refused before anything
 * is registered; after the unsubscribe nothing more arrives.
 */
test('subscribeConflicts delivers the listing now and on each change of it, and stops when asked', async () => {
  const mem = await createMemory({ storage: memoryStorage() })
  const f = mem.facts
  const seen: FactConflict[][] = []
  let next: (() => void) | null = null
  const arrived = (): Promise<void> => new Promise((ok) => (next = ok))
  let wait = arrived()
  const stop = await f.subscribeConflicts({}, (list) => {
    seen.push(list)
    next?.()
  })
  await wait
  expect(seen).toEqual([[]])

  const rome = await f.assert({ subject: 'Aria', predicate: 'lives_in', object: 'Rome' })
  await f.write('The weather is mild today')
  await f.flush()
  wait = arrived()
  const paris = await f.assert({ subject: 'Aria', predicate: 'lives_in', object: 'Paris' })
  await wait
  // The two writes before the contradiction changed nothing that is listed: no call for them.
  expect(seen).toHaveLength(2)
  expect(seen[1]!.map((c) => [...c.refs].sort())).toEqual([[rome, paris].sort()])

  wait = arrived()
  await f.supersede(paris, 'Aria lives in Rome now', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
  await wait
  expect(seen.at(-1)).toEqual([])

  stop()
  const calls = seen.length
  // A second listener, still subscribed, says when the change has been evaluated.
  let heard: () => void = () => undefined
  const evaluated = new Promise<void>((ok) => (heard = ok))
  const stopOther = await f.subscribeConflicts({}, (list) => void (list.length > 0 && heard()))
  await f.assert({ subject: 'Aria', predicate: 'lives_in', object: 'Oslo' })
  await evaluated
  expect(await f.conflicts()).toHaveLength(2) // Oslo against each Rome
  expect(seen).toHaveLength(calls)
  stopOther()

  for (const options of [{ limit: 0 }, { minConfidence: 2 }]) {
    const err = await f.subscribeConflicts(options, () => seen.push([])).catch((e: unknown) => e)
    expect(isMemweaveError(err) && err.code === 'INVALID_ARGUMENT').toBe(true)
  }
  expect(seen).toHaveLength(calls)
  await mem.close()
})
