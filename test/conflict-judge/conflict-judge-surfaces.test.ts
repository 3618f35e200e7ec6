import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterEach, expect, test } from 'vitest'
import { GmpHttpClient } from '../../src/gmp-http/client.js'
import { createGmpServer, type GmpServer } from '../../src/gmp-http/server.js'
import { createMemory, type ConflictJudge, type Memory } from '../../src/index.js'
import { createMcpServer } from '../../src/mcp/index.js'

/**
 * Issue 27: with a second-stage judge, its mark on each free-text conflict reaches a model through
 * every surface that lists conflicts: the AI SDK tool (ai-conflict-judge.test.ts), MCP
 * `gmp_conflicts` and the GMP HTTP conflicts endpoint (here). The detector flags both pairs; the
 * judge calls only the projector pair a contradiction.
 */
const PAIRS = [['Room 4B has a projector', '4B has no projector, just a wall TV'], ['Daily standup starts at 9:30', 'standup is at 10 every morning']] as const
const JUDGED = { id: 'fixed-judge', status: 'judged', label: 'contradiction', confidence: 0.9 }

function fixedJudge(): ConflictJudge {
  return {
    id: 'fixed-judge',
    judge: async (pairs) => pairs.map(([a, b]) => (`${a} ${b}`.includes('projector') ? { label: 'contradiction', confidence: 0.9 } : { label: 'neutral', confidence: 0.8 })),
  }
}

async function poll<T>(read: () => Promise<T>, expected: T): Promise<void> {
  await expect.poll(read, { timeout: 10_000, interval: 20 }).toEqual(expected)
}

const mems: Memory[] = []
const servers: GmpServer[] = []
afterEach(async () => {
  for (const m of mems.splice(0)) await m.close()
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

test('MCP gmp_conflicts carries the judge mark: pending while it is asked, then judged (and the pair it cleared is gone)', async () => {
  const mem = await createMemory({ storage: 'memory', conflictJudge: { judge: fixedJudge() } })
  mems.push(mem)
  const client = new Client({ name: 'memweave-test', version: '0.0.0' })
  const [ours, theirs] = InMemoryTransport.createLinkedPair()
  await createMcpServer(mem).connect(theirs)
  await client.connect(ours)
  const listed = async (): Promise<Array<{ judge?: unknown }>> => {
    const result = await client.callTool({ name: 'gmp_conflicts', arguments: {} })
    return (JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { conflicts: Array<{ judge?: unknown }> }).conflicts
  }
  for (const [a, b] of PAIRS) {
    await mem.facts.write(a)
    await mem.facts.write(b)
  }
  const first = await listed()
  // Asked in the background: what the first read sees depends on whether the judge has answered.
  expect(first.length).toBeGreaterThan(0)
  for (const c of first) expect(c.judge).toMatchObject({ id: 'fixed-judge' })
  await mem.facts.conflicts({ waitForJudge: true })
  await poll(async () => (await listed()).map((c) => c.judge), [JUDGED])
  await client.close()
})

test('GMP HTTP: a server made with conflictJudge sends each conflict\'s judge mark; the client reads it; without one there is none', async () => {
  const judged = createGmpServer({ port: 0, onError: () => undefined, conflictJudge: { judge: fixedJudge() } })
  const plain = createGmpServer({ port: 0, onError: () => undefined })
  servers.push(judged, plain)
  for (const [server, withJudge] of [[judged, true], [plain, false]] as const) {
    const url = (await server.listen()).url
    const client = await GmpHttpClient.createStore(url)
    for (const [a, b] of PAIRS) {
      await client.write(a)
      await client.write(b)
    }
    const wire = async (): Promise<unknown[]> => {
      const res = await fetch(`${url}/stores/${client.storeId}/conflicts`)
      return ((await res.json()) as { conflicts: Array<{ judge?: unknown }> }).conflicts.map((c) => c.judge)
    }
    if (withJudge) {
      await poll(wire, [JUDGED])
      expect((await client.conflicts()).map((c) => c.judge)).toEqual([JUDGED])
    } else {
      expect(await wire()).toEqual([undefined, undefined])
      expect((await client.conflicts()).every((c) => !('judge' in c))).toBe(true)
    }
  }
})

/** A judge that answers only once `release()` is called: what a read sees before then is pending. */
function heldJudge(): { judge: ConflictJudge; release: () => void } {
  let release!: () => void
  const gate = new Promise<void>((resolve) => (release = resolve))
  const fixed = fixedJudge()
  return { judge: { id: fixed.id, judge: async (pairs, o) => gate.then(() => fixed.judge(pairs, o)) }, release }
}

test('GMP HTTP: ?wait_for_judge=true lists once the judge has answered, as facts.conflicts({ waitForJudge }) does; the client passes waitForJudge; a bad value is 400', async () => {
  const held = heldJudge()
  const server = createGmpServer({ port: 0, onError: () => undefined, conflictJudge: { judge: held.judge } })
  servers.push(server)
  const url = (await server.listen()).url
  const client = await GmpHttpClient.createStore(url)
  for (const [a, b] of PAIRS) {
    await client.write(a)
    await client.write(b)
  }
  const conflicts = `${url}/stores/${client.storeId}/conflicts`
  const marks = async (res: Response): Promise<unknown[]> => ((await res.json()) as { conflicts: Array<{ judge?: { status?: string } }> }).conflicts.map((c) => c.judge?.status)
  // The judge is held: without waiting, both pairs are pending; ?wait_for_judge=false is the same.
  expect(await marks(await fetch(conflicts))).toEqual(['pending', 'pending'])
  expect(await marks(await fetch(`${conflicts}?wait_for_judge=false`))).toEqual(['pending', 'pending'])
  // Asked to wait, the reply comes only after the judge answers, and carries its verdicts.
  const waiting = fetch(`${conflicts}?wait_for_judge=true`)
  const viaClient = client.conflicts({ waitForJudge: true })
  held.release()
  const res = await waiting
  expect(res.status).toBe(200)
  expect(((await res.json()) as { conflicts: Array<{ judge?: unknown }> }).conflicts.map((c) => c.judge)).toEqual([JUDGED])
  expect((await viaClient).map((c) => c.judge)).toEqual([JUDGED])
  for (const bad of ['yes', '1', '']) {
    const reply = await fetch(`${conflicts}?wait_for_judge=${bad}`)
    expect(reply.status, bad).toBe(400)
    const body = (await reply.json()) as { error?: string; message?: string }
    expect(body.error).toBe('bad_request')
    expect(body.message).toContain('wait_for_judge')
  }
})

test('MCP gmp_conflicts takes wait_for_judge: the list waits for the judge and carries its verdicts', async () => {
  const held = heldJudge()
  const mem = await createMemory({ storage: 'memory', conflictJudge: { judge: held.judge } })
  mems.push(mem)
  const client = new Client({ name: 'memweave-test', version: '0.0.0' })
  const [ours, theirs] = InMemoryTransport.createLinkedPair()
  await createMcpServer(mem).connect(theirs)
  await client.connect(ours)
  const call = async (args: Record<string, unknown>): Promise<{ isError?: boolean; conflicts?: Array<{ judge?: { status?: string } }> }> => {
    const result = await client.callTool({ name: 'gmp_conflicts', arguments: args })
    const text = (result.content as Array<{ text: string }>)[0]!.text
    return { isError: result.isError === true, ...(result.isError ? {} : (JSON.parse(text) as { conflicts: Array<{ judge?: { status?: string } }> })) }
  }
  for (const [a, b] of PAIRS) {
    await mem.facts.write(a)
    await mem.facts.write(b)
  }
  expect((await call({ wait_for_judge: false })).conflicts!.map((c) => c.judge?.status)).toEqual(['pending', 'pending'])
  const waiting = call({ wait_for_judge: true })
  held.release()
  expect((await waiting).conflicts!.map((c) => c.judge)).toEqual([JUDGED])
  expect((await call({ wait_for_judge: 'yes' })).isError).toBe(true)
  await client.close()
})
