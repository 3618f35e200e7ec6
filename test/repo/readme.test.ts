import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'

// README examples run as tests, so the front door cannot rot (STYLE.md rule 18). Each runs in a
// process of its own, as a user runs it: it must finish by itself (no timer or socket left open,
// issue 12) with its assertions holding.
const root = new URL('../..', import.meta.url).pathname
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)
const dir = join(root, 'test', '.readme-tmp')
const TSX = join(root, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs')

afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the README has runnable TypeScript examples', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(2)
})

function runAlone(file: string, timeoutMs: number): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((ok) => {
    const child = spawn(process.execPath, ['--import', TSX, file], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (b: Buffer) => (output += b.toString()))
    child.stderr.on('data', (b: Buffer) => (output += b.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      ok({ code, signal, output })
    })
  })
}

test.each(blocks.map((code, i) => [i, code] as const))('README example %i runs in its own process, exits by itself, and its assertions hold', async (i, code) => {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `example-${i}.mts`)
  // console.assert only logs; make a failed assertion fail the run.
  const body = code
    .replace(/from 'memweave'/g, "from '../../src/index.ts'")
    .replace(/from 'memweave\/node'/g, "from '../../src/node/index.ts'")
    .replace(/from 'memweave\/ai'/g, "from '../../src/ai/index.ts'")
    .replace(/console\.assert\(/g, '__assert(')
    // The README's MCP client starts the command as a user does (npx memweave); here it is this repository's build.
    .replace(/command: 'npx', args: \['memweave', /g, `command: process.execPath, args: [${JSON.stringify(join(root, 'bin', 'memweave.js'))}, `)
  writeFileSync(file, `const __assert = (ok: unknown, msg = 'README assertion failed') => { if (!ok) throw new Error(msg) }\n${body}\nexport {}\n`)
  const r = await runAlone(file, 25_000)
  expect(r.signal, `example ${i} did not exit by itself within 25 s:\n${r.output}`).toBeNull()
  expect(r.code, r.output).toBe(0)
}, 40_000)
