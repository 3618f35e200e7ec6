import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { pruneDist } from '../../scripts/prune-dist.js'

let root = ''
afterEach(() => rmSync(root, { recursive: true, force: true }))

function touch(path: string): void {
  mkdirSync(join(path, '..'), { recursive: true })
  writeFileSync(path, '')
}

test('the build prunes from dist/src the output of modules gone from src/, and only that', () => {
  root = mkdtempSync(join(tmpdir(), 'prune-dist-'))
  touch(join(root, 'src/conflict/read/slots.ts'))
  touch(join(root, 'src/index.ts'))
  for (const f of ['read/slots.js', 'read/slots.d.ts', 'slots.js', 'slots.d.ts', 'old/gone.js']) touch(join(root, 'dist/src/conflict', f))
  touch(join(root, 'dist/src/index.js'))
  touch(join(root, 'dist/src/index.d.ts'))
  touch(join(root, 'dist/worker/chunks/store-abc.js'))

  expect(pruneDist(root).sort()).toEqual(['dist/src/conflict/old/gone.js', 'dist/src/conflict/slots.d.ts', 'dist/src/conflict/slots.js'])
  expect(existsSync(join(root, 'dist/src/conflict/read/slots.js'))).toBe(true)
  expect(existsSync(join(root, 'dist/src/conflict/read/slots.d.ts'))).toBe(true)
  expect(existsSync(join(root, 'dist/src/index.d.ts'))).toBe(true)
  expect(existsSync(join(root, 'dist/src/conflict/old'))).toBe(false)
  expect(existsSync(join(root, 'dist/worker/chunks/store-abc.js'))).toBe(true)
})
