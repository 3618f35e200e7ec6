import { describe, expect, test } from 'vitest'
import { openMemory } from '../../src/index.js'

// Issue 31: a burst of calls through openMemory crosses as one message per method and tick
// (remote-call.ts). Through the real worker, in both modes: every write keeps its own answer, a bad
// one fails alone with its code, and a write whose promise resolved is stored (a second client
// on the same database reads it).
const worker = new URL('../../worker/memory-worker.ts', import.meta.url)

describe.each(['shared', 'dedicated'] as const)('a burst through the %s worker', (mode) => {
  test('300 writes and a bad one in one tick: 300 refs, one INVALID_ARGUMENT, all 300 stored', async () => {
    const name = `batch-${mode}-${crypto.randomUUID()}`
    const mem = await openMemory({ worker, mode, name, persist: false })
    const writes = Array.from({ length: 300 }, (_, i) => mem.facts.write(`Burst note ${i} on the release checklist`))
    const bad = mem.facts.write({ not: 'text' } as unknown as string)
    const refs = await Promise.all(writes)
    await expect(bad).rejects.toMatchObject({ name: 'MemweaveError', code: 'INVALID_ARGUMENT', details: { field: 'content' } })
    expect(new Set(refs).size).toBe(300)
    expect((await mem.facts.get(refs[123]!))?.content).toBe('Burst note 123 on the release checklist')
    await mem.close()

    const again = await openMemory({ worker, mode, name, persist: false })
    expect((await again.facts.audit()).length).toBe(300)
    await again.close()
  })

  test('openMemory batches with a worker of this build: 100 writes in one tick post one message', async () => {
    const mem = await openMemory({ worker, mode, name: `batch-count-${mode}-${crypto.randomUUID()}`, persist: false })
    await mem.facts.write('The first call loads the facts target')
    // A module's target is a comlink proxy on a MessagePort of its own (in both modes): its posts, counted in place.
    const proto = MessagePort.prototype as { postMessage: (...a: unknown[]) => void }
    const post = proto.postMessage
    let posted = 0
    proto.postMessage = function (this: unknown, ...a: unknown[]) {
      posted++
      return post.apply(this, a)
    }
    try {
      await Promise.all(Array.from({ length: 100 }, (_, i) => mem.facts.write(`Counted note ${i}`)))
    } finally {
      proto.postMessage = post
    }
    expect(posted).toBe(1)
    await mem.close()
  })

  test('a burst of reads beside a burst of writes: each read gets its own answer', async () => {
    const mem = await openMemory({ worker, mode, name: `batch-reads-${mode}-${crypto.randomUUID()}`, persist: false })
    const [a, b] = await Promise.all([mem.facts.write('Aria is planning a trip to Lisbon'), mem.facts.write('Bruno wants to reschedule the chess tournament')])
    const [ga, gb, none] = await Promise.all([mem.facts.get(a), mem.facts.get(b), mem.facts.get('gmp:fact:nothing')])
    expect([ga?.content, gb?.content, none]).toEqual(['Aria is planning a trip to Lisbon', 'Bruno wants to reschedule the chess tournament', null])
    await mem.close()
  })
})
