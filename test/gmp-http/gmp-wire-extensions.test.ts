import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { GmpHttpClient } from '../../src/gmp-http/client.js'
import { createGmpServer, type GmpServer, type GmpServerOptions } from '../../src/gmp-http/server.js'

// Issue 17, the GMP HTTP wire: misplaced or unknown fields are a 400 naming the field (they used to
// be dropped with a 200); conflicts and the store list are readable over the wire; written_by is a did:key.

const servers: GmpServer[] = []
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

async function start(options: GmpServerOptions = {}): Promise<string> {
  const server = createGmpServer({ port: 0, onError: () => undefined, ...options })
  servers.push(server)
  return (await server.listen()).url
}

async function http(url: string, method: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }
}

test('an option put at the top level is refused with 400 naming it and where it belongs; nothing is written', async () => {
  const url = await start()
  const store = ((await http(`${url}/stores`, 'POST', {})).json['store_id']) as string
  const misplaced = await http(`${url}/stores/${store}/write`, 'POST', { content: 'Aria lives in Rome', valid_from: '2020-01-01T00:00:00Z' })
  expect(misplaced.status).toBe(400)
  expect(misplaced.json).toMatchObject({ error: 'bad_request' })
  expect(String(misplaced.json['message'])).toContain('unknown field "valid_from"')
  expect(String(misplaced.json['message'])).toContain('belongs under "options"')
  expect((await http(`${url}/stores/${store}/audit`, 'GET')).json['memories']).toEqual([])

  for (const [op, body, field] of [
    ['write', { content: 'x', options: { validFrom: '2020-01-01' } }, 'options.validFrom'],
    ['retrieve', { query: 'x', top_k: 3 }, 'top_k'],
    ['retrieve', { query: 'x', options: { valid_from: null } }, 'options.valid_from'],
    ['supersede', { old_ref: 'r', content: 'x', ref: 'r' }, 'ref'],
    ['delete', { ref: 'r', force: true }, 'force'],
    ['flush', { now: true }, 'now'],
  ] as const) {
    const reply = await http(`${url}/stores/${store}/${op}`, 'POST', body)
    expect(reply.status, `${op} ${JSON.stringify(body)}`).toBe(400)
    expect(String(reply.json['message'])).toContain(`"${field}"`)
  }
  expect((await http(`${url}/stores`, 'POST', { capabilities: ['audit'], name: 'x' })).status).toBe(400)
  // The well-formed write still works.
  expect((await http(`${url}/stores/${store}/write`, 'POST', { content: 'Aria lives in Rome', options: { valid_from: '2020-01-01T00:00:00Z' } })).status).toBe(200)
})

test('GET conflicts lists contradictions (scoped by tenant_id); the client reads them', async () => {
  const url = await start()
  const client = await GmpHttpClient.createStore(url)
  const rome = await client.write('Aria lives in Rome', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Rome' } })
  const paris = await client.write('Aria lives in Paris', { metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Paris' } })
  await client.write('Bo lives in Oslo', { tenantId: 'other', metadata: { subject: 'Bo', predicate: 'lives_in', object: 'Oslo' } })
  const reply = await http(`${url}/stores/${client.storeId}/conflicts`, 'GET')
  expect(reply.status).toBe(200)
  const conflicts = reply.json['conflicts'] as Array<{ refs: string[]; kind: string; subject: string }>
  expect(conflicts).toHaveLength(1)
  expect(new Set(conflicts[0]!.refs)).toEqual(new Set([rome, paris]))
  expect(conflicts[0]).toMatchObject({ kind: 'single-valued-predicate', subject: 'Aria', tenant_id: null })
  expect(await client.conflicts({ tenantId: 'other' })).toEqual([])
  expect((await client.conflicts()).map((c) => c.subject)).toEqual(['Aria'])
  expect((await http(`${url}/stores/${client.storeId}/conflicts?tenant=x`, 'GET')).status).toBe(400)
  expect((await http(`${url}/stores/${client.storeId}/conflicts`, 'POST', {})).status).toBe(405)
})

test('GET /v1/stores lists every store, across a restart with --dir; it needs the token like everything else', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'memweave-wire-'))
  dirs.push(dir)
  const url = await start({ dir, token: 'secret' })
  const a = await GmpHttpClient.createStore(url, { token: 'secret', capabilities: ['audit', 'provenance'] })
  const b = await GmpHttpClient.createStore(url, { token: 'secret' })
  expect((await fetch(`${url}/stores`)).status).toBe(401)
  const listed = await GmpHttpClient.listStores(url, { token: 'secret' })
  expect(listed.map((s) => s.store_id).sort()).toEqual([a.storeId, b.storeId].sort())
  expect(listed.find((s) => s.store_id === a.storeId)!.capabilities).toEqual(['audit', 'provenance'])
  await servers.pop()!.close()
  const again = await start({ dir, token: 'secret' })
  expect((await GmpHttpClient.listStores(again, { token: 'secret' })).map((s) => s.store_id).sort()).toEqual([a.storeId, b.storeId].sort())
})

test('written_by speaks did:key, as the library names agents', async () => {
  const url = await start()
  const client = await GmpHttpClient.createStore(url)
  await client.write('signed by the server')
  const [m] = await client.audit()
  expect(m!.source!.writtenBy).toMatch(/^did:key:z6Mk/)
  expect(m!.source!.writtenBy).toBe(servers[0]!.identity!.did)
})
