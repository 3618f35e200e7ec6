import { describe, expect, test } from 'vitest'
import { AgentRole, createMemory, type Observation } from '../../src/index.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { workingSuite } from './working-suite.js'

workingSuite('Dexie on real IndexedDB (Chromium)', {
  fresh() {
    const name = `working-${crypto.randomUUID()}`
    return { options: (extra = {}) => ({ ...extra, storage: indexedDbStorage({ name }) }) }
  },
})

const fact = (content: string, agent: string) => ({ content, sourceAgentId: agent, isBeliefCandidate: true, beliefType: 'FACT' })

describe('working memory in the browser through createMemory({ storage: "indexeddb" })', () => {
  test('two Memory instances on one database act as two tabs: agents in both share one pool, limits hold', async () => {
    const name = `tabs-${crypto.randomUUID()}`
    const tab1 = await createMemory({ storage: 'indexeddb', name })
    const tab2 = await createMemory({ storage: 'indexeddb', name })
    const [w1, w2] = [await tab1.working.open('plan-trip'), await tab2.working.open('plan-trip')]
    // Agents in different tabs write at the same time, with conflicts between tabs.
    const write = (w: typeof w1, tab: number): Promise<Observation[]> =>
      Promise.all(
        Array.from({ length: 5 }, (_, a) =>
          (async () => {
            const out: Observation[] = []
            for (let i = 0; i < 10; i++) out.push(await w.addObservation({ content: `tab ${tab} agent ${a} note ${i}`, sourceAgentId: `t${tab}-a${a}`, attentionWeight: ((a + i) % 10) / 10 }))
            return out
          })(),
        ),
      ).then((xs) => xs.flat())
    const [from1, from2, hotel1, hotel2] = await Promise.all([
      write(w1, 1),
      write(w2, 2),
      w1.addObservation(fact('The hotel charges £120 per night', 'booker')),
      w2.addObservation(fact('The hotel charges £95 per night', 'checker')),
    ])
    const ids = [...from1, ...from2, hotel1, hotel2].map((o) => o.id)
    expect(new Set(ids).size).toBe(102)
    const [live1, live2] = [await w1.observations(), await w2.observations()]
    expect(live1).toHaveLength(50)
    expect(live2.map((o) => o.id)).toEqual(live1.map((o) => o.id))
    const perAgent = new Map<string, number>()
    for (const o of live1) perAgent.set(o.sourceAgentId, (perAgent.get(o.sourceAgentId) ?? 0) + 1)
    expect(Math.max(...perAgent.values())).toBeLessThanOrEqual(7)
    expect(live1.length + (await w2.evicted()).length).toBe(102)
    // The conflict between the two tabs was found by whichever committed second.
    const conflicts = await w2.getConflicts({ includeResolved: true })
    expect(conflicts.map((c) => [c.a.id, c.b.id].sort())).toContainEqual([hotel1.id, hotel2.id].sort())
    await tab1.close()
    await tab2.close()
  })

  test('observations survive a reopen (a reload of the page)', async () => {
    const name = `reload-${crypto.randomUUID()}`
    const before = await createMemory({ storage: 'indexeddb', name })
    const wm = await before.working.open('task')
    const a = await wm.addObservation(fact('The flight is on time', 'gate-agent'))
    const b = await wm.addObservation(fact('The flight is delayed', 'app-agent'))
    await wm.boostAttention(a.id, 0.4)
    await wm.getContextForAgent('critic', AgentRole.CRITIC)
    const snapshot = await wm.observations()
    await before.close()

    const after = await createMemory({ storage: 'indexeddb', name })
    const again = await after.working.open('task')
    expect(await again.observations()).toEqual(snapshot)
    expect((await again.get(a.id))!).toMatchObject({ attentionWeight: 0.9, conflictsWith: [b.id], accessedBy: ['critic'] })
    expect((await again.getConflicts())[0]!.reason).toMatch(/polarity/)
    await after.close()
  })
})
