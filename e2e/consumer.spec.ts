import { expect, test, type Browser, type Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LoggingServer, pageScripts, prepareConsumerApp, run, startUntil, type ConsumerApp } from './consumer-app.js'

/**
 * memweave as a dependency (issue 12): `npm pack`, installed into a fresh app with a fresh resolve,
 * type-checked in a Node-only and a browser project, built by `vite build` (with the README's config
 * and with none) and served by `vite dev`, each opened in Chromium; a pool synced between two
 * browser contexts through `memweave relay` started from the installed package's bin. The sizes a
 * user pays are printed and budgeted.
 */

const BUDGET = {
  /**
   * The packed tarball: 1.00 MB measured when issues 26 to 28 met (the backup module, the conflict
   * judge, the precision rules, clock and shape checks, the relay's update checks and pin copy, and
   * their TSDoc in the .d.ts files, 0.64 MB of the 3.2 MB unpacked). Raised from 1_000_000.
   * Raised from 1_100_000 by shipping docs/*.md and CHANGELOG.md (issue 29: the README's links
   * resolve in node_modules and on the npm page; +101 kB packed, 1,109,837 bytes measured).
   * Raised from 1_200_000 when the rest of issue 29 and the issue-30 boundary landed together
   * (memweave/react, the memory middleware, MCP attach and agent identities, the per-module
   * surfaces and the claim frame: 1,212,290 bytes measured in a fresh-clone CI run).
   * Raised from 1_300_000 by issue 31's fourth round and issue 27's eighth: +81 kB of code unpacked
   * (the optimistic write batch, the open's key ranges and preload, the tail's prior order, the
   * heads' list, compaction ahead, one-belief, the possession check and the eighth round's
   * readings), 1,309,480 bytes measured after the third round's benchmark sections and the seventh
   * round's conflict detail moved out of docs/ (1,318,217 before).
   * Raised from 1_350_000 by issue 31's sixth round and issue 27's tenth and eleventh: retrieve's
   * MaxScore walk and the index's O(terms) writes, the compaction's steps, and 21 detector rules with
   * their word lists (each shipped twice: dist/src and the worker's chunks), 1,355,902 bytes measured
   * after issue 31's fourth and fifth rounds and issue 27's eighth and ninth moved out of docs/.
   * Raised from 1_375_000 by issue 27's twelfth round and issue 31's seventh: the calibrated
   * confidences, the store's diary rule, negation scope, sequences and amount roles with their word
   * lists (shipped twice), the first retrieve's radix sort, the commit notices; 1,381,888 bytes
   * measured after issue 31's sixth round and issue 27's tenth and eleventh moved out of docs/.
   * Raised from 1_395_000 by issue 27's session 10: store-level evidence, claim kinds, modifier and
   * name roles, capacities, values at their dates and one list of each kind (shipped twice), the
   * dev2 round's doc; 1,433,759 bytes measured after the twelfth round's text moved out of docs/.
   * Raised from 1_445_000 by issue 27's session 11: a thing told over time and its tally, the rules
   * for texts sharing no subject, final name roles, seven chat reading rules (shipped twice), the
   * expiry hold, and docs/conflicts.md's session 11 rules and public-data figures; 1,458,566 bytes measured.
   * Raised from 1_475_000 by session 12: issue 27's negation reach, time zones that agree, list members, a kind
   * against one, values at their own dates, routine occasions, the hub subject as a role, next occurrences and
   * rating scales (shipped twice), issue 31's per-handle fact-view marker, the tab fallback's own chunk; 1,489,226
   * bytes measured after the sixth and seventh rounds of issue 31 and the blind / session 10 text left docs/.
   * Raised from 1_500_000 by session 13: issue 27's rules 29 to 33 (what a value is of, a date's event,
   * negations of another object, notes sharing only the hub, amounts of parts; shipped twice, in dist/src
   * and the worker) and their docs, issue 31's fact-view lease, early puts and their bench sections;
   * 1,531,336 bytes measured.
   * Raised from 1_550_000 by session 14: issue 27's rules 35 to 41 (shipped twice) and their docs, issue
   * 31's deferred tallies after an open, the million-fact figures in docs/benchmarks.md; 1,556,760 bytes measured.
   */
  tarballBytes: 1_580_000,
  /** Packages a browser-only app installs besides memweave. */
  browserOnlyPackages: 25,
  /** JavaScript the page itself loads (the client, not the worker), gzipped. */
  pageJsGz: 30_000,
  /**
   * The worker of a page that only uses facts, gzipped, after its first read. Issue 12 aimed at
   * 80 kB (62 kB then); the free-text conflict detector (issue 16, on by default) adds ~20 kB,
   * loaded at the first read (src/facts/free-text-conflicts.ts), not at open.
   */
  // Raised from 90_000 by issue 16's general detector (+5.5 kB gz), then from 95_000 by issue 15's
  // WebAssembly BLAKE2b (+6.3 kB gz) and issue 16's generalization work (+8.8 kB gz estimated);
  // test/package/bundle-size.test.ts says why; then from 115_000 by issue 27's precision rules (117.7 kB),
  // and from 120_000 when issues 26, 27 and 28 met on main (117.9 kB); then from 122_500 by issue
  // 27's claim frame (src/conflict/claim-frame.ts, +2.4 kB gz: 121.1 kB in test/package/bundle-size.test.ts);
  // then from 125_500 by issue 30's worker surfaces and file splits (125,468 bytes measured); then
  // from 127_000 by issue 31's third round and issue 27's seventh (128,100 bytes in bundle-size.test.ts);
  // then from 130_000 by issue 31's fourth round and issue 27's eighth (132,400 bytes there); then
  // from 135_000 by issue 31's fifth round and issue 27's ninth (135,610 bytes there); then from
  // 138_000 by issue 31's sixth round and issue 27's tenth and eleventh (140,785 bytes there); then
  // from 143_000 by issue 27's twelfth round and issue 31's seventh (144,149 bytes there); then from
  // 147_000 by issue 27's session 10 (152,460 bytes there, 150,810 in this build); then from 155_000 by
  // issue 27's session 13 (rules 29 to 33; 161,228 bytes there, 159,659 in this build); then from 162_000
  // by session 14 (issue 27's rules 35 to 41, issue 31's deferred tallies; 163,765 bytes there, 162,043 here).
  factsWorkerGz: 164_000,
  /**
   * The worker once every module has been used, gzipped. Raised from 260_000 by issue 15 (260.5 kB
   * measured): the pools' view and current index, sync checkpoints, the facts' lexical snapshots,
   * and issue 16's detector lexicons. Raised from 270_000 by the WebAssembly BLAKE2b (+6.3 kB gz) and
   * issue 16's generalization work (+8.8 kB gz): 270.6 kB measured by test/package/bundle-size.test.ts.
   * Raised from 290_000 by issues 26 to 28 (289.4 kB measured here, 296,338 bytes): the backup
   * module (loaded on first use), the conflict judge's stage, the precision rules, record shape and
   * stamp checks, the iterative depth check and gap fill on the sync load path. Raised from 305_000
   * by issue 27's claim frame (+2.4 kB gz; 297.8 kB measured by test/package/bundle-size.test.ts, 53 bytes
   * under the old budget). Raised from 308_000 by issue 31's third round and issue 27's seventh
   * (308,022 bytes measured: native IndexedDB transactions, packed stored bodies, the detector's lazy
   * reading, the sync status feed per subscriber, the seventh round's readings). Raised from 312_000
   * by issue 31's fourth round and issue 27's eighth (312,348 bytes measured: the optimistic write
   * batch, the open's key ranges, the tail's prior order, compaction ahead, the join's single shape
   * check, one-belief and the eighth round's readings). Raised from 318,000 by issue 31's sixth round
   * and issue 27's tenth and eleventh (318,398 bytes measured: retrieve's MaxScore walk and the index's
   * O(terms) writes, the compaction's steps, 21 detector rules and their word lists). Raised from
   * 322,000 by issue 27's twelfth round and issue 31's seventh (321,741 bytes measured here, 259
   * under the old budget: the twelfth round's rules and word lists, the commit notices). Raised from
   * 326,000 by issue 27's session 10 (330,138 bytes measured here: store-level evidence, claim kinds,
   * modifier and name roles, capacities, values at their dates, one list of each kind). Raised from
   * 334,000 by session 12 (334,493 bytes measured here: issue 27's negation reach, zones, list members,
   * kinds, dated values, role hubs, next occurrences and scales; issue 31's per-handle fact-view marker).
   * Raised from 340,000 by session 13 (340,791 bytes measured here: issue 27's rules 29 to 33, issue 31's
   * fact-view lease with its pool-less vouching and the early puts).
   */
  allModulesWorkerGz: 346_000,
}

const kB = (n: number): string => `${(n / 1024).toFixed(1)} kB`

/** Sizes the tests below measure, for the README check at the end (issue 29). */
const measured: { factsWorkerGz?: number; zeroConfigWorkerGz?: number } = {}

test.describe.configure({ mode: 'serial' })

let app: ConsumerApp

test.beforeAll(async ({}, info) => {
  info.setTimeout(900_000)
  app = await prepareConsumerApp()
  const s = app.sizes
  console.log(`consumer: tarball ${kB(s.tarballBytes)} (${s.packedFiles} files); a browser-only app installs ${s.browserOnlyPackages} packages besides memweave, ${(s.browserOnlyBytes / 1024 / 1024).toFixed(1)} MB`)
})

test.afterAll(() => app?.cleanup())

test('the package installs lean: tarball, package count, no install scripts', () => {
  expect(app.sizes.tarballBytes).toBeLessThan(BUDGET.tarballBytes)
  expect(app.sizes.browserOnlyPackages).toBeLessThanOrEqual(BUDGET.browserOnlyPackages)
  expect(app.sizes.packagesWithInstallScripts).toEqual([])
})

test('the public types compile in a Node-only project (no DOM lib) and in a browser project', async () => {
  test.setTimeout(180_000)
  const node = await run('npx', ['tsc', '-p', 'tsconfig.node.json'], app.dir)
  expect(node.output, 'tsc in a Node-only project').not.toContain('error TS')
  expect(node.code, node.output).toBe(0)
  const browser = await run('npx', ['tsc', '-p', 'tsconfig.json'], app.dir)
  expect(browser.output, 'tsc in a browser project').not.toContain('error TS')
  expect(browser.code, browser.output).toBe(0)
})

test('require() says the package is ESM-only', async () => {
  const r = await run(process.execPath, ['-e', "require('memweave')"], app.dir)
  expect(r.code).not.toBe(0)
  expect(r.output).toContain('memweave is ESM-only')
})

test('without their optional peers, the Node-only commands say what to install', async () => {
  const bin = join(app.bareDir, 'node_modules', '.bin', 'memweave')
  const relay = await run(bin, ['relay', '--port', '0'], app.bareDir, 30_000)
  expect(relay.code).toBe(1)
  expect(relay.output).toContain('npm install ws')
  const mcp = await run(bin, ['mcp', '--dir', join(app.bareDir, '.memweave')], app.bareDir, 30_000)
  expect(mcp.code).toBe(1)
  expect(mcp.output).toContain('npm install @modelcontextprotocol/sdk zod')
})

/** Runs the README's quick start page and checks what it shows. */
async function quickStart(page: Page, url: string): Promise<void> {
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(String(err)))
  await page.goto(url)
  await expect(page.locator('#answer')).toHaveText('The user prefers dark mode', { timeout: 30_000 })
  // The live query pushed the write into the list.
  await expect(page.locator('#preferences li')).toHaveText(['The user prefers dark mode'])
  expect(errors).toEqual([])
}

test('vite build with the README config: the quick start works, and a facts-only page downloads a small worker', async ({ page }) => {
  test.setTimeout(180_000)
  const built = await run('npx', ['vite', 'build'], app.dir)
  expect(built.code, built.output).toBe(0)
  expect(built.output).not.toMatch(/sourcemap|Sourcemap/)
  const dist = join(app.dir, 'dist')
  const server = new LoggingServer(dist)
  try {
    await quickStart(page, `${await server.listen()}/`)
    const pageJs = pageScripts(dist)
    const pageGz = server.jsGzipBytes((f) => pageJs.has(f))
    const workerGz = server.jsGzipBytes((f) => !pageJs.has(f))
    console.log(`consumer (vite build, worker.format es): page JS ${kB(pageGz)} gz, facts-only worker ${kB(workerGz)} gz`)
    expect(pageGz).toBeGreaterThan(0)
    expect(workerGz).toBeGreaterThan(0)
    expect(pageGz).toBeLessThan(BUDGET.pageJsGz)
    expect(workerGz).toBeLessThan(BUDGET.factsWorkerGz)
    measured.factsWorkerGz = workerGz
  } finally {
    await server.close()
  }
})

test('vite build with no config at all: the quick start works (one classic worker script)', async ({ page }) => {
  test.setTimeout(180_000)
  const built = await run('npx', ['vite', 'build', '--config', 'vite.zero.config.js', '--outDir', 'dist-zero'], app.dir)
  expect(built.code, built.output).toBe(0)
  const dist = join(app.dir, 'dist-zero')
  const server = new LoggingServer(dist)
  try {
    await quickStart(page, `${await server.listen()}/`)
    const pageJs = pageScripts(dist)
    measured.zeroConfigWorkerGz = server.jsGzipBytes((f) => !pageJs.has(f))
    console.log(`consumer (vite build, no config): worker ${kB(measured.zeroConfigWorkerGz)} gz`)
  } finally {
    await server.close()
  }
})

test('vite dev: the quick start and the README agent (memweave/ai, across a reload) work with no pre-bundling configuration', async ({ page }) => {
  test.setTimeout(180_000)
  const dev = await startUntil('npx', ['vite', '--host', '127.0.0.1', '--port', '0', '--strictPort'], app.dir, /Local:\s+(http:\/\/127\.0\.0\.1:\d+)\//)
  try {
    await quickStart(page, `${dev.match[1]}/`)
    // The README's agent (memweave/ai), told something, then asked after a reload: it remembers.
    await page.goto(`${dev.match[1]}/agent.html?say=${encodeURIComponent('Remember: My name is Ada')}`)
    await expect(page.locator('#reply')).toHaveText('Noted.', { timeout: 30_000 })
    await page.goto(`${dev.match[1]}/agent.html?say=${encodeURIComponent('What is my name?')}`)
    await expect(page.locator('#reply')).toHaveText('My name is Ada', { timeout: 30_000 })
  } finally {
    await dev.stop()
  }
})

test('memweave/ai memoryMiddleware from the packed package: a streamed turn remembered through openMemory, recalled into a generated one after a reopen (vite dev, the AI SDK mock model)', async ({ page }) => {
  test.setTimeout(240_000)
  // The page's own types against the installed package (skipLibCheck, as Vite's templates set it:
  // the `ai` package's .d.ts files need Node's types, which a browser project does not load).
  const types = await run('npx', ['tsc', '-p', 'tsconfig.ai.json'], app.dir)
  expect(types.output, 'tsc over the middleware page').not.toContain('error TS')
  expect(types.code, types.output).toBe(0)
  const dev = await startUntil('npx', ['vite', '--host', '127.0.0.1', '--port', '0', '--strictPort'], app.dir, /Local:\s+(http:\/\/127\.0\.0\.1:\d+)\//)
  try {
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(String(err)))
    await page.goto(`${dev.match[1]}/middleware.html`)
    await expect(page.locator('#result')).not.toHaveText('running…', { timeout: 60_000 })
    expect(JSON.parse((await page.locator('#result').textContent())!)).toEqual({
      told: 'Noted.', text: 'You live in Milan.', romeSuperseded: true, current: ['The user lives in Milan'], errors: [],
    })
    expect(errors).toEqual([])
  } finally {
    await dev.stop()
  }
})

async function device(browser: Browser, url: string, name: string): Promise<{ page: Page; did: string; close: () => Promise<void> }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(url)
  await expect(page.locator('#state')).toHaveText('ready')
  const did = await page.evaluate((n) => window.consumer.open(n), name)
  return { page, did, close: () => context.close() }
}

test('a pool syncs between two browser contexts through `memweave relay` from the installed bin; every module loads', async ({ browser }) => {
  test.setTimeout(240_000)
  const built = await run('npx', ['vite', 'build', 'pools', '--outDir', join(app.dir, 'dist-pools'), '--emptyOutDir'], app.dir)
  expect(built.code, built.output).toBe(0)
  const dist = join(app.dir, 'dist-pools')
  const server = new LoggingServer(dist)
  const relay = await startUntil(join(app.dir, 'node_modules', '.bin', 'memweave'), ['relay', '--host', '127.0.0.1', '--port', '0'], app.dir, /memweave relay listening on (ws:\/\/\S+)/)
  const url = `${await server.listen()}/`
  const a = await device(browser, url, 'device-a')
  const b = await device(browser, url, 'device-b')
  try {
    const pool = await a.page.evaluate(() => window.consumer.createPool())
    await a.page.evaluate(([p, did]) => window.consumer.share(p, did), [pool, b.did] as const)
    const tokenA = await a.page.evaluate(([p, did]) => window.consumer.token(p, did), [pool, a.did] as const)
    const tokenB = await a.page.evaluate(([p, did]) => window.consumer.token(p, did), [pool, b.did] as const)
    await a.page.evaluate(([p, u, t]) => window.consumer.connect(p, u, t), [pool, relay.match[1]!, tokenA] as const)
    await b.page.evaluate(([p, u, t]) => window.consumer.connect(p, u, t), [pool, relay.match[1]!, tokenB] as const)
    await a.page.evaluate((p) => window.consumer.write(p, '09:30'), pool)
    await expect.poll(() => b.page.evaluate((p) => window.consumer.objects(p), pool), { timeout: 60_000 }).toEqual(['09:30'])
    // And back: B's write reaches A.
    await b.page.evaluate((p) => window.consumer.write(p, '10:00'), pool)
    await expect.poll(() => a.page.evaluate((p) => window.consumer.objects(p), pool), { timeout: 60_000 }).toEqual(['09:30', '10:00'])
    // The pool's facts show in B's GMP store too.
    await expect.poll(() => b.page.evaluate(() => window.consumer.retrieve('standup starts at')), { timeout: 30_000 }).toHaveLength(2)

    expect(await a.page.evaluate(() => window.consumer.everyModule())).toEqual(['team-notes'])
    const pageJs = pageScripts(dist)
    const workerGz = server.jsGzipBytes((f) => !pageJs.has(f))
    console.log(`consumer (vite build, worker.format es): worker with every module ${kB(workerGz)} gz`)
    expect(workerGz).toBeLessThan(BUDGET.allModulesWorkerGz)
  } finally {
    await a.close()
    await b.close()
    await relay.stop()
    await server.close()
  }
})

// Issue 29: the README's figures are the ones measured above, and its no-bundler page works as printed.

test('the README quotes the worker sizes this test measures (within 10%)', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
  const quoted = /a facts-only page downloads (\d+(?:\.\d+)?) kB gz instead of (\d+(?:\.\d+)?) kB/.exec(readme)
  expect(quoted, 'the README\'s vite.config.js comment quotes both sizes').not.toBeNull()
  const [facts, zero] = [Number(quoted![1]) * 1024, Number(quoted![2]) * 1024]
  expect(measured.factsWorkerGz, 'measured by the vite build tests above').toBeDefined()
  expect(measured.zeroConfigWorkerGz, 'measured by the vite build tests above').toBeDefined()
  console.log(`consumer: the README says ${kB(facts)} and ${kB(zero)}; measured ${kB(measured.factsWorkerGz!)} and ${kB(measured.zeroConfigWorkerGz!)}`)
  expect(Math.abs(facts - measured.factsWorkerGz!) / measured.factsWorkerGz!, 'facts-only worker: update the README').toBeLessThan(0.1)
  expect(Math.abs(zero - measured.zeroConfigWorkerGz!) / measured.zeroConfigWorkerGz!, 'worker with no config: update the README').toBeLessThan(0.1)
})

test('with no bundler: the README\'s page runs from node_modules with its import map', async ({ page }) => {
  test.setTimeout(120_000)
  const server = new LoggingServer(app.dir) // the app's own directory, node_modules included, served as it is
  try {
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(String(err)))
    await page.goto(`${await server.listen()}/no-bundler.html`)
    await expect(page.locator('#answer')).toHaveText('The user prefers dark mode', { timeout: 30_000 })
    expect(errors).toEqual([])
  } finally {
    await server.close()
  }
})

declare global {
  interface Window {
    consumer: {
      open(name: string): Promise<string>
      createPool(): Promise<string>
      share(pool: string, did: string): Promise<void>
      token(pool: string, sub: string): Promise<string>
      connect(pool: string, url: string, token: string): Promise<void>
      write(pool: string, object: string): Promise<void>
      objects(pool: string): Promise<string[] | null>
      retrieve(query: string): Promise<string[]>
      everyModule(): Promise<string[]>
    }
  }
}
