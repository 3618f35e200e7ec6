import { expect, test } from 'vitest'
import { memoryTools, MEMORY_TOOL_NAMES } from '../../src/ai/index.js'
import { createIdentity, createMemory } from '../../src/index.js'

// Issue 29, item 3: the tools refuse what a model made up. An unknown ref is a coded refusal with a
// hint, and nothing is written; recall returns only what matches; each schema's required fields are
// the ones its descriptions do not call optional.

type Tools = ReturnType<typeof memoryTools>
const EXEC = { toolCallId: 't', messages: [] } as unknown as Parameters<NonNullable<Tools['recall']['execute']>>[1]

async function setup(options: Parameters<typeof memoryTools>[1] = {}) {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  const tools = memoryTools(mem, options)
  const call = async (name: keyof Tools, input: Record<string, unknown>): Promise<any> => tools[name].execute!(input, EXEC)
  return { mem, call }
}

test('supersede with a ref no fact has is refused (NOT_FOUND, a hint to recall), writes nothing, and the old fact stays current', async () => {
  const { mem, call } = await setup()
  await call('remember', { content: 'Aria lives in Rome' })
  const before = await mem.facts.audit()
  const r = await call('supersede', { ref: 'zzz', content: 'Aria lives in Milan' })
  expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', field: 'ref' } })
  expect(r.error.hint).toMatch(/recall/)
  expect(await mem.facts.audit()).toEqual(before)
  await mem.close()
})

test('supersede of a version already superseded is refused with its successor named; nothing is written', async () => {
  const { mem, call } = await setup()
  const rome = (await call('remember', { content: 'Aria lives in Rome' })).ref
  const milan = (await call('supersede', { ref: rome, content: 'Aria lives in Milan' })).ref
  const before = await mem.facts.audit()
  const r = await call('supersede', { ref: rome, content: 'Aria lives in Turin' })
  expect(r).toMatchObject({ ok: false, error: { code: 'CONFLICT', field: 'ref' } })
  expect(r.error.hint).toContain(milan)
  expect(await mem.facts.audit()).toEqual(before)
  await mem.close()
})

test('forget with a ref no fact has is refused (NOT_FOUND), not "ok, deleted: false"', async () => {
  const { mem, call } = await setup()
  await call('remember', { content: 'Aria lives in Rome' })
  const r = await call('forget', { ref: 'not-a-ref' })
  expect(r).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', field: 'ref' } })
  expect(r.error.hint).toMatch(/recall/)
  expect(await mem.facts.audit()).toHaveLength(1)
  await mem.close()
})

test("a tenant's tools cannot supersede or forget another tenant's fact: its ref is unknown to them", async () => {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  const other = await mem.facts.write('Bob lives in Oslo', { tenantId: 'bob' })
  const tools = memoryTools(mem, { tenantId: 'aria' })
  expect(await tools.forget.execute!({ ref: other }, EXEC)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  expect(await tools.supersede.execute!({ ref: other, content: 'Bob lives in Bergen' }, EXEC)).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  expect((await mem.facts.audit()).map((m) => m.content)).toEqual(['Bob lives in Oslo'])
  await mem.close()
})

test('recall returns only memories that match the query; includeUnmatched fills the budget as before', async () => {
  const { mem, call } = await setup()
  // Days apart, so no episode context joins them (a neighbour in one session borrows a match's relevance, docs/retrieval.md).
  await call('remember', { content: 'Aria lives in Rome', validFrom: '2026-01-01T10:00:00Z' })
  await call('remember', { content: 'The standup starts at 9:30', validFrom: '2026-02-01T10:00:00Z' })
  await call('remember', { content: 'Bob prefers tea', validFrom: '2026-03-01T10:00:00Z' })
  const hits = (await call('recall', { query: 'where does Aria live' })).memories.map((m: { content: string }) => m.content)
  expect(hits).toEqual(['Aria lives in Rome'])
  expect((await call('recall', { query: 'quantum chromodynamics' })).memories).toEqual([])
  const filled = memoryTools(mem, { includeUnmatched: true })
  const all = (await filled.recall.execute!({ query: 'where does Aria live' }, EXEC) as any).memories.map((m: { content: string }) => m.content)
  expect(all[0]).toBe('Aria lives in Rome')
  expect(all).toHaveLength(3)
  await mem.close()
})

test("every tool's schema and its descriptions agree: a field is required exactly when its description does not call it optional", async () => {
  const { mem } = await setup()
  const tools = memoryTools(mem)
  for (const name of MEMORY_TOOL_NAMES) {
    const schema = (tools[name].inputSchema as { jsonSchema: { properties: Record<string, { description: string }>; required: string[] } }).jsonSchema
    for (const [field, spec] of Object.entries(schema.properties)) {
      const saysOptional = /^optional\b/i.test(spec.description)
      expect({ tool: name, field, required: schema.required.includes(field) }).toEqual({ tool: name, field, required: !saysOptional })
    }
  }
  await mem.close()
})
