import { expect, test } from 'vitest'
import { createMemory } from '../../src/index.js'

test('facts persist in real IndexedDB across handles', async () => {
  const name = `smoke-${crypto.randomUUID()}`
  const a = await createMemory({ storage: 'indexeddb', name })
  const ref = await a.facts.write('Aria lives in Rome')
  const b = await createMemory({ storage: 'indexeddb', name })
  const hits = await b.facts.retrieve('Rome')
  expect(hits.map((m) => m.ref)).toEqual([ref])
  await a.close()
  await b.close()
})
