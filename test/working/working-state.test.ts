import { describe, expect, test } from 'vitest'
import { encodeHlc } from '../../src/core/clock.js'
import { RecordLog } from '../../src/records/log.js'
import { MemoryStorage } from '../../src/storage/memory-adapter.js'
import type { StoredRecord } from '../../src/storage/schema.js'
import { chooseEvictions, type Holding } from '../../src/working/eviction.js'
import { Kind, type BodyOf } from '../../src/working/records.js'
import { TaskState } from '../../src/working/state.js'
import { conflictIndex, toObservation } from '../../src/working/view.js'
import { prng } from './working-suite.js'

const sealer = new RecordLog(new MemoryStorage())
/** A record as the working store seals it (RecordLog.seal), with a given stamp. */
const makeRecord = <K extends keyof BodyOf>(kind: K, body: BodyOf[K], author: string | null, hlc: string): StoredRecord =>
  sealer.seal(kind, body, { author, hlc })

/** A task's records as a writer would make them, with increasing stamps. */
function history(seed: number): StoredRecord[] {
  const rand = prng(seed)
  const out: StoredRecord[] = []
  let t = 0
  const stamp = () => encodeHlc({ wall: 1_700_000_000_000 + t++, counter: 0, node: 'n1' })
  const obs: string[] = []
  for (let i = 0; i < 40; i++) {
    const r = rand()
    if (r < 0.4 || obs.length < 2) {
      const rec = makeRecord(Kind.OBSERVATION, {
        task: 't', content: `o${i}`, agent: `a${i % 4}`, attention: Math.round(rand() * 100) / 100, confidence: 1, candidate: rand() < 0.5, beliefType: 'FACT',
      }, null, stamp())
      obs.push(rec.id)
      out.push(rec)
    } else if (r < 0.6) out.push(makeRecord(Kind.ATTENTION, { task: 't', op: 'decay', factor: 0.9 }, null, stamp()))
    else if (r < 0.75) out.push(makeRecord(Kind.ATTENTION, { task: 't', op: 'boost', target: obs[Math.floor(rand() * obs.length)]!, amount: 0.3 }, null, stamp()))
    else if (r < 0.85) out.push(makeRecord(Kind.ACCESS, { task: 't', agent: `r${i % 3}`, targets: obs.slice(0, 3) }, null, stamp()))
    else if (r < 0.93) out.push(makeRecord(Kind.CONFLICT, { task: 't', a: obs[0]!, b: obs.at(-1)!, reason: 'x', by: 'detector', similarity: 0.8 }, null, stamp()))
    else out.push(makeRecord(Kind.EVICT, { task: 't', target: obs[1]!, reason: 'agent-limit', weight: 0.1, accessCount: 0, accessedBy: [] }, null, stamp()))
  }
  return out
}

function shuffled<T>(xs: readonly T[], rand: () => number): T[] {
  const a = [...xs]
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[a[i], a[j]] = [a[j]!, a[i]!]
  }
  return a
}

function render(state: TaskState): unknown {
  const index = conflictIndex(state)
  return [...state.observations.keys()].sort().map((id) => toObservation(state, id, index))
}

describe('working-memory state is a pure function of its records', () => {
  test('any arrival order gives the same state (seeded)', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const records = history(seed)
      const inOrder = new TaskState('t')
      for (const r of records) inOrder.apply(r)
      const expected = render(inOrder)
      const rand = prng(seed * 7919)
      for (let k = 0; k < 4; k++) {
        const s = new TaskState('t')
        for (const r of shuffled(records, rand)) s.apply(r)
        // Duplicates are harmless.
        s.apply(records[0]!)
        expect(render(s), `seed ${seed}: repro with history(${seed}) shuffled by prng(${seed * 7919})`).toEqual(expected)
      }
    }
  })

  test('a checkpoint folds attention and access; deleting what it folded changes nothing', () => {
    const records = history(3)
    const s = new TaskState('t')
    for (const r of records) s.apply(r)
    const before = render(s)
    const cp = makeRecord(Kind.CHECKPOINT, s.snapshot(), null, encodeHlc({ wall: 1_800_000_000_000, counter: 0, node: 'n1' }))
    const folded = s.ops.map((o) => o.id)
    const t = new TaskState('t')
    for (const r of records) if (!folded.includes(r.id)) t.apply(r)
    t.apply(cp)
    const live = new Set(t.live().map((o) => o.id))
    const pick = (xs: unknown) => (xs as Array<{ id: string }>).filter((o) => live.has(o.id))
    expect(pick(render(t))).toEqual(pick(before))
  })
})

describe('fair eviction (FR-001.2)', () => {
  const h = (id: string, agent: string, weight: number, hlc: string): Holding => ({ id, agent, weight, hlc })

  test('per agent: the weakest goes, ties evict the older', () => {
    const items = [h('a', 'x', 0.5, '1'), h('b', 'x', 0.2, '2'), h('c', 'x', 0.2, '3'), h('d', 'x', 0.9, '4')]
    expect(chooseEvictions(items, { maxItemsPerAgent: 2, maxTotalItems: 99 }).map((e) => e.item.id)).toEqual(['b', 'c'])
  })

  test('globally: from the agent holding the most, even if another agent holds weaker items', () => {
    const items = [h('q1', 'quiet', 0.01, '1'), h('l1', 'loud', 0.9, '2'), h('l2', 'loud', 0.8, '3'), h('l3', 'loud', 0.95, '4')]
    const out = chooseEvictions(items, { maxItemsPerAgent: 10, maxTotalItems: 2 })
    expect(out.map((e) => [e.item.id, e.reason])).toEqual([['l2', 'global-limit'], ['l1', 'global-limit']])
  })

  test('equal holdings: the agent whose weakest item is weaker pays', () => {
    const items = [h('a1', 'a', 0.5, '1'), h('a2', 'a', 0.6, '2'), h('b1', 'b', 0.4, '3'), h('b2', 'b', 0.7, '4')]
    expect(chooseEvictions(items, { maxItemsPerAgent: 10, maxTotalItems: 3 }).map((e) => e.item.id)).toEqual(['b1'])
  })
})
