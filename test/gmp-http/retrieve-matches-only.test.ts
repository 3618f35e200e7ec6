import { expect, test } from 'vitest'
import { GmpHttpClient } from '../../src/gmp-http/client.js'
import { createGmpServer } from '../../src/gmp-http/server.js'
import { createMemory } from '../../src/index.js'

// RetrieveOptions.matchesOnly (issue 29): the relevant memories without the zero-score tail that
// fills the budget by importance and recency (docs/retrieval.md), for callers that hand the result
// to a model (memoryTools' recall, memoryMiddleware).

test('matchesOnly leaves out the zero-score tail, not the matches; a non-boolean is refused', async () => {
  const mem = await createMemory({ storage: 'memory' })
  // Days apart, so no episode context joins them.
  await mem.facts.write('Aria lives in Rome', { validFrom: '2026-01-01T10:00:00Z' })
  await mem.facts.write('The standup starts at 9:30', { validFrom: '2026-02-01T10:00:00Z' })
  expect((await mem.facts.retrieve('where does Aria live')).map((m) => m.content)).toEqual(['Aria lives in Rome', 'The standup starts at 9:30'])
  expect((await mem.facts.retrieve('where does Aria live', { matchesOnly: true })).map((m) => m.content)).toEqual(['Aria lives in Rome'])
  expect(await mem.facts.retrieve('quantum chromodynamics', { matchesOnly: true })).toEqual([])
  await expect(mem.facts.retrieve('Aria', { matchesOnly: 'yes' as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  await mem.close()
})

test('matchesOnly keeps a neighbour that borrows episode context from a match', async () => {
  const mem = await createMemory({ storage: 'memory' })
  await mem.facts.write('Aria moved last spring', { validFrom: '2026-01-01T10:00:00Z' })
  await mem.facts.write('She found a flat near the station', { validFrom: '2026-01-01T10:01:00Z' })
  await mem.facts.write('The standup starts at 9:30', { validFrom: '2026-06-01T10:00:00Z' })
  expect((await mem.facts.retrieve('where did Aria move', { matchesOnly: true })).map((m) => m.content)).toEqual(['Aria moved last spring', 'She found a flat near the station'])
  await mem.close()
})

test('over GMP HTTP: GmpHttpClient sends matches_only (a memweave extension) and the server honours it', async () => {
  const server = createGmpServer({ port: 0, onError: () => undefined })
  try {
    const client = await GmpHttpClient.createStore((await server.listen()).url)
    await client.write('Aria lives in Rome', { validFrom: '2026-01-01T10:00:00Z' })
    await client.write('The standup starts at 9:30', { validFrom: '2026-02-01T10:00:00Z' })
    expect((await client.retrieve('where does Aria live')).map((m) => m.content)).toHaveLength(2)
    expect((await client.retrieve('where does Aria live', { matchesOnly: true })).map((m) => m.content)).toEqual(['Aria lives in Rome'])
    await expect(client.retrieve('Aria', { matchesOnly: 1 as never })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
  } finally {
    await server.close()
  }
})
