import { expect, test } from 'vitest'
import { createMemory, isMemweaveError, memoryStorage } from '../../src/index.js'

/**
 * Issue 26, case 4, in the fact store: 300 facts giving one subject's single-valued predicate 300
 * objects are 44,850 conflicting pairs. The listing stops at its limit and a fact's conflictsWith
 * names at most 100, instead of every pair and every other fact of the slot (default limit 10,000).
 */
test('a slot of 300 objects: conflicts() lists up to its limit, conflictsWith names at most 100', async () => {
  const mem = await createMemory({ storage: memoryStorage() })
  const f = mem.facts
  const refs: string[] = []
  for (let i = 0; i < 300; i++) refs.push(await f.assert({ subject: 'the build', predicate: 'status', object: `value ${i}` }))
  const other = await f.assert({ subject: 'the weather', predicate: 'is', object: 'sunny' })
  expect(await f.conflicts()).toHaveLength(10_000)
  const listed = await f.conflicts({ limit: 1000 })
  expect(listed).toHaveLength(1000)
  expect(listed.every((c) => c.kind === 'single-valued-predicate' && refs.includes(c.refs[0]) && refs.includes(c.refs[1]))).toBe(true)
  expect(new Set(listed.map((c) => c.refs.join(' '))).size).toBe(1000)
  expect(await f.conflicts({ limit: 5 })).toEqual(listed.slice(0, 5))
  const one = (await f.get(refs[0]!))!
  expect(one.conflictsWith).toEqual(refs.slice(1).sort().slice(0, 100))
  expect((await f.get(other))!.conflictsWith).toEqual([])
  for (const limit of [0, 100_001, 1.5]) {
    const err = await f.conflicts({ limit }).catch((e: unknown) => e)
    expect(isMemweaveError(err) && err.code === 'INVALID_ARGUMENT' && err.details.field === 'limit').toBe(true)
  }
  await mem.close()
})
