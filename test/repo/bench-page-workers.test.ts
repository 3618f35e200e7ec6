import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runClientBench } from '../../bench/client-run.js'

/** The rows every run of the client bench must have, each a finite figure (a part of the cold open may round to 0). */
function expectRows(rows: readonly { metric: string; ratio: number }[], extra: readonly string[] = []): void {
  const metrics = rows.map((r) => r.metric)
  for (const m of ['single write p50', 'retrieve p50 at 1,300', 'cold open at 1,300', ...extra]) expect(metrics).toContain(m)
  for (const r of rows) expect(Number.isFinite(r.ratio) && (r.metric.startsWith('cold open: ') ? r.ratio >= 0 : r.ratio > 0), r.metric).toBe(true)
}

/**
 * Issue 31: `bench/client-run.ts` failed with "the bench page loaded 3 times" on a fresh checkout, at
 * any size. Its page starts bench/bench-worker.ts as a worker, which Vite's dependency scan does
 * not follow: the worker's dependencies were found while the page ran, and Vite reloaded the
 * page to serve them. Here the client bench runs through the dev server at its smallest (no fill)
 * with an empty dependency cache, as after `npm ci`; runBenchPage refuses a run whose page loaded
 * more than once.
 */
test('the openMemory client bench runs to its end on one page load through the dev server, from an empty Vite dependency cache', async () => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'memweave-vite-cache-'))
  try {
    const { rows } = await runClientBench({ sizes: [1300], log: () => {}, timeoutMs: 240_000, cacheDir, serve: 'dev', coldOpens: 1 })
    expectRows(rows)
  } finally {
    await rm(cacheDir, { recursive: true, force: true })
  }
}, 300_000)

/**
 * Issue 31, fifth round: the client bench's default is the page and its worker bundled by `vite
 * build` and served as files, what a user's built app loads (through the dev server the worker's
 * module-by-module load was most of a small cold open). The built page must start its worker
 * (imported as `?worker&url`: a bare `new URL('./bench-worker.ts', ...)` would be copied as a
 * TypeScript file no browser runs) and report the cold open's parts, which the worker sends.
 */
test('the client bench runs built, and reports where the cold open went', async () => {
  const { rows } = await runClientBench({ sizes: [1300], log: () => {}, timeoutMs: 240_000, coldOpens: 1 })
  expectRows(rows, ['cold open: worker script and imports loaded', 'cold open: host open in the worker', 'cold open: first retrieve answered', 'cold open in-worker call'])
  // The parts happen one after another inside the cold open: together no longer than it.
  const open = rows.find((r) => r.metric === 'cold open at 1,300')!
  const parts = rows.filter((r) => r.metric.startsWith('cold open: '))
  expect(parts.length).toBe(6)
  expect(parts.reduce((sum, r) => sum + r.ratio, 0)).toBeLessThanOrEqual(1.01)
  expect(open.ratio).toBeGreaterThan(0)
}, 300_000)
