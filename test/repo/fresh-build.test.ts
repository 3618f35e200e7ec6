import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, expect, test } from 'vitest'
import { STEPS, whyStale } from '../../scripts/fresh-build.js'

// Issue 29, item 7: `npm start` rebuilt the library and the demo on every start (about 20 s).
// scripts/fresh-build.ts runs a build only when its output is missing or older than a source.

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const SCRIPT = join(ROOT, 'scripts', 'fresh-build.ts')
const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')
const trees: string[] = []
afterAll(() => {
  for (const t of trees) rmSync(t, { recursive: true, force: true })
})

/** Seconds since the epoch, so every time below is set, not read from a clock. */
const T0 = 1_700_000_000

function write(root: string, path: string, at: number, text = 'x'): void {
  const file = join(root, path)
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  utimesSync(file, at, at)
}

function touch(root: string, path: string, at: number): void {
  utimesSync(join(root, path), at, at)
}

/**
 * A package tree like this repository's: sources at T0, outputs at T0 + 10. Its npm scripts are
 * stand-ins for tsc and Vite that append their name to build.log and write their outputs: what a
 * real build is to this script (it reads times and runs npm scripts).
 */
function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'memweave-fresh-build-'))
  trees.push(root)
  const out = (files: readonly string[]) =>
    `node -e "const fs=require('fs'),p=require('path');for(const f of ${JSON.stringify(files).replace(/"/g, "'")}){fs.mkdirSync(p.dirname(f),{recursive:true});fs.writeFileSync(f,'built')}"`
  const scripts = {
    build: `node -e "require('fs').appendFileSync('build.log','build\\n')" && ${out(STEPS[0]!.outputs)}`,
    'build:demo': `node -e "require('fs').appendFileSync('build.log','build:demo\\n')" && ${out(STEPS[1]!.outputs)}`,
  }
  write(root, 'package.json', T0, JSON.stringify({ name: 'fixture', private: true, scripts }))
  for (const f of ['src/index.ts', 'src/cli/main.ts', 'worker/memory-worker.ts', 'demo/src/main.ts', 'demo/index.html', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json']) write(root, f, T0)
  for (const d of ['src/cli', 'src', 'worker', 'demo/src', 'demo']) touch(root, d, T0)
  return root
}

function built(root: string, at = T0 + 10): void {
  for (const step of STEPS) for (const f of step.outputs) write(root, f, at, 'built')
  touch(root, 'demo', T0) // demo/dist was created in it
}

const stale = (root: string): string[] => STEPS.filter((s) => whyStale(root, s) !== null).map((s) => s.script)

test('a build newer than every source is reused; a missing or older output is rebuilt', () => {
  const root = tree()
  expect(stale(root)).toEqual(['build', 'build:demo'])
  expect(whyStale(root, STEPS[0]!)).toBe('dist/src/index.js is missing')
  built(root)
  expect(stale(root)).toEqual([])
  unlinkSync(join(root, 'dist/worker/memory-worker.js'))
  expect(stale(root)).toEqual(['build'])
})

test.each([
  ['a library source', 'src/cli/main.ts', ['build', 'build:demo']],
  ['the worker', 'worker/memory-worker.ts', ['build', 'build:demo']],
  ['a demo source', 'demo/src/main.ts', ['build:demo']],
  ['the demo page', 'demo/index.html', ['build:demo']],
  ['tsconfig.build.json', 'tsconfig.build.json', ['build']],
  ['the lock file', 'package-lock.json', ['build', 'build:demo']],
])('%s changed after the build: %j rebuilt', (_what, path, expected) => {
  const root = tree()
  built(root)
  touch(root, path, T0 + 20)
  expect(stale(root)).toEqual(expected)
})

test('a deleted source (its folder changed) makes the build stale; the demo output folder itself is no source', () => {
  const root = tree()
  write(root, 'src/old.ts', T0)
  touch(root, 'src', T0)
  built(root)
  unlinkSync(join(root, 'src/old.ts'))
  touch(root, 'src', T0 + 20)
  expect(stale(root)).toEqual(['build', 'build:demo'])
  const again = tree()
  built(again)
  // A later demo build writes demo/dist again: newer than its other outputs' sources, not a reason to rebuild.
  write(again, 'demo/dist/assets/index.js', T0 + 30, 'built')
  touch(again, 'demo/dist', T0 + 30)
  expect(stale(again)).toEqual([])
})

test('the script runs only the stale npm scripts: both on a new tree, none when fresh, the demo after a demo edit', async () => {
  const root = tree()
  const run = () => promisify(execFile)(process.execPath, ['--import', TSX, SCRIPT], { cwd: root })
  const log = (): string[] => readFileSync(join(root, 'build.log'), 'utf8').trim().split('\n')
  const first = await run()
  expect(log()).toEqual(['build', 'build:demo'])
  expect(first.stderr).toMatch(/npm run build \(dist\/src\/index\.js is missing\)/)
  // The stand-in builds wrote their outputs now, after the sources' T0.
  const second = await run()
  expect(log()).toEqual(['build', 'build:demo'])
  expect(second.stderr).toMatch(/not running "npm run build"/)
  expect(second.stderr).toMatch(/not running "npm run build:demo"/)
  touch(root, 'demo/src/main.ts', Date.now() / 1000 + 60)
  await run()
  expect(log()).toEqual(['build', 'build:demo', 'build:demo'])
}, 60_000)

test('npm start builds through scripts/fresh-build.ts, then serves', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  expect(pkg.scripts['start']).toBe('tsx scripts/fresh-build.ts && node bin/memweave.js start --demo demo/dist')
})
