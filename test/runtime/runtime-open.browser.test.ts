import { expect, test } from 'vitest'
import { openMemory } from '../../src/index.js'

// Issue 31, the client's cold open: a dedicated worker gets openMemory's `open` right behind its
// `ping`, not after the ping's answer (one round trip less before the memory opens), and the facts
// target is asked for as soon as the memory is open, not by the first facts call (one round trip
// less before the first answer). A SharedWorker gets the open only once it answered the ping: one
// that never answers must not be left holding an open memory for a page that gave up on it.
const workerUrl = (params: Record<string, string>): URL => {
  const url = new URL('./open-order-worker.ts', import.meta.url)
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return url
}

/** What the test worker reports on `channel`, as it happens. */
function listen(channel: string): { readonly seen: Array<{ type: string; name?: string }>; until: (type: string, ms: number) => Promise<boolean>; close: () => void } {
  const bc = new BroadcastChannel(channel)
  const seen: Array<{ type: string; name?: string }> = []
  const waiters: Array<() => void> = []
  bc.onmessage = (e: MessageEvent<{ type: string; name?: string }>) => {
    seen.push(e.data)
    for (const w of waiters.splice(0)) w()
  }
  const until = async (type: string, ms: number): Promise<boolean> => {
    const deadline = performance.now() + ms
    while (!seen.some((m) => m.type === type)) {
      const left = deadline - performance.now()
      if (left <= 0) return false
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, left)
      })
    }
    return true
  }
  return { seen, until, close: () => bc.close() }
}

test('dedicated: the open is posted before the ping is answered (a worker that answers the ping only after an open opens)', async () => {
  const channel = `open-order-${crypto.randomUUID()}`
  const heard = listen(channel)
  try {
    // On the code before, the page waited for the ping's answer before posting the open: this worker never answered and openMemory failed with WORKER_FAILED.
    const mem = await openMemory({ name: `open-early-${crypto.randomUUID()}`, mode: 'dedicated', worker: workerUrl({ channel }), workerTimeoutMs: 3_000, persist: false })
    const ref = await mem.facts.write('Aria is planning a trip to Lisbon')
    expect((await mem.facts.get(ref))?.content).toBe('Aria is planning a trip to Lisbon')
    await mem.close()
  } finally {
    heard.close()
  }
})

test('the facts target is asked for when the memory opens, before any facts call', async () => {
  const channel = `open-facts-${crypto.randomUUID()}`
  const heard = listen(channel)
  try {
    const mem = await openMemory({ name: `open-facts-${crypto.randomUUID()}`, mode: 'dedicated', worker: workerUrl({ channel, ping: 'now' }), persist: false })
    // No call made: the worker still hears the page ask for the facts target (on the code before, only a first call asked).
    expect(await heard.until('module', 5_000)).toBe(true)
    expect(heard.seen.filter((m) => m.type === 'module').map((m) => m.name)).toEqual(['facts'])
    // The other modules are still asked for only by their first call: their code stays unloaded.
    expect((await mem.facts.audit()).length).toBe(0)
    expect(heard.seen.filter((m) => m.type === 'module').map((m) => m.name)).toEqual(['facts'])
    await mem.close()
  } finally {
    heard.close()
  }
})

test('shared: a worker that never answers the ping is never sent the open', async () => {
  const channel = `open-shared-${crypto.randomUUID()}`
  const heard = listen(channel)
  try {
    const opening = openMemory({ name: `open-shared-${crypto.randomUUID()}`, mode: 'shared', worker: workerUrl({ channel, ping: 'never' }), workerTimeoutMs: 1_500, persist: false })
    await expect(opening).rejects.toMatchObject({ code: 'WORKER_FAILED' })
    // The SharedWorker lives on after the page closed its port: had it been sent the open, it would report it.
    expect(await heard.until('open', 1_000)).toBe(false)
  } finally {
    heard.close()
  }
})
