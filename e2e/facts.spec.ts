import { expect, test, type Page } from '@playwright/test'

declare global {
  interface Window {
    memweave: typeof import('../src/index.js')
    ready: boolean
  }
}

async function openPage(page: Page): Promise<void> {
  await page.goto('/e2e/pages/facts.html')
  await page.waitForFunction(() => window.ready === true)
}

test('facts written in one page survive a reload and are seen by a second page of the origin', async ({ context }) => {
  const a = await context.newPage()
  const b = await context.newPage()
  await openPage(a)
  await openPage(b)
  const db = `e2e-${Date.now()}`
  const written = await a.evaluate(async (name) => {
    const mem = await window.memweave.createMemory({ storage: 'indexeddb', name })
    const refs = await Promise.all(Array.from({ length: 200 }, (_, i) => mem.facts.write(`page A fact ${i} about orchids`)))
    const rome = await mem.facts.assert({ subject: 'Aria', predicate: 'lives_in', object: 'Rome', validFrom: '2020-01-01' })
    await mem.facts.supersede(rome, 'Aria lives in Milan', { validFrom: '2022-01-01', metadata: { subject: 'Aria', predicate: 'lives_in', object: 'Milan' } })
    await mem.close()
    return refs
  }, db)
  expect(new Set(written).size).toBe(200)

  const seenByB = await b.evaluate(async (name) => {
    const mem = await window.memweave.createMemory({ storage: 'indexeddb', name })
    const all = await mem.facts.audit()
    const now = await mem.facts.retrieve('where does Aria live', { budgetTokens: 100, topK: 1 })
    const then = await mem.facts.retrieve('where does Aria live', { budgetTokens: 100, topK: 1, asOf: '2021-01-01' })
    await mem.close()
    return { count: all.length, now: now.map((m) => m.content), then: then.map((m) => m.content) }
  }, db)
  expect(seenByB).toEqual({ count: 202, now: ['Aria lives in Milan'], then: ['Aria lives in Rome'] })

  await a.reload()
  await a.waitForFunction(() => window.ready === true)
  const afterReload = await a.evaluate(async (name) => {
    const mem = await window.memweave.createMemory({ storage: 'indexeddb', name })
    const n = (await mem.facts.audit()).length
    await mem.close()
    return n
  }, db)
  expect(afterReload).toBe(202)
})
