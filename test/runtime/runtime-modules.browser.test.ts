import { describe, expect, test } from 'vitest'
import { createIdentity, openMemory, type OpenMemoryOptions, type RemoteMemory } from '../../src/index.js'
import { SPEC_V1_FILES } from '../helpers/small-fixtures.js'

// Every module of Memory goes through the worker by the same generic path (src/runtime/remote-call.ts).
const worker = new URL('../../worker/memory-worker.ts', import.meta.url)
const open = (o: OpenMemoryOptions): Promise<RemoteMemory> => openMemory({ worker, ...o })

describe.each(['shared', 'dedicated'] as const)('modules through the %s worker', (mode) => {
  test('working memory: agents in two tabs share a task, conflicts are flagged across them, and it survives a reopen', async () => {
    const name = `wm-${mode}-${crypto.randomUUID()}`
    const a = await open({ name, mode })
    const b = await open({ name, mode })
    const wa = await a.working.open('launch', { maxItemsPerAgent: 7 })
    const wb = await b.working.open('launch')
    expect(wa.taskId).toBe('launch') // plain properties of a handle cross with it
    const o1 = await wa.addObservation({ content: 'The launch meeting is at 3pm', sourceAgentId: 'planner', beliefType: 'fact', isBeliefCandidate: true })
    const o2 = await wb.addObservation({ content: 'The launch meeting is at 4pm', sourceAgentId: 'scheduler', beliefType: 'fact', isBeliefCandidate: true })
    const conflicts = await wa.getConflicts()
    expect(conflicts.map((c) => [c.a.id, c.b.id].sort())).toContainEqual([o1.id, o2.id].sort())
    const context = await wb.getContextForAgent('critic', 'RESEARCHER')
    expect(context.map((o) => o.content).sort()).toEqual(['The launch meeting is at 3pm', 'The launch meeting is at 4pm'])
    await a.close()
    await b.close()
    const c = await open({ name, mode })
    const wc = await c.working.open('launch')
    expect((await wc.getContextForAgent('critic', 'RESEARCHER')).length).toBe(2)
    await expect(wc.addObservation({ content: '', sourceAgentId: '' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' })
    await c.close()
  })

  test('SMALL: a human identity imports the workspace in the worker; it validates and exports byte for byte', async () => {
    const human = await createIdentity({ nonExtractable: true })
    const mem = await open({ name: `small-${mode}-${crypto.randomUUID()}`, mode, identity: human, small: { humans: [human.did] } })
    await mem.small.import(SPEC_V1_FILES)
    const report = await mem.small.validate({ strict: true })
    expect(report.errors).toEqual([])
    const exported = await mem.small.export()
    expect(Object.keys(exported).length).toBeGreaterThanOrEqual(5)
    expect(Object.values(exported).join('')).toContain('small_version')
    await mem.close()
  })

  test('an agent identity writing human-owned SMALL files is refused across the boundary', async () => {
    const agent = await createIdentity({ nonExtractable: true })
    const mem = await open({ name: `small-agent-${mode}-${crypto.randomUUID()}`, mode, identity: agent })
    await expect(mem.small.import(SPEC_V1_FILES)).rejects.toMatchObject({ code: 'PERMISSION_DENIED' })
    await mem.close()
  })
})
