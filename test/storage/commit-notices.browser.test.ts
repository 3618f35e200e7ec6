import { expect, test } from 'vitest'
import { createMemory, openMemory } from '../../src/index.js'
import { noticeChannelName } from '../../src/storage/commit-notices.js'

// Issue 31 (seventh round), in real Chromium across a SharedWorker and the page: the worker's
// handle posts a commit notice only when it knows another handle listens (commit-notices.ts). A
// page's own Memory on the same database says it listens, and its live query sees the worker's
// write; a listener that never says so (an older build's reader) still hears the worker's commits.
const worker = new URL('../../worker/memory-worker.ts', import.meta.url)

test('a page Memory beside the SharedWorker sees its writes live; a silent listener still hears its commits', async () => {
  const name = `notices-${crypto.randomUUID()}`
  const remote = await openMemory({ worker, mode: 'shared', name, persist: false })
  for (let i = 0; i < 20; i++) await remote.facts.write(`Awaited note ${i} while the worker is alone`)

  const silent = new BroadcastChannel(noticeChannelName(name))
  const heard = new Promise<void>((resolve) => (silent.onmessage = (e: MessageEvent) => void ((e.data as { type?: string }).type === 'committed' && resolve())))
  const page = await createMemory({ name })
  let found: (contents: string[]) => void = () => undefined
  const seen = new Promise<string[]>((resolve) => (found = resolve))
  const stop = await page.facts.subscribe('lighthouse keeper', { budgetTokens: 500 }, (hits) => {
    if (hits.some((h) => h.content.includes('lighthouse'))) found(hits.map((h) => h.content))
  })
  await remote.facts.write('The lighthouse keeper retires in May')
  expect(await seen).toContain('The lighthouse keeper retires in May')
  await heard
  expect((await page.facts.audit()).length).toBe(21)
  stop()
  silent.close()
  await page.close()
  await remote.close()
})
