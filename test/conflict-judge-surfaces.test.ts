import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterEach, expect, test } from 'vitest'
import { GmpHttpClient } from '../src/gmp-http/client.js'
import { createGmpServer, type GmpServer } from '../src/gmp-http/server.js'
import { createMemory, type ConflictJudge, type Memory } from '../src/index.js'
import { createMcpServer } from '../src/mcp/index.js'

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
