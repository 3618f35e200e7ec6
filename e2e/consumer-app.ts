import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, extname, join, normalize, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

/**
 * A fresh app that uses memweave the way a user's does: the packed tarball (`npm pack`, which runs
 * `prepack`) installed with a fresh resolve (no lockfile of ours), Vite and TypeScript from the
 * registry, and the README's web-app files written verbatim into it. Nothing here imports `src/`.
 */

const REPO = resolve(new URL('..', import.meta.url).pathname)
const TEMPLATE = join(REPO, 'e2e', 'consumer')

export interface RunResult {
  readonly code: number | null
  readonly output: string
}

/** Runs a command to its end; resolves with its exit code and interleaved output (never rejects on a non-zero exit). */
export function run(cmd: string, args: readonly string[], cwd: string, timeoutMs = 600_000): Promise<RunResult> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } })
    let output = ''
    child.stdout!.on('data', (b: Buffer) => (output += b.toString()))
    child.stderr!.on('data', (b: Buffer) => (output += b.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('error', fail)
    child.once('exit', (code) => {
      clearTimeout(timer)
      ok({ code, output })
    })
  })
}

async function mustRun(cmd: string, args: readonly string[], cwd: string): Promise<string> {
  const r = await run(cmd, args, cwd)
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.code}) in ${cwd}:\n${r.output.slice(-4000)}`)
  return r.output
}

/** The README's files for a web app: fenced blocks whose first line names a path (`// src/main.js`, `<!-- index.html -->`). */
export function readmeAppFiles(): Map<string, string> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8')
  const files = new Map<string, string>()
  for (const m of readme.matchAll(/```(?:js|html)\n([\s\S]*?)```/g)) {
    const body = m[1]!
    const first = body.split('\n', 1)[0]!
    const path = /^\/\/ ([\w./-]+\.js)$/.exec(first)?.[1] ?? /^<!-- ([\w./-]+\.html) -->$/.exec(first)?.[1]
    if (path) files.set(path, body)
  }
  return files
}

export interface Sizes {
  readonly tarballBytes: number
  readonly packedFiles: number
  readonly browserOnlyPackages: number
  /** Bytes on disk of that install's node_modules. */
  readonly browserOnlyBytes: number
  readonly packagesWithInstallScripts: readonly string[]
}

export interface ConsumerApp {
  readonly dir: string
  /** The browser-only install (memweave alone, no optional peers). */
  readonly bareDir: string
  readonly sizes: Sizes
  cleanup(): void
}

/** Packages npm installed, from the hidden lockfile it writes into node_modules. */
function installedPackages(dir: string): Array<{ name: string; hasInstallScript: boolean }> {
  const lock = JSON.parse(readFileSync(join(dir, 'node_modules', '.package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean; dev?: boolean }>
  }
  return Object.entries(lock.packages)
    .filter(([path]) => path.startsWith('node_modules/'))
    .map(([path, p]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), hasInstallScript: p.hasInstallScript === true }))
}

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const INSTALL = ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error']

export async function prepareConsumerApp(): Promise<ConsumerApp> {
  const dir = mkdtempSync(join(tmpdir(), 'memweave-consumer-'))
  const packOut = await mustRun(NPM, ['pack', '--json', '--pack-destination', dir], REPO)
  const packed = (JSON.parse(packOut.slice(packOut.indexOf('['))) as Array<{ filename: string; size: number; entryCount: number }>)[0]!
  const tarball = join(dir, packed.filename)

  // A browser-only app: memweave and nothing else, to count what it drags in.
  const bare = join(dir, 'browser-only')
  mkdirSync(bare)
  writeFileSync(join(bare, 'package.json'), JSON.stringify({ name: 'browser-only', private: true, type: 'module', dependencies: { memweave: `file:${tarball}` } }))
  await mustRun(NPM, INSTALL, bare)
  const bareInstalled = installedPackages(bare)

  // The app: the README's files, the test's second page, and the relay's optional peer `ws`.
  const app = join(dir, 'app')
  mkdirSync(app)
  writeFileSync(join(app, 'package.json'), JSON.stringify({
    name: 'consumer-app', private: true, type: 'module',
    dependencies: { memweave: `file:${tarball}`, ws: '^8.18.0', ai: '>=5.0.0' },
    devDependencies: { vite: '^8.0.0', typescript: '^5.9.0', '@types/node': '^20.19.0' },
  }, null, 2))
  for (const [path, body] of readmeAppFiles()) {
    mkdirSync(dirname(join(app, path)), { recursive: true })
    writeFileSync(join(app, path), body)
  }
  cpSync(TEMPLATE, app, { recursive: true })
  // The second page is built with the README's config too (Vite reads the config of the root it builds).
  writeFileSync(join(app, 'pools', 'vite.config.js'), readFileSync(join(app, 'vite.config.js')))
  writeFileSync(join(app, 'vite.zero.config.js'), 'export default {}\n')
  await mustRun(NPM, INSTALL, app)

  return {
    dir: app,
    bareDir: bare,
    sizes: {
      tarballBytes: packed.size,
      packedFiles: packed.entryCount,
      browserOnlyPackages: bareInstalled.filter((p) => p.name !== 'memweave').length,
      browserOnlyBytes: listFiles(join(bare, 'node_modules')).reduce((sum, f) => sum + statSync(f).size, 0),
      packagesWithInstallScripts: bareInstalled.filter((p) => p.hasInstallScript).map((p) => p.name),
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
}

/** A static server for a built app that logs every file it served: what the browser downloaded, page and workers alike. */
export class LoggingServer {
  readonly served: string[] = []
  readonly #server: Server
  readonly #root: string
  url = ''

  constructor(root: string) {
    this.#root = resolve(root)
    this.#server = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
      const file = normalize(join(this.#root, path.endsWith('/') ? `${path}index.html` : path))
      if (!file.startsWith(this.#root)) return void res.writeHead(403).end()
      try {
        if (!statSync(file).isFile()) throw new Error('not a file')
      } catch {
        return void res.writeHead(404).end()
      }
      this.served.push(file)
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' })
      res.end(readFileSync(file))
    })
  }

  async listen(): Promise<string> {
    await new Promise<void>((ok) => this.#server.listen(0, '127.0.0.1', ok))
    const address = this.#server.address() as { port: number }
    this.url = `http://127.0.0.1:${address.port}`
    return this.url
  }

  /** Gzipped bytes of the distinct JavaScript files served so far (optionally only those `keep` accepts). */
  jsGzipBytes(keep: (file: string) => boolean = () => true): number {
    return [...new Set(this.served)].filter((f) => f.endsWith('.js') && keep(f)).reduce((sum, f) => sum + gzipSync(readFileSync(f)).length, 0)
  }

  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((ok) => this.#server.close(() => ok()))
  }
}

/** The JavaScript files a built page loads by itself: its entry scripts and their static imports (not the workers). */
export function pageScripts(dist: string, html = 'index.html'): Set<string> {
  const page = readFileSync(join(dist, html), 'utf8')
  const entries = [...page.matchAll(/<script[^>]+src="([^"]+\.js)"/g), ...page.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g)]
    .map((m) => join(dist, m[1]!))
  const seen = new Set<string>()
  const queue = [...entries]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*["'`](\.\.?\/[\w./-]+?\.js)["'`]/g)) queue.push(join(dirname(file), m[1]!))
  }
  return seen
}

/** A long-running child (vite dev, the relay) whose output is watched for a line. */
export async function startUntil(cmd: string, args: readonly string[], cwd: string, ready: RegExp, timeoutMs = 60_000): Promise<{ child: ChildProcess; match: RegExpExecArray; stop: () => Promise<void> }> {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' })
  let output = ''
  const match = await new Promise<RegExpExecArray>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${cmd} ${args.join(' ')} did not print ${ready} within ${timeoutMs} ms:\n${output}`)), timeoutMs)
    const onData = (b: Buffer): void => {
      // eslint-disable-next-line no-control-regex
      output += b.toString().replace(/\x1b\[[0-9;]*m/g, '')
      const m = ready.exec(output)
      if (m) {
        clearTimeout(timer)
        ok(m)
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => {
      clearTimeout(timer)
      fail(new Error(`${cmd} exited (${code}) before it was ready:\n${output}`))
    })
  })
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise<void>((ok) => child.once('exit', () => ok()))
    // The whole group: `npx vite` runs vite as a grandchild.
    try {
      process.kill(-child.pid!, 'SIGTERM')
    } catch {
      child.kill('SIGTERM')
    }
    await exited
  }
  return { child, match, stop }
}

/** Every file name under a directory, recursively (for messages). */
export function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}
