import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { expect, test } from 'vitest'
import { createIdentity, createMemory } from '../../src/index.js'
import { createMcpServer } from '../../src/mcp/server.js'

// Issue 29, item 3, over MCP: gmp_supersede and gmp_delete share memoryTools' ref check (an
// agent's made-up ref is refused with a code and a hint, nothing written), in process through the
// SDK's in-memory transport.

async function connect() {
  const mem = await createMemory({ storage: 'memory', identity: await createIdentity() })
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await createMcpServer(mem).connect(serverSide)
  const client = new Client({ name: 'memweave-test', version: '0.0.0' })
  await client.connect(clientSide)
  const call = async (name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: any }> => {
    const r = await client.callTool({ name, arguments: args })
    return { isError: r.isError === true, body: JSON.parse((r.content as Array<{ text: string }>)[0]!.text) }
  }
  return { mem, client, call }
}

test('gmp_supersede with an unknown ref is refused (NOT_FOUND on old_ref, a hint), writes nothing', async () => {
  const { mem, client, call } = await connect()
  await call('gmp_write', { content: 'Aria lives in Rome' })
  const before = await mem.facts.audit()
  const r = await call('gmp_supersede', { old_ref: 'zzz', content: 'Aria lives in Milan' })
  expect(r.isError).toBe(true)
  expect(r.body.error).toMatchObject({ code: 'NOT_FOUND', field: 'old_ref' })
  expect(r.body.error.hint).toMatch(/recall/)
  expect(await mem.facts.audit()).toEqual(before)
  // A ref of another tenant than the call's is unknown to it too.
  const bob = (await call('gmp_write', { content: 'Bob lives in Oslo', tenant_id: 'bob' })).body.ref
  expect((await call('gmp_supersede', { old_ref: bob, content: 'Bob lives in Bergen' })).body.error.code).toBe('NOT_FOUND')
  expect((await call('gmp_supersede', { old_ref: bob, content: 'Bob lives in Bergen', tenant_id: 'bob' })).isError).toBe(false)
  await client.close()
  await mem.close()
})

test('gmp_delete with an unknown ref is refused (NOT_FOUND), not "deleted: false"; a known ref is deleted', async () => {
  const { mem, client, call } = await connect()
  const ref = (await call('gmp_write', { content: 'Aria lives in Rome' })).body.ref
  const r = await call('gmp_delete', { ref: 'not-a-ref' })
  expect(r.isError).toBe(true)
  expect(r.body.error).toMatchObject({ code: 'NOT_FOUND', field: 'ref' })
  expect(await mem.facts.audit()).toHaveLength(1)
  expect(await call('gmp_delete', { ref })).toEqual({ isError: false, body: { deleted: true } })
  expect(await mem.facts.audit()).toEqual([])
  await client.close()
  await mem.close()
})
