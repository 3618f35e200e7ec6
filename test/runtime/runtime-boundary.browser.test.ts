import * as Comlink from 'comlink'
import { describe, expect, test } from 'vitest'
import { openMemory } from '../../src/index.js'
import type { MemoryHost } from '../../src/runtime/host.js'

// Issue 30: the worker dispatched any method by name, so a page could call GmpFactStore's
// @internal methods. Only the public API crosses now (src/runtime/surfaces/).
const worker = new URL('../../worker/memory-worker.ts', import.meta.url)
const refusal = (module: string, method: string) => ({ code: 'INVALID_ARGUMENT', details: { field: 'method', module, method } })

describe.each(['shared', 'dedicated'] as const)('the %s worker', (mode) => {
  test('refuses internal methods called through openMemory, and what is stored stays as it was', async () => {
    const mem = await openMemory({ worker, mode, name: `boundary-${mode}-${crypto.randomUUID()}` })
    const ref = await mem.facts.write('The user prefers dark mode')
    // The client's proxy forwards any name: the worker is what refuses.
    const facts = mem.facts as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>
    await expect(facts.writeMany!([{ content: 'Injected without write()' }])).rejects.toMatchObject(refusal('facts', 'writeMany'))
    await expect(facts.versionsWhere!('subject', 'x')).rejects.toMatchObject(refusal('facts', 'versionsWhere'))
    await expect(facts.entry!(ref)).rejects.toMatchObject(refusal('facts', 'entry'))
    await expect(facts.hold!(null)).rejects.toMatchObject(refusal('facts', 'hold'))
    await expect((mem.sync as unknown as { close(): Promise<void> }).close()).rejects.toMatchObject(refusal('sync', 'close'))
    expect((await mem.facts.audit()).map((m) => m.content)).toEqual(['The user prefers dark mode'])
    await mem.close()
  })

  test('refuses a raw comlink call to an internal method, past the client', async () => {
    const endpoint = mode === 'shared' ? new SharedWorker(worker, { type: 'module', name: `raw-${mode}` }).port : new Worker(worker, { type: 'module' })
    const host = Comlink.wrap<MemoryHost>(endpoint)
    const hosted = await host.open({ name: `boundary-raw-${mode}-${crypto.randomUUID()}`, identity: null, election: mode === 'dedicated' })
    const facts = await hosted.module('facts')
    await expect(facts.call('writeMany', [{ content: 'Injected' }])).rejects.toMatchObject(refusal('facts', 'writeMany'))
    await expect(facts.call('constructor')).rejects.toMatchObject(refusal('facts', 'constructor'))
    const ref = (await facts.call('write', 'Public write')) as string
    await expect(facts.call('entry', ref)).rejects.toMatchObject(refusal('facts', 'entry'))
    expect(await facts.call('get', ref)).toMatchObject({ content: 'Public write' })
    await hosted.close()
    if (endpoint instanceof Worker) endpoint.terminate()
    else endpoint.close()
  })
})
