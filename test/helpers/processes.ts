import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { join, resolve } from 'node:path'

/**
 * The CLI as a real process, for the tests that hold the built command (`bin/memweave.js`) to what it
 * prints and how it exits. Several folders did this by hand, each with its own copy of the paths,
 * the exit-code reading and the wait for the one line a server prints; one copy here keeps them alike.
 * A Redis server for the cluster tests is test/helpers/redis-server.ts.
 */

/** The repository's root (where package.json is). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))

/** The built command, run with this Node: `node bin/memweave.js ...`. */
export const CLI_BIN = join(REPO_ROOT, 'bin', 'memweave.js')

/** What a finished CLI run printed, and its exit code (1 when the process gave none). */
export interface CliResult {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `node bin/memweave.js <args>` to its end; a non-zero exit is a result, not an error. */
export function runCliProcess(args: readonly string[], options: { readonly cwd?: string } = {}): Promise<CliResult> {
  return new Promise((ok) => {
    execFile(process.execPath, [CLI_BIN, ...args], { cwd: options.cwd }, (err, stdout, stderr) =>
      ok({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

/** A CLI server process that printed its listening line. */
export interface CliServer {
  readonly child: ChildProcess
  /** The address the first line named (the pattern's first group). */
  readonly url: string
  /** The exit code, once the process exits. */
  readonly exited: Promise<number | null>
  /** What the process wrote to stderr so far. */
  readonly stderr: () => string
}

/**
 * Starts `node bin/memweave.js <args>` and waits for its first stdout line, which must match
 * `listening` (its first group is the address). Fails if the line differs or the process exits first.
 * `onSpawn` sees the child before the wait, so a caller that kills its children after the test holds
 * this one even when it never listens.
 */
export async function startCliServer(
  args: readonly string[],
  listening: RegExp,
  options: { readonly name?: string; readonly onSpawn?: (child: ChildProcess) => void } = {},
): Promise<CliServer> {
  const name = options.name ?? 'memweave'
  const child = spawn(process.execPath, [CLI_BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  options.onSpawn?.(child)
  let err = ''
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)))
  const lines = createInterface({ input: child.stdout! })
  const url = await new Promise<string>((ok, fail) => {
    lines.once('line', (line) => {
      const m = listening.exec(line)
      if (m) ok(m[1]!)
      else fail(new Error(`unexpected first line: ${line}`))
    })
    void exited.then((code) => fail(new Error(`${name} exited with ${code} before listening: ${err}`)))
  })
  return { child, url, exited, stderr: () => err }
}

/**
 * Builds `dist/` with tsc when any of `built` (paths under the repo) is missing or older than the
 * newest file in src/, so a CLI test runs today's code. tsc still emits on a type error elsewhere in
 * src/; only a missing build is fatal here (the typecheck is `npm run typecheck`'s job). Only when stale:
 * a rebuild on every run rewrote dist/ under the `memweave mcp` processes that other test files were
 * starting in parallel (a half-written module: "does not provide an export named ...").
 */
export async function ensureBuilt(built: readonly string[]): Promise<void> {
  const files = built.map((f) => join(REPO_ROOT, f))
  const sources = await readdir(join(REPO_ROOT, 'src'), { recursive: true })
  const newest = Math.max(...sources.filter((f) => f.endsWith('.ts')).map((f) => statSync(join(REPO_ROOT, 'src', f)).mtimeMs))
  if (files.every((f) => existsSync(f) && statSync(f).mtimeMs >= newest)) return
  await promisify(execFile)(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT }).catch(
    (err: unknown) => {
      if (!files.every((f) => existsSync(f))) throw err
    },
  )
}

/**
 * `runCli`'s io in process: what it prints gathered in `out`, and `controller` standing for the
 * signal that shuts a server command down (abort it to stop `relay`, `start` or `gmp serve`).
 */
export function captureCli() {
  const out = { stdout: '', stderr: '' }
  const controller = new AbortController()
  return {
    out,
    controller,
    io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env: {}, shutdown: () => controller.signal },
  }
}
