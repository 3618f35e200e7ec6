import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'

// README examples run as tests, so the front door cannot rot (STYLE.md rule 18).
const root = new URL('..', import.meta.url).pathname
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!)
const dir = join(root, 'test', '.readme-tmp')

afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the README has runnable TypeScript examples', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(2)
})

test.each(blocks.map((code, i) => [i, code] as const))('README example %i runs and its assertions hold', async (i, code) => {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `example-${i}.ts`)
  // console.assert only logs; make a failed assertion fail the test.
  const body = code
    .replace(/from 'memweave'/g, "from '../../src/index.js'")
    .replace(/from 'memweave\/node'/g, "from '../../src/node.js'")
    .replace(/console\.assert\(/g, '__assert(')
  writeFileSync(file, `const __assert = (ok: unknown, msg = 'README assertion failed') => { if (!ok) throw new Error(msg) }\n${body}\nexport {}\n`)
  await import(/* @vite-ignore */ file)
})
