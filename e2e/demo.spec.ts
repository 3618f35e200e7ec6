import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect as baseExpect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'

/**
 * The demo as a person meets it after `npm start`: the built CLI (`node bin/memweave.js start`)
 * in a child process runs the GMP server, the relay and the built demo (vite build, into a temp
 * dir here) on free ports; two browser contexts are two devices (own IndexedDB, own SharedWorker,
 * own identity). Everything is done through the page's controls, as a person would: create a pool
 * on A, share it with B's DID, paste the join link on B, write on each, watch both converge and
 * flag the contradiction, settle it, take B offline and back, reload B, and reach "synced".
 */

// Replication is fast, but two Chromium contexts, a worker each and the relay share a small machine.
const expect = baseExpect.configure({ timeout: 20_000 })
const REPO = new URL('..', import.meta.url).pathname
const CLI = join(REPO, 'bin', 'memweave.js')
const VITE = join(REPO, 'node_modules', 'vite', 'bin', 'vite.js')
const BUILT = ['src/cli/start.ts', 'src/cli/static-server.ts'].map((f) => [join(REPO, f), join(REPO, 'dist', f.replace(/\.ts$/, '.js'))] as const)

let outDir = ''
let stack: { child: ChildProcess; exited: Promise<unknown>; demo: string } | null = null
const contexts: BrowserContext[] = []

/** Runs a command to its end; rejects with its output when it fails. */
function run(args: readonly string[]): Promise<void> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`${args.join(' ')} exited with ${code}:\n${out}`))))
  })
}

/** `memweave start` on free ports; resolves with the demo's URL once all three lines are printed. */
function startStack(demoDir: string): Promise<{ child: ChildProcess; exited: Promise<unknown>; demo: string }> {
  const child = spawn(process.execPath, [CLI, 'start', '--gmp-port', '0', '--relay-port', '0', '--demo-port', '0', '--demo', demoDir], {
    cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'],
  })
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise((ok) => child.once('exit', ok))
  return new Promise((ok, fail) => {
    let out = ''
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      out += text
      const demo = /memweave demo on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)
      if (demo && /relay listening on ws:/.test(out)) ok({ child, exited, demo: demo[1]! })
    })
    void exited.then((code) => fail(new Error(`memweave start exited (${String(code)}) before serving: ${err}`)))
  })
}

test.beforeAll(async () => {
  test.setTimeout(120_000)
  for (const [src, built] of BUILT) {
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(src).mtimeMs) throw new Error(`dist/ is missing or stale (${built}): run "npm run build" first`)
  }
  outDir = await mkdtemp(join(tmpdir(), 'memweave-demo-'))
  await run([VITE, 'build', '--config', 'demo/vite.config.ts', '--outDir', outDir, '--emptyOutDir'])
  stack = await startStack(outDir)
})

test.afterAll(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()))
  if (stack && stack.child.exitCode === null) {
    stack.child.kill('SIGTERM')
    await stack.exited
  }
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

interface Device {
  readonly page: Page
  readonly did: string
}

async function openDevice(browser: Browser, name: string): Promise<Device> {
  const context = await browser.newContext()
  contexts.push(context)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(String(err)))
  page.on('console', (msg) => {
    if (msg.type() === 'error') console.error(`[demo ${name}]`, msg.text())
  })
  await page.goto(stack!.demo)
  await expect(page.getByTestId('agent-did')).toHaveText(/^did:key:z6Mk/)
  expect(errors).toEqual([])
  return { page, did: (await page.getByTestId('agent-did').textContent())! }
}

async function writeMemory(d: Device, subject: string, predicate: string, object: string): Promise<void> {
  await d.page.getByTestId('write-subject').fill(subject)
  await d.page.getByTestId('write-predicate').fill(predicate)
  await d.page.getByTestId('write-object').fill(object)
  await d.page.getByTestId('write').click()
}

test('two devices share a pool through the relay of `memweave start`, from the demo page alone', async ({ browser }) => {
  const a = await openDevice(browser, 'A')
  const b = await openDevice(browser, 'B')
  expect(a.did).not.toBe(b.did)

  // A creates a pool: it is connected to the relay with an owner-proven token and in step.
  await a.page.getByTestId('pool-name').fill('household')
  await a.page.getByTestId('create-pool').click()
  await expect(a.page.getByTestId('pool-title')).toHaveText('household')
  await expect(a.page.getByTestId('sync-state')).toHaveText('synced')

  // A shares it with B's DID and gets a join link; B pastes it.
  await a.page.getByTestId('share-did').fill(b.did)
  await a.page.getByTestId('share').click()
  await expect(a.page.getByTestId('join-link')).toHaveValue(/#join=[A-Za-z0-9_-]+$/)
  await expect(a.page.getByTestId('members')).toContainText('reads and writes')
  const link = await a.page.getByTestId('join-link').inputValue()
  await b.page.getByTestId('join-code').fill(link)
  await b.page.getByTestId('join-pool').click()
  await expect(b.page.getByTestId('pool-title')).toHaveText('household')
  await expect(b.page.getByTestId('members')).toContainText('you')
  await expect(b.page.getByTestId('write')).toBeVisible() // B was granted write

  // A writes; B sees it arrive, attributed to A.
  await writeMemory(a, 'Aria', 'lives_in', 'Rome')
  await expect(b.page.getByTestId('memories')).toContainText('Rome')
  await expect(b.page.getByTestId('timeline')).toContainText(`Aria · lives_in · Rome arrived from ${a.did}`)

  // B writes back a different object for the same subject and predicate: both sides see it and flag the conflict.
  await writeMemory(b, 'Aria', 'lives_in', 'Milan')
  await expect(a.page.getByTestId('memories')).toContainText('Milan')
  for (const d of [a, b]) {
    await expect(d.page.getByTestId('pool-conflict')).toHaveCount(1)
    await expect(d.page.getByTestId('pool-conflict')).toContainText('Aria · lives_in')
    await expect(d.page.getByTestId('memory')).toHaveCount(2)
  }

  // A settles it for Milan: the resolution travels, the conflict is gone on both, Rome is superseded.
  await a.page.getByTestId('pool-conflict').getByRole('button', { name: 'keep this' }).and(
    a.page.getByTestId('pool-conflict').locator('div', { hasText: 'Milan' }).getByRole('button')).click()
  for (const d of [a, b]) {
    await expect(d.page.getByTestId('pool-conflict')).toHaveCount(0)
    await expect(d.page.locator('tr.archived')).toContainText('Rome')
  }

  // B goes offline: A's next write waits for it, and arrives when B reconnects.
  await b.page.getByTestId('pool-sync').getByRole('button', { name: 'Go offline' }).click()
  await expect(b.page.getByTestId('sync-state')).toHaveText('offline')
  await writeMemory(a, 'Aria', 'speaks', 'Italian')
  await expect(a.page.getByTestId('memories')).toContainText('Italian')
  await expect(b.page.getByTestId('memories')).not.toContainText('Italian')
  await b.page.getByTestId('pool-sync').getByRole('button', { name: 'Reconnect' }).click()
  await expect(b.page.getByTestId('memories')).toContainText('Italian')

  // A reload keeps the agent and the pool, and reconnects with the remembered join code.
  await b.page.reload()
  await expect(b.page.getByTestId('agent-did')).toHaveText(b.did)
  await expect(b.page.getByTestId('pool-title')).toHaveText('household')
  await expect(b.page.getByTestId('sync-state')).toHaveText('synced')
  await writeMemory(a, 'Aria', 'likes', 'espresso')
  await expect(b.page.getByTestId('memories')).toContainText('espresso')

  for (const d of [a, b]) {
    await expect(d.page.getByTestId('memory')).toHaveCount(4)
    await expect(d.page.getByTestId('sync-state')).toHaveText('synced')
    await expect(d.page.getByTestId('pool-sync')).toContainText('pending out 0 / in 0')
    await expect(d.page.locator('#message.error')).toHaveCount(0)
  }
})
