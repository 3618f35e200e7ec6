import { expect, test, type Page } from '@playwright/test'
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { LoggingServer, pageScripts, prepareConsumerApp, run, type ConsumerApp } from './consumer-app.js'

/**
 * memweave/react from the packed package (issue 29, item 4): the consumer app (see consumer.spec.ts)
 * with react and react-dom installed, its React page (e2e/consumer/react/) built by `vite build`
 * and opened in Chromium. A development build (StrictMode runs effects twice there): one worker for
 * useMemory under the double effects, closed on unmount; an unmount during openMemory and during
 * a live query's subscribe leaves no worker and no subscription, and sets nothing; two tabs see each
 * other's writes, conflicts and pool through their live hooks. A production build: the sizes the README quotes.
 */

const BUDGET = {
  /** The React page's own JavaScript (React, react-dom, the client and the hooks), gzipped. */
  reactPageJsGz: 90_000,
}

const kB = (n: number): string => `${(n / 1024).toFixed(1)} kB`

test.describe.configure({ mode: 'serial' })

let app: ConsumerApp
let dev = ''
let prod = ''
let readmeApp = ''

/** The README's JSX files (fenced `jsx` blocks whose first line names a path), as the README's `js` files are in consumer-app.ts. */
function readmeJsxFiles(): Map<string, string> {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
  const files = new Map<string, string>()
  for (const m of readme.matchAll(/```jsx\n([\s\S]*?)```/g)) {
    const path = /^\/\/ ([\w./-]+\.jsx)$/.exec(m[1]!.split('\n', 1)[0]!)?.[1]
    if (path) files.set(path, m[1]!)
  }
  return files
}

test.beforeAll(async ({}, info) => {
  info.setTimeout(1_200_000)
  app = await prepareConsumerApp()
  const added = await run('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', '--save-dev', 'react@^19', 'react-dom@^19', '@types/react@^19'], app.dir)
  if (added.code !== 0) throw new Error(`npm install react failed:\n${added.output}`)
  // The README's React example (its index.html came with the README's other files), and the test's page.
  for (const [path, body] of readmeJsxFiles()) {
    mkdirSync(dirname(join(app.dir, path)), { recursive: true })
    writeFileSync(join(app.dir, path), body)
  }
  // Both are built with the README's config, like the quick start.
  copyFileSync(join(app.dir, 'vite.config.js'), join(app.dir, 'react', 'vite.config.js'))
  copyFileSync(join(app.dir, 'vite.config.js'), join(app.dir, 'react-app', 'vite.config.js'))
  readmeApp = join(app.dir, 'dist-react-app')
  const readmeBuild = await run('npx', ['vite', 'build', 'react-app', '--outDir', readmeApp, '--emptyOutDir'], app.dir)
  if (readmeBuild.code !== 0) throw new Error(`vite build of the README's React example failed:\n${readmeBuild.output}`)
  dev = join(app.dir, 'dist-react-dev')
  prod = join(app.dir, 'dist-react')
  // NODE_ENV=development: React's development build, where StrictMode doubles effects.
  const devBuild = await run('env', ['NODE_ENV=development', 'npx', 'vite', 'build', 'react', '--outDir', dev, '--emptyOutDir'], app.dir)
  if (devBuild.code !== 0) throw new Error(`vite build (development) failed:\n${devBuild.output}`)
  const prodBuild = await run('npx', ['vite', 'build', 'react', '--outDir', prod, '--emptyOutDir'], app.dir)
  if (prodBuild.code !== 0) throw new Error(`vite build failed:\n${prodBuild.output}`)
})

test.afterAll(() => app?.cleanup())

test('memweave/react type-checks in the app (the package exports its types)', async () => {
  test.setTimeout(180_000)
  const r = await run('npx', ['tsc', '-p', 'tsconfig.react.json'], app.dir)
  expect(r.output, 'tsc of react-check.ts').not.toContain('error TS')
  expect(r.code, r.output).toBe(0)
})

async function serve<T>(dist: string, body: (url: string, server: LoggingServer) => Promise<T>): Promise<T> {
  const server = new LoggingServer(dist)
  try {
    return await body(`${await server.listen()}/`, server)
  } finally {
    await server.close()
  }
}

async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page).toHaveTitle('ready', { timeout: 30_000 })
}

const errors = (page: Page): Promise<string[]> => page.evaluate(() => window.reactPage.errors)

test('StrictMode double effects: useMemory opens one worker, and unmounting closes it', async ({ page }) => {
  test.setTimeout(120_000)
  await serve(dev, async (url) => {
    await openPage(page, `${url}?scene=app&mode=dedicated&name=strict`)
    await expect(page.locator('#status')).toHaveText('open', { timeout: 30_000 })
    await expect(page.locator('#facts')).toBeAttached()
    // The development build really ran the effects twice...
    expect(await page.evaluate(() => window.reactPage.effects.app)).toBe(2)
    // ...and the memory was opened once, not twice.
    expect(await page.evaluate(() => window.reactPage.workers)).toEqual({ made: 1, terminated: 0 })
    expect(await page.evaluate(() => [...new Set(window.reactPage.states)])).toEqual(['opening', 'open'])
    await page.evaluate(() => window.reactPage.write('standup notes: demo on Friday'))
    await expect(page.locator('#facts li')).toHaveText(['standup notes: demo on Friday'])
    await page.evaluate(() => window.reactPage.unmountApp())
    await expect.poll(() => page.evaluate(() => window.reactPage.workers), { timeout: 30_000 }).toEqual({ made: 1, terminated: 1 })
    expect(await errors(page)).toEqual([])
  })
})

test('unmount while openMemory is pending: the worker is closed once it opens, nothing is set, nothing throws', async ({ page }) => {
  test.setTimeout(120_000)
  await serve(dev, async (url) => {
    await openPage(page, url)
    const r = await page.evaluate(() => window.reactPage.unmountWhileOpening())
    expect(r.seen.every((s) => s === 'opening')).toBe(true)
    await expect.poll(() => page.evaluate(() => window.reactPage.workers), { timeout: 30_000 }).toEqual({ made: r.madeBefore + 1, terminated: r.terminatedBefore + 1 })
    expect(await errors(page)).toEqual([])
  })
})

test('unmount while a live query subscribes: the subscription is stopped when it arrives, and no result reaches the component', async ({ page }) => {
  test.setTimeout(120_000)
  await serve(dev, async (url) => {
    await openPage(page, url)
    const r = await page.evaluate(() => window.reactPage.unmountWhileSubscribing())
    expect(r.pendingAtUnmount).toBe(true)
    expect({ called: r.called, resolved: r.resolved, stopped: r.stopped }).toEqual({ called: 1, resolved: 1, stopped: 1 })
    // The first result came back after the unmount; it went no further.
    expect(r.resultsAfterUnmount).toBeGreaterThan(0)
    expect(r.rendersAfter).toBe(r.rendersAtUnmount)
    expect(r.found).toBe(1)
    expect(await errors(page)).toEqual([])
  })
})

for (const mode of ['auto', 'dedicated'] as const) {
  test(`two tabs (${mode} worker): each sees the other's writes, conflicts and pool through its live hooks`, async ({ browser }) => {
    test.setTimeout(180_000)
    await serve(dev, async (url) => {
      const context = await browser.newContext()
      try {
        const a = await context.newPage()
        const b = await context.newPage()
        const at = `${url}?scene=app&mode=${mode}&name=tabs-${mode}`
        await openPage(a, at)
        await openPage(b, at)
        for (const p of [a, b]) await expect(p.locator('#status')).toHaveText('open', { timeout: 30_000 })
        await a.evaluate(() => window.reactPage.write('standup notes: A moved it to 9:30'))
        await expect(b.locator('#facts li')).toHaveText(['standup notes: A moved it to 9:30'], { timeout: 30_000 })
        await b.evaluate(() => window.reactPage.write('standup notes: B will take them'))
        await expect(a.locator('#facts li')).toHaveCount(2, { timeout: 30_000 })
        await expect(b.locator('#facts li')).toHaveCount(2, { timeout: 30_000 })
        // Conflicts: one object of a single-valued slot from each tab.
        await expect(a.locator('#conflicts')).toHaveText('0')
        await a.evaluate(() => window.reactPage.assert('Aria', 'lives_in', 'Rome'))
        await b.evaluate(() => window.reactPage.assert('Aria', 'lives_in', 'Paris'))
        for (const p of [a, b]) await expect(p.locator('#conflicts')).toHaveText('1', { timeout: 30_000 })
        // A pool A creates: both tabs show it (usePool), and a write from B reaches A's view.
        const pool = await a.evaluate(() => window.reactPage.createPool('team'))
        for (const p of [a, b]) await p.evaluate((id) => window.reactPage.showPool(id), pool)
        for (const p of [a, b]) await expect(p.locator('#pool-name')).toHaveText('team', { timeout: 30_000 })
        await b.evaluate((id) => window.reactPage.writePool(id, 'Blue'), pool)
        await expect(a.locator('#pool li')).toHaveText(['Blue'], { timeout: 30_000 })
        await a.evaluate((id) => window.reactPage.writePool(id, 'Green'), pool)
        await expect(b.locator('#pool li')).toHaveText(['Green', 'Blue'], { timeout: 30_000 })
        // No pool is replicated: the sync status says offline.
        for (const p of [a, b]) await expect(p.locator('#sync')).toHaveText('offline')
        expect(await errors(a)).toEqual([])
        expect(await errors(b)).toEqual([])
      } finally {
        await context.close()
      }
    })
  })
}

test('the README\'s React example, built by vite build: a click writes, the live list shows it; the sizes the README quotes', async ({ page }) => {
  test.setTimeout(120_000)
  await serve(readmeApp, async (url, server) => {
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(String(err)))
    // What the page failed to load (the browser's own favicon request aside).
    page.on('response', (r) => void (r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.status()} ${r.url()}`)))
    await page.goto(url)
    await expect(page.locator('#conflicts')).toHaveText('0 conflicting facts', { timeout: 30_000 })
    await expect(page.locator('#preferences li')).toHaveCount(0)
    await page.getByRole('button', { name: 'Dark mode' }).click()
    await expect(page.locator('#preferences li')).toHaveText(['The user prefers dark mode'], { timeout: 30_000 })
    expect(errors).toEqual([])
    const pageJs = pageScripts(readmeApp)
    const pageGz = server.jsGzipBytes((f) => pageJs.has(f))
    const workerGz = server.jsGzipBytes((f) => !pageJs.has(f))
    console.log(`consumer (README React example, vite build, worker.format es): page JS ${kB(pageGz)} gz (React and react-dom included), worker ${kB(workerGz)} gz`)
    expect(pageGz).toBeLessThan(BUDGET.reactPageJsGz)
    expect(workerGz).toBeGreaterThan(0)
  })
})

test('vite build (production): the React page works, and its page JS and worker sizes are printed', async ({ browser }) => {
  test.setTimeout(120_000)
  await serve(prod, async (url, server) => {
    const context = await browser.newContext()
    try {
      // First useRetrieve and useConflicts only (the facts module), then with useSyncStatus too.
      const page = await context.newPage()
      await openPage(page, `${url}?scene=app&name=sizes&sync=off`)
      await expect(page.locator('#status')).toHaveText('open', { timeout: 30_000 })
      await page.evaluate(() => window.reactPage.write('standup notes: sizes measured'))
      await expect(page.locator('#facts li')).toHaveText(['standup notes: sizes measured'], { timeout: 30_000 })
      await expect(page.locator('#conflicts')).toHaveText('0')
      // Production React does not double effects.
      expect(await page.evaluate(() => window.reactPage.effects.app)).toBe(1)
      expect(await errors(page)).toEqual([])
      const pageJs = pageScripts(prod)
      const pageGz = server.jsGzipBytes((f) => pageJs.has(f))
      const factsWorkerGz = server.jsGzipBytes((f) => !pageJs.has(f))
      await page.close()
      const again = await context.newPage()
      await openPage(again, `${url}?scene=app&name=sizes`)
      await expect(again.locator('#sync')).toHaveText('offline', { timeout: 30_000 })
      expect(await errors(again)).toEqual([])
      const syncWorkerGz = server.jsGzipBytes((f) => !pageJs.has(f))
      console.log(`consumer (React page, vite build, worker.format es): page JS ${kB(pageGz)} gz (React and react-dom included), worker ${kB(factsWorkerGz)} gz with useRetrieve and useConflicts, ${kB(syncWorkerGz)} gz with useSyncStatus too`)
      expect(pageGz).toBeLessThan(BUDGET.reactPageJsGz)
      expect(factsWorkerGz).toBeGreaterThan(0)
      expect(syncWorkerGz).toBeGreaterThan(factsWorkerGz)
    } finally {
      await context.close()
    }
  })
})

declare global {
  interface Window {
    reactPage: {
      workers: { made: number; terminated: number }
      errors: string[]
      effects: { app: number }
      states: string[]
      write(text: string): Promise<void>
      assert(subject: string, predicate: string, object: string): Promise<void>
      createPool(name: string): Promise<string>
      writePool(pool: string, object: string): Promise<void>
      showPool(pool: string): void
      unmountApp(): void
      unmountWhileOpening(): Promise<{ seen: string[]; madeBefore: number; terminatedBefore: number }>
      unmountWhileSubscribing(): Promise<{
        pendingAtUnmount: boolean; called: number; resolved: number; stopped: number; resultsAfterUnmount: number
        rendersAtUnmount: number; rendersAfter: number; found: number
      }>
    }
  }
}
