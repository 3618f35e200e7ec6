/**
 * `npm start`'s first step: runs `npm run build` and `npm run build:demo` only when their output is
 * missing or older than one of their sources (issue 29, item 7: every start rebuilt everything,
 * about 20 s of tsc and Vite, to serve what was already built). Run in the package's root (npm
 * does); `npm start` then runs `memweave start --demo demo/dist` itself, so signals reach the
 * server as before.
 *
 * A step is fresh when its oldest output file is newer than the newest file or folder among its
 * inputs. Folders count: deleting a source changes its folder's time, not any file's (but for a
 * folder holding the step's own output). Outputs are
 * a few files each build rewrites whole (tsc rewrites every output, Vite empties its folder).
 * Limits: a dependency upgraded in node_modules without a change to package-lock.json, or a clock
 * set back, is not seen; `npm run build` rebuilds in any case.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'

export interface BuildStep {
  /** The npm script that builds it. */
  readonly script: string
  /** Files the script writes, relative to the root. */
  readonly outputs: readonly string[]
  /** Files and folders it reads, relative to the root (folders whole, but for `skip`). */
  readonly inputs: readonly string[]
  /** Folders inside the inputs that are not inputs (the step's own output). */
  readonly skip?: readonly string[]
}

export const STEPS: readonly BuildStep[] = [
  {
    script: 'build',
    outputs: ['dist/src/index.js', 'dist/src/cli/main.js', 'dist/worker/memory-worker.js'],
    inputs: ['src', 'worker', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
  },
  {
    // The demo imports the library's sources (../src, ../worker), not dist/.
    script: 'build:demo',
    outputs: ['demo/dist/index.html'],
    inputs: ['demo', 'src', 'worker', 'tsconfig.json', 'package.json', 'package-lock.json'],
    skip: ['demo/dist'],
  },
]

/** The newest modification time (ms) in the tree at `path`, folders included; -Infinity when it is not there. */
function newestIn(path: string, skip: ReadonlySet<string>): number {
  if (skip.has(path) || !existsSync(path)) return Number.NEGATIVE_INFINITY
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  const entries = readdirSync(path)
  // A folder holding the step's own output changes when that output is made (demo/ when Vite
  // recreates demo/dist): its own time is not a source's.
  let newest = entries.some((e) => skip.has(join(path, e))) ? Number.NEGATIVE_INFINITY : stat.mtimeMs
  for (const entry of entries) {
    // node_modules in an input folder (a demo's own) is not a source of this build.
    if (entry === 'node_modules') continue
    newest = Math.max(newest, newestIn(join(path, entry), skip))
  }
  return newest
}

/** Why `step` must run in `root`, or null when its output is newer than every input. */
export function whyStale(root: string, step: BuildStep): string | null {
  let oldest = Number.POSITIVE_INFINITY
  for (const out of step.outputs) {
    const path = join(root, out)
    if (!existsSync(path)) return `${out} is missing`
    oldest = Math.min(oldest, statSync(path).mtimeMs)
  }
  const skip = new Set((step.skip ?? []).map((s) => join(root, s)))
  for (const input of step.inputs) {
    if (newestIn(join(root, input), skip) >= oldest) return `${input} changed since ${relative(root, join(root, step.outputs[0]!))} was built`
  }
  return null
}

/** Runs each stale step's npm script in `root`; returns the exit code (the first failing script's). */
export function buildWhatIsStale(root: string, steps: readonly BuildStep[] = STEPS, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): number {
  for (const step of steps) {
    const why = whyStale(root, step)
    if (why === null) {
      log(`npm start: ${step.outputs.join(', ')} newer than every source: not running "npm run ${step.script}"`)
      continue
    }
    log(`npm start: npm run ${step.script} (${why})`)
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const run = spawnSync(npm, ['run', step.script, '--silent'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
    if (run.status !== 0) return run.status ?? 1
  }
  return 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = buildWhatIsStale(process.cwd())
}
