import { expect, test, type BrowserContext, type Page } from '@playwright/test'

type Mode = 'shared' | 'dedicated'

declare global {
  interface Window {
    openMem: (o: { name: string; mode: Mode }) => Promise<import('../src/index.js').RemoteMemory>
    mem?: import('../src/index.js').RemoteMemory
    acked?: string[]
    ready: boolean
  }
}

async function openPage(context: BrowserContext, name: string, mode: Mode): Promise<Page> {
  const page = await context.newPage()
  await page.goto('/e2e/pages/runtime.html')
  await page.waitForFunction(() => window.ready === true)
  await page.evaluate(async ({ name, mode }) => {
    window.mem = await window.openMem({ name, mode })
    window.acked = []
  }, { name, mode })
  return page
}

const count = (page: Page) =>
  page.evaluate(async () => {
    const all = await window.mem!.facts.audit()
    return { total: all.length, distinct: new Set(all.map((m) => m.content)).size, refs: new Set(all.map((m) => m.ref)).size }
  })

for (const mode of ['shared', 'dedicated'] as const) {
  test.describe(`${mode} worker`, () => {
    test('4 pages write 250 facts each at once: every page sees exactly 1,000, and a reload too', async ({ context }) => {
      const name = `e2e-burst-${mode}-${Date.now()}`
      const pages = await Promise.all([0, 1, 2, 3].map(() => openPage(context, name, mode)))
      await Promise.all(
        pages.map((p, i) =>
          p.evaluate(async (i) => {
            const refs = await Promise.all(Array.from({ length: 250 }, (_, j) => window.mem!.facts.write(`page ${i} fact ${j}`)))
            return refs.length
          }, i),
        ),
      )
      for (const p of pages) expect(await count(p)).toEqual({ total: 1000, distinct: 1000, refs: 1000 })
      await pages[0]!.reload()
      await pages[0]!.waitForFunction(() => window.ready === true)
      await pages[0]!.evaluate(async ({ name, mode }) => {
        window.mem = await window.openMem({ name, mode })
      }, { name, mode })
      expect(await count(pages[0]!)).toEqual({ total: 1000, distinct: 1000, refs: 1000 })
    })

    test('a page closed mid-burst loses none of the writes it was told were done', async ({ context }) => {
      const name = `e2e-crash-${mode}-${Date.now()}`
      const writer = await openPage(context, name, mode)
      const reader = await openPage(context, name, mode)
      // Writes are acknowledged one by one into window.acked; the page is closed while they run.
      await writer.evaluate(() => {
        for (let j = 0; j < 400; j++) {
          void window.mem!.facts.write(`burst fact ${j}`).then(() => window.acked!.push(`burst fact ${j}`))
        }
      })
      await writer.waitForFunction(() => window.acked!.length >= 50)
      const acked = await writer.evaluate(() => [...window.acked!])
      await writer.close({ runBeforeUnload: false })
      const seen = await reader.evaluate(async () => {
        await window.mem!.facts.refresh()
        return (await window.mem!.facts.audit()).map((m) => m.content)
      })
      const missing = acked.filter((c) => !seen.includes(c))
      expect(acked.length).toBeGreaterThanOrEqual(50)
      expect(missing).toEqual([])
      expect(new Set(seen).size).toBe(seen.length)
    })

    test('a live query in page A fires after a write in page B (measured)', async ({ context }) => {
      const name = `e2e-live-${mode}-${Date.now()}`
      const a = await openPage(context, name, mode)
      const b = await openPage(context, name, mode)
      await a.evaluate(async () => {
        ;(window as unknown as { fired: number[] }).fired = []
        await window.mem!.facts.subscribe('kestrel sighting', { topK: 1 }, (hits) => {
          if (hits[0]?.content.startsWith('kestrel sighting')) (window as unknown as { fired: number[] }).fired.push(performance.timeOrigin + performance.now())
        })
      })
      const latencies: number[] = []
      for (let i = 0; i < 20; i++) {
        const sent = await b.evaluate(async (i) => {
          const t = performance.timeOrigin + performance.now()
          await window.mem!.facts.write(`kestrel sighting number ${i} over the dunes`)
          return t
        }, i)
        await a.waitForFunction((n) => (window as unknown as { fired: number[] }).fired.length >= n, i + 1)
        const fired = await a.evaluate((i) => (window as unknown as { fired: number[] }).fired[i]!, i)
        latencies.push(fired - sent)
      }
      latencies.sort((x, y) => x - y)
      const p50 = latencies[Math.floor(latencies.length / 2)]!
      console.log(`live query latency page B write -> page A callback (${mode}): p50 ${p50.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms over ${latencies.length}`)
      expect(latencies).toHaveLength(20)
    })
  })
}
