import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test'

/**
 * The demo as a person meets it after `npm start`, for the demo's e2e files: the built CLI
 * (`node bin/memweave.js start`) in a child process runs the GMP server, the relay and the built
 * demo (vite build, into a temp dir here) on free ports. A browser context is one device (own
 * IndexedDB, own SharedWorker, own identity).
 */

const REPO = new URL('..', import.meta.url).pathname
const CLI = join(REPO, 'bin', 'memweave.js')
const VITE = join(REPO, 'node_modules', 'vite', 'bin', 'vite.js')
const BUILT = ['src/cli/start.ts', 'src/cli/static-server.ts'].map((f) => [join(REPO, f), join(REPO, 'dist', f.replace(/\.ts$/, '.js'))] as const)

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

/** `memweave start` on free ports; resolves with the demo's URL once the relay and the demo are up. */
function startCli(demoDir: string): Promise<{ child: ChildProcess; exited: Promise<unknown>; demo: string }> {
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

export interface DemoStack {
  /** The demo's URL. */
  readonly url: string
  /** Opens a new device (browser context) on the demo and waits for its agent. */
  device(browser: Browser, name: string, options?: { width?: number; height?: number }): Promise<Device>
  /** Closes the devices, stops `memweave start`, removes the build. */
  stop(): Promise<void>
}

export interface Device {
  readonly page: Page
  readonly did: string
  /** Uncaught errors of the page so far. */
  readonly errors: string[]
}

/** Builds the demo into a temp dir and starts `memweave start` on it. Needs `npm run build` first. */
export async function startDemo(): Promise<DemoStack> {
  for (const [src, built] of BUILT) {
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(src).mtimeMs) throw new Error(`dist/ is missing or stale (${built}): run "npm run build" first`)
  }
  const outDir = await mkdtemp(join(tmpdir(), 'memweave-demo-'))
  await run([VITE, 'build', '--config', 'demo/vite.config.ts', '--outDir', outDir, '--emptyOutDir'])
  const cli = await startCli(outDir)
  const contexts: BrowserContext[] = []
  return {
    url: cli.demo,
    async device(browser, name, options = {}) {
      const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 }, permissions: ['clipboard-read', 'clipboard-write'] })
      contexts.push(context)
      const page = await context.newPage()
      const errors: string[] = []
      page.on('pageerror', (err) => errors.push(String(err)))
      page.on('console', (msg) => {
        if (msg.type() === 'error') console.error(`[demo ${name}]`, msg.text())
      })
      await page.goto(cli.demo)
      // The agent's DID is shown shortened, the full one in its title.
      const did = (): Promise<string | null> => page.getByTestId('agent-did').evaluate((el) => el.getAttribute('title') ?? el.textContent)
      await expect.poll(did, { timeout: 20_000 }).toMatch(/^did:key:z6Mk\w+$/)
      expect(errors).toEqual([])
      return { page, did: (await did())!, errors }
    },
    async stop() {
      await Promise.all(contexts.splice(0).map((c) => c.close()))
      if (cli.child.exitCode === null) {
        cli.child.kill('SIGTERM')
        await cli.exited
      }
      await rm(outDir, { recursive: true, force: true })
    },
  }
}
