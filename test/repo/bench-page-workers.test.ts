import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { runClientBench } from '../../bench/client-run.js'

/**
 * Issue 31: `bench/client-run.ts` failed with "the bench page loaded 3 times" on a fresh checkout, at
 * any size. Its page starts bench/bench-worker.ts through `new URL(...)`, which Vite's dependency scan
 * does not follow: the worker's dependencies were found while the page ran, and Vite reloaded the
 * page to serve them. Here the client bench runs at its smallest (no fill) with an empty dependency
 * cache, as after `npm ci`; runBenchPage refuses a run whose page loaded more than once.
 */
test('the openMemory client bench runs to its end on one page load, from an empty Vite dependency cache', async () => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'memweave-vite-cache-'))
  try {
    const { rows } = await runClientBench({ sizes: [1300], log: () => {}, timeoutMs: 240_000, cacheDir })
    const metrics = rows.map((r) => r.metric)
    expect(metrics).toContain('single write p50')
    expect(metrics).toContain('retrieve p50 at 1,300')
    expect(metrics).toContain('cold open at 1,300')
    for (const r of rows) expect(Number.isFinite(r.ratio) && r.ratio > 0, r.metric).toBe(true)
  } finally {
    await rm(cacheDir, { recursive: true, force: true })
  }
}, 300_000)
