import 'fake-indexeddb/auto'
import * as Comlink from 'comlink'
import { afterEach, describe, expect, test } from 'vitest'
import type { FactStore } from '../../src/facts/types.js'
import { openMemoryModules, type MemoryModules } from '../../src/memory-loader.js'
import { installErrorTransfer } from '../../src/runtime/error-transfer.js'
import { createMemoryHost } from '../../src/runtime/host.js'
import { CALL_PROTOCOL, callTarget, remoteObject, type CallTarget } from '../../src/runtime/remote-call.js'
import { FACTS_SURFACE } from '../../src/runtime/surfaces/facts.js'
import { WORKING_SURFACE } from '../../src/runtime/surfaces/working.js'
import type { WorkingMemory } from '../../src/working/types.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'
import { CountingStorage } from '../helpers/counting-storage.js'

// Issue 31: the page sent each call of a burst as its own comlink message, so 1,000 writes were
// 1,000 messages into the worker and 1,000 back. Calls of one method made in one tick now cross
// as one message (remote-call.ts, CallQueue and callMany). These tests run the page side
// (remoteObject) against the worker side (callTarget over a real module) through comlink on a
// real MessageChannel, and count the messages the page posts.

installErrorTransfer()
const refusal = (module: string, method: string) => ({ code: 'INVALID_ARGUMENT', details: { field: 'method', module, method } })

interface Wired {
  readonly modules: MemoryModules
  readonly storage: CountingStorage
  /** Messages the page side posted to the worker side. */
  readonly posted: () => number
  readonly target: <T extends object>(made: CallTarget, batch?: boolean) => { remote: T; raw: Comlink.Remote<CallTarget> }
}

const opened: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const close of opened.splice(0)) await close()
})

async function wired(): Promise<Wired> {
  const storage = new CountingStorage(indexedDbStorage({ name: `batch-${crypto.randomUUID()}` }))
  const modules = await openMemoryModules({ storage })
  let posted = 0
  const ports: MessagePort[] = []
  opened.push(async () => {
    for (const p of ports) p.close()
    await modules.close()
  })
  return {
    modules,
    storage,
    posted: () => posted,
    target: <T extends object>(made: CallTarget, batch = true) => {
      const { port1, port2 } = new MessageChannel()
      ports.push(port1, port2)
      Comlink.expose(made, port1)
      const page: Comlink.Endpoint = {
        postMessage: (message: unknown, transfer?: Transferable[]) => {
          posted++
          port2.postMessage(message, transfer ?? [])
        },
        addEventListener: port2.addEventListener.bind(port2) as Comlink.Endpoint['addEventListener'],
        removeEventListener: port2.removeEventListener.bind(port2) as Comlink.Endpoint['removeEventListener'],
        start: () => port2.start(),
      }
      const raw = Comlink.wrap<CallTarget>(page)
      return { remote: remoteObject<T>(raw, {}, batch), raw }
    },
  }
}

describe('calls made in one tick cross as one message', () => {
  test('a burst of 200 writes is one message to the worker and one transaction, each write answered with its own ref', async () => {
    const w = await wired()
    const { remote: facts } = w.target<FactStore>(callTarget(w.modules.facts, FACTS_SURFACE))
    w.storage.reset()
    const refs = await Promise.all(Array.from({ length: 200 }, (_, i) => facts.write(`Burst note ${i} about the garden shed`)))
    expect(w.posted()).toBe(1)
    expect(w.storage.writes).toBe(1)
    expect(new Set(refs).size).toBe(200)
    // In the order written: each ref is the one its content got.
    for (const i of [0, 99, 199]) expect((await facts.get(refs[i]!))?.content).toBe(`Burst note ${i} about the garden shed`)
  })

  test('a bad call in a batch rejects alone, with its code; the others are stored', async () => {
    const w = await wired()
    const { remote: facts } = w.target<FactStore>(callTarget(w.modules.facts, FACTS_SURFACE))
    const outcomes = await Promise.allSettled([facts.write('First good note'), facts.write(42 as unknown as string), facts.write('Second good note')])
    expect(w.posted()).toBe(1)
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ name: 'MemweaveError', code: 'INVALID_ARGUMENT', details: { field: 'content' } })
    expect((await facts.audit()).map((m) => m.content).sort()).toEqual(['First good note', 'Second good note'])
  })

  test('only a run of one method shares a message: write, retrieve, write is three messages, in that order', async () => {
    const w = await wired()
    const { remote: facts } = w.target<FactStore>(callTarget(w.modules.facts, FACTS_SURFACE))
    await Promise.all([facts.write('Aria plans a trip to Lisbon'), facts.retrieve('Lisbon'), facts.write('Bruno reviews the budget')])
    expect(w.posted()).toBe(3)
  })

  test('a call with a callback goes alone and keeps working beside a batch', async () => {
    const w = await wired()
    const { remote: facts } = w.target<FactStore>(callTarget(w.modules.facts, FACTS_SURFACE))
    const seen: string[][] = []
    const [stop] = await Promise.all([
      facts.subscribe('espresso', {}, (hits) => void seen.push(hits.map((m) => m.content))),
      facts.write('The espresso machine needs descaling'),
      facts.write('The espresso beans arrive Monday'),
    ])
    await facts.flush()
    expect(typeof stop).toBe('function')
    await stop()
    expect(w.posted()).toBeGreaterThanOrEqual(2)
  })
})

describe('a worker older than callMany', () => {
  test('the host answers ping with the call protocol openMemory batches for', () => {
    expect(createMemoryHost().ping()).toBe(CALL_PROTOCOL)
    expect(CALL_PROTOCOL).toBeGreaterThanOrEqual(2)
  })

  test('without batching (a worker that answered ping with true), each call is its own message, as before', async () => {
    const w = await wired()
    const { remote: facts } = w.target<FactStore>(callTarget(w.modules.facts, FACTS_SURFACE), false)
    const refs = await Promise.all(Array.from({ length: 20 }, (_, i) => facts.write(`Unbatched note ${i}`)))
    expect(w.posted()).toBe(20)
    expect(new Set(refs).size).toBe(20)
  })
})

describe('a batch crosses the same allow-list as a single call', () => {
  test.each(['hold', 'entry', 'writeMany', 'versionsWhere', 'constructor', '__proto__', 'close'])('callMany refuses facts.%s and stores nothing', async (method) => {
    const w = await wired()
    const { raw } = w.target<FactStore>(callTarget(w.modules.facts, FACTS_SURFACE))
    const outcomes = await raw.callMany([
      { method, args: [[{ content: 'Injected through a batch' }]] },
      { method: 'write', args: ['A public write'] },
    ])
    expect(outcomes[0]).toMatchObject({ error: { memweave: true, ...refusal('facts', method) } })
    expect(outcomes[1]).toEqual({ value: expect.any(String) })
    expect((await w.modules.facts.audit()).map((m) => m.content)).toEqual(['A public write'])
  })

  test('a malformed batch is refused with INVALID_ARGUMENT', async () => {
    const w = await wired()
    const { raw } = w.target<FactStore>(callTarget(w.modules.facts, FACTS_SURFACE))
    await expect(raw.callMany('write' as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'calls' } })
    expect(await raw.callMany([null as never, { method: 'write' } as never])).toEqual([
      { error: expect.objectContaining({ code: 'INVALID_ARGUMENT' }) },
      { error: expect.objectContaining({ code: 'INVALID_ARGUMENT' }) },
    ])
  })

  test('objects with methods that batched calls return are claimed once, by their id only', async () => {
    const w = await wired()
    const working = await w.modules.load('working')
    const { remote, raw } = w.target<WorkingMemory>(callTarget(working, WORKING_SURFACE))
    const [a, b] = await Promise.all([remote.open('launch'), remote.open('retro')])
    expect(w.posted()).toBeGreaterThanOrEqual(1)
    expect([a.taskId, b.taskId]).toEqual(['launch', 'retro'])
    const obs = await a.addObservation({ content: 'The launch is at 3pm', sourceAgentId: 'planner' })
    expect((await a.get(obs.id))?.content).toBe('The launch is at 3pm')
    const outcomes = await raw.callMany([{ method: 'open', args: ['held'] }, { method: 'open', args: ['held-2'] }])
    const id = (outcomes[0] as { held: string }).held
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    await expect(raw.claim('not-an-id')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'id' } })
    const task = await raw.claim(id)
    expect((await task.describe()).data).toMatchObject({ taskId: 'held' })
    await expect(raw.claim(id)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'id' } })
  })
})
