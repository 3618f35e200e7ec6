import 'fake-indexeddb/auto'
import * as Comlink from 'comlink'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { FactStore } from '../../src/facts/types.js'
import { openMemoryModules } from '../../src/memory-loader.js'
import { installErrorTransfer } from '../../src/runtime/error-transfer.js'
import { callTarget, lazyTarget, remoteObject, type CallTarget } from '../../src/runtime/remote-call.js'
import { FACTS_SURFACE } from '../../src/runtime/surfaces/facts.js'
import { indexedDbStorage } from '../../src/storage/dexie-adapter.js'

// Issue 31 (session 13): the page read `call` off the module's comlink Remote on every call, and
// each read made a new comlink proxy registered with comlink's FinalizationRegistry (a finalizer
// then ran on the page when it was collected). The page side now reads each member once
// (remote-call.ts, HotCalls). These tests run openMemory's page side (remoteObject over
// lazyTarget) against the worker side (callTarget over a real facts module) through comlink on a
// real MessageChannel.

installErrorTransfer()
const closing: Array<() => Promise<void>> = []
afterEach(async () => {
  vi.restoreAllMocks()
  for (const close of closing.splice(0)) await close()
})

async function client(name: string, batch: boolean): Promise<{ facts: FactStore; close: () => Promise<void> }> {
  const modules = await openMemoryModules({ storage: indexedDbStorage({ name }) })
  const { port1, port2 } = new MessageChannel()
  Comlink.expose(callTarget(modules.facts, FACTS_SURFACE), port1)
  const raw = Comlink.wrap<CallTarget>(port2)
  // As openMemory builds it: a facts target asked for at once, then the module's thin proxy.
  const facts = remoteObject<FactStore>(lazyTarget(async () => raw, true), {}, batch)
  let closed = false
  const close = async (): Promise<void> => {
    if (closed) return
    closed = true
    port1.close()
    port2.close()
    await modules.close()
  }
  closing.push(close)
  return { facts, close }
}

/** Comlink proxies the page makes (each is registered with comlink's FinalizationRegistry) during `run`. */
async function proxiesMadeBy(run: () => Promise<void>): Promise<number> {
  const register = vi.spyOn(FinalizationRegistry.prototype, 'register')
  try {
    await run()
    return register.mock.calls.length
  } finally {
    register.mockRestore()
  }
}

describe('the page makes no comlink proxy per call', () => {
  test.each([true, false])('single awaited writes (batching %s): 3 or 30 make the same proxies', async (batch) => {
    const { facts } = await client(`hot-${crypto.randomUUID()}`, batch)
    await facts.write('A first note, so the members are read')
    const writes = (n: number, salt: string) => async () => {
      for (let i = 0; i < n; i++) await facts.write(`Note ${salt} ${i} about the greenhouse`)
    }
    const few = await proxiesMadeBy(writes(3, 'few'))
    const many = await proxiesMadeBy(writes(30, 'many'))
    expect(many).toBe(few)
    expect(few).toBe(0)
  })

  test('a burst answered by callMany makes no proxy either', async () => {
    const { facts } = await client(`hot-${crypto.randomUUID()}`, true)
    await Promise.all([facts.write('Warm one'), facts.write('Warm two')])
    const made = await proxiesMadeBy(async () => {
      await Promise.all(Array.from({ length: 40 }, (_, i) => facts.write(`Burst note ${i} on the pantry shelf`)))
    })
    expect(made).toBe(0)
  })
})

describe('what the cached members answer is what the worker did', () => {
  test('a write whose promise resolved is stored: a new handle on the database reads it', async () => {
    const name = `hot-${crypto.randomUUID()}`
    const { facts, close } = await client(name, true)
    const ref = await facts.write('The spare key hangs behind the blue door')
    await close()
    const again = await openMemoryModules({ storage: indexedDbStorage({ name }) })
    closing.push(() => again.close())
    expect((await again.facts.get(ref))?.content).toBe('The spare key hangs behind the blue door')
  })

  test('a bad call rejects with its code through the cached member, alone and in a batch', async () => {
    const { facts } = await client(`hot-${crypto.randomUUID()}`, true)
    await facts.write('Members read')
    await expect(facts.write(7 as unknown as string)).rejects.toMatchObject({ name: 'MemweaveError', code: 'INVALID_ARGUMENT', details: { field: 'content' } })
    const outcomes = await Promise.allSettled([facts.write('Kept beside a bad one'), facts.write(null as unknown as string)])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected'])
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'INVALID_ARGUMENT' })
    expect((await facts.audit()).map((m) => m.content).sort()).toEqual(['Kept beside a bad one', 'Members read'])
  })
})
