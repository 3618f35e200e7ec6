import 'fake-indexeddb/auto'
import { afterAll, describe, expect, test } from 'vitest'
import { MEMORY_MODULES, type MemoryModule } from '../../src/memory-modules.js'
import { createMemoryHost, type HostedMemory } from '../../src/runtime/host.js'
import { MODULE_SURFACES } from '../../src/runtime/module-surfaces.js'
import { TASK_SURFACE } from '../../src/runtime/surfaces/working.js'
import type { CallTarget } from '../../src/runtime/remote-call.js'

// The worker host's dispatch (src/runtime/host.ts, remote-call.ts), called as the page's comlink
// calls arrive, on Dexie over fake-indexeddb. Issue 30: the host dispatched by method name and
// refused only `_`-names and a few words, so a page could call GmpFactStore's @internal methods.

const refusal = (module: string, method: string) => ({ code: 'INVALID_ARGUMENT', details: { field: 'method', module, method } })

const host = createMemoryHost()
let hosted: HostedMemory
const target = async (name: MemoryModule): Promise<CallTarget> => {
  hosted ??= await host.open({ name: `boundary-${Math.random()}`, identity: null, election: false })
  return hosted.module(name)
}
afterAll(() => hosted?.close())

describe('the page<->worker boundary lets only the public API cross', () => {
  test.each(['hold', 'entry', 'writeMany', 'versionsWhere'])('facts.%s (@internal) is refused, naming the module and the method', async (method) => {
    const facts = await target('facts')
    await expect(facts.call(method, 'ref', 'value')).rejects.toMatchObject(refusal('facts', method))
  })

  test.each(['constructor', '__proto__', 'then', 'toString', 'hasOwnProperty', '_private', '#log', 'close'])('facts.%s is refused', async (method) => {
    const facts = await target('facts')
    await expect(facts.call(method)).rejects.toMatchObject(refusal('facts', method))
  })

  test('a name that is not a string is refused', async () => {
    const facts = await target('facts')
    await expect(facts.call(Symbol.iterator as unknown as string)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { module: 'facts' } })
  })

  test('small.close and sync.close stay in the worker: one page cannot close what every tab shares', async () => {
    await expect((await target('small')).call('close')).rejects.toMatchObject(refusal('small', 'close'))
    await expect((await target('sync')).call('close')).rejects.toMatchObject(refusal('sync', 'close'))
    // Still open: a call after the refusals works.
    await expect((await target('sync')).call('status')).resolves.toMatchObject({ pools: expect.any(Object) })
  })

  test('every public method of every module is dispatched (bad or no arguments fail in the method, not at the boundary)', async () => {
    for (const name of MEMORY_MODULES) {
      const module = await target(name)
      for (const [method, how] of Object.entries((await MODULE_SURFACES[name]()).members)) {
        if (how === false || how === 'data') continue
        const outcome = await module.call(method).then(
          () => null,
          (err: { details?: { field?: string } }) => err,
        )
        // Whatever the method made of no arguments, the boundary let it through.
        expect(outcome?.details?.field, `${name}.${method}`).not.toBe('method')
      }
    }
  })

  test('a working task handle crosses with its public methods and data only', async () => {
    const working = await target('working')
    const task = (await working.call('open', 'launch')) as CallTarget
    expect(task.describe()).toEqual({ kind: 'object', data: { taskId: 'launch', config: expect.any(Object) } })
    const observation = (await task.call('addObservation', { content: 'The launch is at 3pm', sourceAgentId: 'planner' })) as { id: string }
    expect(await task.call('get', observation.id)).toMatchObject({ content: 'The launch is at 3pm' })
    for (const [method, how] of Object.entries(TASK_SURFACE.members)) {
      if (how !== 'call') continue
      const outcome = await task.call(method).then(() => null, (err: { details?: { field?: string } }) => err)
      expect(outcome?.details?.field, `task.${method}`).not.toBe('method')
    }
    for (const method of ['constructor', 'taskId', 'config', 'then', '__proto__']) {
      await expect(task.call(method)).rejects.toMatchObject(refusal('working task', method))
    }
  })

  test('an unsubscribe function is only invoked, never called by method name', async () => {
    const facts = await target('facts')
    const stop = (await facts.call('subscribe', 'dark mode', {}, () => undefined)) as CallTarget
    expect(stop.describe().kind).toBe('function')
    await expect(stop.call('call')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'method', method: 'call' } })
    await expect(stop.call('bind')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'method', method: 'bind' } })
    await expect(stop.invoke()).resolves.toBeUndefined()
  })

  test('a module target cannot be changed through it (a raw comlink SET)', async () => {
    const facts = await target('facts')
    expect(() => Object.assign(facts, { call: () => 'hijacked' })).toThrow(TypeError)
    await expect(facts.call('hold', Promise.resolve())).rejects.toMatchObject(refusal('facts', 'hold'))
  })

  test('the public API works through the boundary', async () => {
    const facts = await target('facts')
    const ref = (await facts.call('write', 'The user prefers dark mode')) as string
    expect(await facts.call('get', ref)).toMatchObject({ content: 'The user prefers dark mode' })
  })
})
